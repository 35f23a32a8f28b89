import { afterEach, describe, expect, it } from 'vitest';
import {
  consoleTimeZone,
  formatAxisDay,
  formatCalendarDay,
  formatDate,
  formatDateTime,
  formatDay,
  setConsoleTimeZone,
  shortenId,
} from '../../src/ui/format';

const NOW = Date.UTC(2025, 5, 15, 12, 0, 0);
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe('formatDate', () => {
  it('shows a date from three hours ago as "3 hours ago"', () => {
    expect(formatDate(NOW - 3 * HOUR, NOW, 'en')).toBe('3 hours ago');
  });

  it('shows a date from yesterday as "yesterday"', () => {
    expect(formatDate(NOW - DAY, NOW, 'en')).toBe('yesterday');
  });

  it('keeps a date 30 days old relative', () => {
    expect(formatDate(NOW - 30 * DAY, NOW, 'en')).toBe('30 days ago');
  });

  it('shows a date older than 30 days as an absolute date', () => {
    expect(formatDate(new Date(NOW - 31 * DAY).toISOString(), NOW, 'en')).toBe('May 15, 2025');
  });

  it('shows a moment ago as "now"', () => {
    expect(formatDate(NOW - 400, NOW, 'en')).toBe('now');
  });

  it('shows nothing for an invalid date', () => {
    expect(formatDate('not a date', NOW, 'en')).toBe('');
  });
});

describe('shortenId', () => {
  it('keeps the first and last 6 characters of an id over 12 characters', () => {
    expect(shortenId('cus_1234567890abcdef')).toBe('cus_12…abcdef');
  });

  it('leaves an id of 12 characters as it is', () => {
    expect(shortenId('abcdef123456')).toBe('abcdef123456');
  });
});

describe('console dates: the admin’s locale, the account’s time zone', () => {
  const MOMENT = '2026-12-02T06:01:55Z';
  afterEach(() => setConsoleTimeZone(null));

  it('a moment reads "Dec 2, 2026, 1:01 AM" in the account’s zone, with the zone named when it is not the browser’s', () => {
    setConsoleTimeZone('America/New_York');
    expect(formatDateTime(MOMENT, 'en-US')).toBe('Dec 2, 2026, 1:01 AM EST');
    expect(consoleTimeZone()).toBe('America/New_York');
  });

  it('the same moment in the admin’s own locale keeps the account’s zone', () => {
    setConsoleTimeZone('Europe/Berlin');
    expect(formatDateTime(MOMENT, 'de-DE')).toMatch(/^02\.12\.2026, 07:01/);
  });

  it('a day is the day in the account’s zone: just after midnight UTC is still the day before in New York', () => {
    setConsoleTimeZone('America/New_York');
    expect(formatDay('2026-12-02T03:00:00Z', 'en-US')).toBe('Dec 1, 2026');
    setConsoleTimeZone('UTC');
    expect(formatDay('2026-12-02T03:00:00Z', 'en-US')).toBe('Dec 2, 2026');
  });

  it('a calendar day (a chart’s day, a date of birth) is never moved by a zone', () => {
    setConsoleTimeZone('Pacific/Honolulu');
    expect(formatCalendarDay('2026-12-02', 'en-US')).toBe('Dec 2, 2026');
    expect(formatCalendarDay('not a day', 'en-US')).toBe('not a day');
  });

  it('an unknown zone falls back to the browser’s, never throws', () => {
    setConsoleTimeZone('Mars/Olympus_Mons');
    expect(consoleTimeZone()).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
    expect(formatDateTime(MOMENT, 'en-US')).toMatch(/2026/);
  });
});

describe('a chart axis day', () => {
  it('is the console day style without the year ("Nov 5", not the chart library\'s "11/5")', () => {
    expect(formatAxisDay('2026-11-05', 'en-US')).toBe('Nov 5');
    expect(formatCalendarDay('2026-11-05', 'en-US')).toBe('Nov 5, 2026');
  });

  it("does not move the day, whatever the account's zone", () => {
    setConsoleTimeZone('Pacific/Honolulu');
    expect(formatAxisDay('2026-11-05', 'en-US')).toBe('Nov 5');
    setConsoleTimeZone(null);
  });
});
