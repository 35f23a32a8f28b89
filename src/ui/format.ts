import { ABSOLUTE_DATE_AFTER_DAYS, SHORT_ID_KEEP, SHORT_ID_MAX_LENGTH } from './constants';

export { formatUsage } from '../../api/contract/wording';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['day', DAY],
  ['hour', HOUR],
  ['minute', MINUTE],
  ['second', SECOND],
];

// Dates in the console, one style for every screen: the admin's browser locale and the
// account's time zone (Settings > Branding; the bootstrap brings it, setConsoleTimeZone keeps it
// here). A moment shows as "Nov 25, 2026, 6:01 AM", with the zone's name when the account's zone
// is not the browser's; a day as "Nov 25, 2026". Screens format dates only through these (no
// toLocaleString, Intl.DateTimeFormat or toISOString().slice of their own). Customer pages and
// the sealed PDF have theirs: api/customer-pages/dates.ts.

let accountZone: string | undefined;

const browserZone = () => {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
};

const validZone = (zone: string) => {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
};

/** The account's time zone, from the bootstrap; none (signed out): the browser's. */
export function setConsoleTimeZone(zone: string | null | undefined): void {
  accountZone = zone && validZone(zone) ? zone : undefined;
}

/** The zone the console's dates are in. */
export function consoleTimeZone(): string {
  return accountZone ?? browserZone();
}

const showsZoneName = () => accountZone !== undefined && accountZone !== browserZone();

/**
 * A timestamp as people read it in a list: relative ("3 hours ago") while recent, an absolute
 * date once it is older than ABSOLUTE_DATE_AFTER_DAYS, because "212 days ago" is hard to place.
 */
export function formatDate(value: string | number | Date, now: number = Date.now(), locale?: string): string {
  const time = new Date(value).getTime();
  if (Number.isNaN(time)) return '';
  const diff = time - now;
  if (Math.abs(diff) > ABSOLUTE_DATE_AFTER_DAYS * DAY) return formatDay(time, locale);
  const rtf = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
  for (const [unit, ms] of UNITS) {
    if (Math.abs(diff) >= ms || unit === 'second') return rtf.format(Math.round(diff / ms), unit);
  }
  return '';
}

/** A moment in full: "Nov 25, 2026, 6:01 AM" (with the zone's name when it is not the browser's). */
export function formatDateTime(value: string | number | Date, locale?: string): string {
  const time = new Date(value).getTime();
  if (Number.isNaN(time)) return '';
  return (
    new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone: consoleTimeZone() }).format(time) +
    (showsZoneName() ? ` ${zoneName(time, locale)}` : '')
  );
}

/** The day a moment falls on in the account's zone: "Nov 25, 2026". */
export function formatDay(value: string | number | Date, locale?: string): string {
  const time = new Date(value).getTime();
  if (Number.isNaN(time)) return '';
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: consoleTimeZone() }).format(time);
}

/** A calendar day with no time (YYYY-MM-DD: a chart's day, a date of birth) in the same style; no zone moves it. */
export function formatCalendarDay(isoDay: string, locale?: string): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(isoDay)) return isoDay;
  const time = Date.parse(`${isoDay}T00:00:00Z`);
  if (Number.isNaN(time)) return isoDay;
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' }).format(time);
}

/**
 * A chart's day on its axis: the day style without the year ("Nov 5"), which the legend beside it
 * gives in full; not the "11/5" of the chart library, a second style on the same screen.
 */
export function formatAxisDay(isoDay: string, locale?: string): string {
  const time = Date.parse(`${isoDay}T00:00:00Z`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(isoDay) || Number.isNaN(time)) return isoDay;
  return new Intl.DateTimeFormat(locale, { month: 'short', day: 'numeric', timeZone: 'UTC' }).format(time);
}

function zoneName(time: number, locale?: string): string {
  return (
    new Intl.DateTimeFormat(locale, { timeZone: consoleTimeZone(), timeZoneName: 'short' })
      .formatToParts(time)
      .find((p) => p.type === 'timeZoneName')?.value ?? consoleTimeZone()
  );
}

/** Long ids keep their first and last characters, which is what people compare by eye. */
export function shortenId(id: string): string {
  if (id.length <= SHORT_ID_MAX_LENGTH) return id;
  return `${id.slice(0, SHORT_ID_KEEP)}…${id.slice(-SHORT_ID_KEEP)}`;
}

export function formatNumber(n: number, locale?: string): string {
  return new Intl.NumberFormat(locale).format(n);
}
