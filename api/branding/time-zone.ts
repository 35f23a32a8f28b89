import type { Trx } from '../db/index';
import { audit, type Actor } from '../audit';
import { isTimeZone } from '../contract/audit-log';
import { DEFAULT_ACCOUNT_TIME_ZONE } from '../contract/time-zone';

// The account's time zone (Settings > Branding): every role reads it (the console formats every
// date in it), only the owner changes it, audited in the same transaction.

export async function accountTimeZone(trx: Trx, accountId: string): Promise<string> {
  const row = await trx.selectFrom('accounts').select('time_zone').where('id', '=', accountId).executeTakeFirst();
  return row?.time_zone && isTimeZone(row.time_zone) ? row.time_zone : DEFAULT_ACCOUNT_TIME_ZONE;
}

export async function setAccountTimeZone(trx: Trx, accountId: string, actor: Actor, timeZone: string): Promise<void> {
  const before = await accountTimeZone(trx, accountId);
  if (before === timeZone) return;
  await trx.updateTable('accounts').set({ time_zone: timeZone }).where('id', '=', accountId).execute();
  await audit(trx, accountId, actor, {
    namespace: 'global',
    description: `Changed the account's time zone from ${before} to ${timeZone}`,
    event: 'account.time-zone.updated',
  });
}
