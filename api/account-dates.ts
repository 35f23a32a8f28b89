import type { Trx } from './db/index';
import { accountTimeZone } from './branding/time-zone';
import { customerDate, customerDateTime, type DateInput } from './customer-pages/dates';

// Dates inside sentences the server writes for admins (audit entries, notifications): as the
// console shows dates, in the account's time zone (Settings > Branding) and one readable style
// ("December 2, 2026 at 6:01 AM EST"; a day: "December 2, 2026"), never an ISO string. The
// sentences are English, as the console is.

export type AccountDates = { day(value: DateInput): string; moment(value: DateInput): string };

export async function accountDates(trx: Trx, accountId: string): Promise<AccountDates> {
  const zone = await accountTimeZone(trx, accountId);
  return { day: (value) => customerDate(value, 'en', zone), moment: (value) => customerDateTime(value, 'en', zone) };
}
