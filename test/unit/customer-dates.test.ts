import { describe, expect, it } from 'vitest';
import {
  customerDate,
  customerDateTime,
  customerDay,
  customerTime,
  customerTimestamp,
  zoneName,
} from '../../api/customer-pages/dates';

// Customer pages and the sealed PDF: the caller's language, the account's time zone, one style.

const MOMENT = '2026-12-02T06:01:55Z';

describe('customer dates', () => {
  it('a moment in English and the account’s zone, with the zone named', () => {
    expect(customerDateTime(MOMENT, 'en', 'America/New_York')).toBe('December 2, 2026 at 1:01 AM EST');
    expect(customerTime(MOMENT, 'en', 'UTC')).toBe('6:01 AM UTC');
  });

  it('the caller’s language writes the month, in Latin digits', () => {
    expect(customerDate(MOMENT, 'de', 'Europe/Berlin')).toBe('2. Dezember 2026');
    expect(customerDate(MOMENT, 'fr', 'Europe/Paris')).toBe('2 décembre 2026');
    expect(customerDate(MOMENT, 'ar', 'UTC')).toMatch(/2026/);
  });

  it('the day is the account’s: 03:00 UTC is still December 1 in Los Angeles', () => {
    expect(customerDate('2026-12-02T03:00:00Z', 'en', 'America/Los_Angeles')).toBe('December 1, 2026');
  });

  it('the certificate’s timeline keeps the seconds, its heading names the zone', () => {
    expect(customerTimestamp(MOMENT, 'en', 'UTC')).toBe('December 2, 2026 at 6:01:55 AM');
    expect(zoneName(MOMENT, 'en', 'Europe/Berlin')).toBe('GMT+1');
  });

  it('a calendar day is not moved by a zone; an unknown zone is UTC', () => {
    expect(customerDay('2026-12-02', 'en')).toBe('December 2, 2026');
    expect(customerTime(MOMENT, 'en', 'Not/AZone')).toBe('6:01 AM UTC');
  });
});
