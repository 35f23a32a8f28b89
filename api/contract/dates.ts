import * as v from 'valibot';

// Calendar days a request may name. The regex alone lets through Feb 30 and year 0, and an
// unbounded year lets a range run past 9999-12-31, where ISO day strings stop sorting as dates.

/** The earliest and latest day any request may ask about. */
export const FIRST_DAY = '2000-01-01';
export const LAST_DAY = '2099-12-31';

/** true when `day` is YYYY-MM-DD and that day exists in the Gregorian calendar */
export function isCalendarDay(day: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

/** A UTC calendar day between FIRST_DAY and LAST_DAY, as 'YYYY-MM-DD'. */
export const CalendarDaySchema = v.pipe(
  v.string('Dates are YYYY-MM-DD'),
  v.regex(/^\d{4}-\d{2}-\d{2}$/, 'Dates are YYYY-MM-DD'),
  v.check(isCalendarDay, 'Not a calendar date'),
  v.check((day) => day >= FIRST_DAY && day <= LAST_DAY, `Dates are between ${FIRST_DAY} and ${LAST_DAY}`),
);
