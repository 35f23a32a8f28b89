import { isTimeZone } from '../contract/audit-log';
import type { Locale } from '../contract/locales';

// Dates as customers read them, on customer pages and in the sealed PDF: in the caller's language
// and the account's time zone (Settings > Branding), one style for all of them. Every customer
// page and the certificate page format through these; nothing there calls Intl or toISOString
// for a date of its own. Digits stay Latin (numberingSystem latn) so a date reads the same in a
// PDF's fonts and beside a phone number. The console's dates are src/ui/format.ts.

export type DateInput = string | number | Date;

const zoneOrUtc = (timeZone: string | null | undefined) => (timeZone && isTimeZone(timeZone) ? timeZone : 'UTC');

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(locale: Locale, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale}|${JSON.stringify(options)}`;
  let f = formatters.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat(locale, { numberingSystem: 'latn', ...options });
    formatters.set(key, f);
  }
  return f;
}

/** "December 2, 2026 at 6:01 AM EST": a moment (a link's expiry, a signature). */
export function customerDateTime(value: DateInput, locale: Locale, timeZone: string | null | undefined): string {
  return (
    formatter(locale, { dateStyle: 'long', timeStyle: 'short', timeZone: zoneOrUtc(timeZone) }).format(new Date(value)) +
    zoneSuffix(value, locale, timeZone)
  );
}

/** "December 2, 2026": the day a moment falls on in the account's zone (a link valid until, a date signed). */
export function customerDate(value: DateInput, locale: Locale, timeZone: string | null | undefined): string {
  return formatter(locale, { dateStyle: 'long', timeZone: zoneOrUtc(timeZone) }).format(new Date(value));
}

/** "6:01 AM EST": the time of day, with the zone it is in. */
export function customerTime(value: DateInput, locale: Locale, timeZone: string | null | undefined): string {
  return (
    formatter(locale, { timeStyle: 'short', timeZone: zoneOrUtc(timeZone) }).format(new Date(value)) +
    zoneSuffix(value, locale, timeZone)
  );
}

/** "December 2, 2026, 6:01:55 AM": a line of the certificate's timeline (its heading names the zone). */
export function customerTimestamp(value: DateInput, locale: Locale, timeZone: string | null | undefined): string {
  return formatter(locale, { dateStyle: 'long', timeStyle: 'medium', timeZone: zoneOrUtc(timeZone) }).format(new Date(value));
}

/** A calendar day (YYYY-MM-DD, a form's answer or limit) in the caller's language; it has no time zone. */
export function customerDay(isoDay: string, locale: Locale): string {
  return formatter(locale, { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(`${isoDay}T00:00:00Z`));
}

/** The zone's short name as the caller's language writes it ("EST", "GMT+1", "UTC"). */
export function zoneName(value: DateInput, locale: Locale, timeZone: string | null | undefined): string {
  return (
    formatter(locale, { timeZone: zoneOrUtc(timeZone), timeZoneName: 'short' })
      .formatToParts(new Date(value))
      .find((p) => p.type === 'timeZoneName')?.value ?? 'UTC'
  );
}

const zoneSuffix = (value: DateInput, locale: Locale, timeZone: string | null | undefined) =>
  ` ${zoneName(value, locale, timeZone)}`;
