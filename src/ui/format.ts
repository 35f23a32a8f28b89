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

/**
 * A timestamp as people read it in a list: relative ("3 hours ago") while recent, an absolute
 * date once it is older than ABSOLUTE_DATE_AFTER_DAYS, because "212 days ago" is hard to place.
 */
export function formatDate(value: string | number | Date, now: number = Date.now(), locale?: string): string {
  const time = new Date(value).getTime();
  if (Number.isNaN(time)) return '';
  const diff = time - now;
  if (Math.abs(diff) > ABSOLUTE_DATE_AFTER_DAYS * DAY) {
    return new Intl.DateTimeFormat(locale, { dateStyle: 'medium' }).format(time);
  }
  const rtf = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
  for (const [unit, ms] of UNITS) {
    if (Math.abs(diff) >= ms || unit === 'second') return rtf.format(Math.round(diff / ms), unit);
  }
  return '';
}

/** The full date and time, for a title tooltip next to a relative date. */
export function formatDateTime(value: string | number | Date, locale?: string): string {
  const time = new Date(value).getTime();
  if (Number.isNaN(time)) return '';
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(time);
}

/** Long ids keep their first and last characters, which is what people compare by eye. */
export function shortenId(id: string): string {
  if (id.length <= SHORT_ID_MAX_LENGTH) return id;
  return `${id.slice(0, SHORT_ID_KEEP)}…${id.slice(-SHORT_ID_KEEP)}`;
}

export function formatNumber(n: number, locale?: string): string {
  return new Intl.NumberFormat(locale).format(n);
}
