import { describe, expect, it } from 'vitest';
import { formatDate, shortenId } from '../../src/ui/format';

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
