import * as v from 'valibot';
import { isTimeZone } from './audit-log';

// The account's time zone (Settings > Branding): the console shows dates in it, in each admin's
// browser locale; customer pages and the sealed PDF show dates in it, in the caller's language.

export const DEFAULT_ACCOUNT_TIME_ZONE = 'UTC';

/** GET/PUT /api/account-time-zone */
export const AccountTimeZoneSchema = v.object({
  timeZone: v.pipe(
    v.string('Choose a time zone'),
    v.trim(),
    v.minLength(1, 'Choose a time zone'),
    v.maxLength(64, 'Choose a time zone from the list'),
    v.check(isTimeZone, 'Choose a time zone from the list, such as Europe/London'),
  ),
});
export type AccountTimeZone = v.InferOutput<typeof AccountTimeZoneSchema>;
