import { describe, expect, it } from 'vitest';
import { change, describeChange, formatChange, parsePeriod } from '../../../src/pages/apps/_frame/period';
import {
  filtersFromSearch,
  filtersToQuery,
  filtersToSearch,
  hasFilters,
  NO_FILTERS,
  rangeError,
} from '../../../src/pages/apps/_frame/filters';
import { countSegments } from '../../../src/pages/apps/_frame/sms-segments';
import {
  fillTemplate,
  insertPlaceholder,
  missingPlaceholders,
  unknownPlaceholders,
} from '../../../src/pages/apps/_frame/template';
import { shortenId } from '../../../src/ui/format';

describe('SMS segment counter', () => {
  it('counts an empty message as no segment', () => {
    expect(countSegments('')).toMatchObject({ encoding: 'GSM-7', segments: 0, units: 0 });
  });

  it('fits 160 GSM-7 characters in one segment', () => {
    expect(countSegments('a'.repeat(160))).toMatchObject({ encoding: 'GSM-7', segments: 1, remaining: 0 });
  });

  it('splits 161 GSM-7 characters into two segments of up to 153', () => {
    expect(countSegments('a'.repeat(161))).toMatchObject({ segments: 2, remaining: 153 - 8 });
  });

  it('fits 306 GSM-7 characters in two segments and 307 in three', () => {
    expect(countSegments('a'.repeat(306)).segments).toBe(2);
    expect(countSegments('a'.repeat(307)).segments).toBe(3);
  });

  it('counts a GSM-7 extension character as two', () => {
    expect(countSegments('€'.repeat(80))).toMatchObject({ encoding: 'GSM-7', units: 160, segments: 1 });
    expect(countSegments('€'.repeat(81))).toMatchObject({ units: 162, segments: 2 });
  });

  it('never splits an extension character across two segments', () => {
    // 152 plain characters, then '€' would straddle the 153rd septet: it moves to the next part
    const text = 'a'.repeat(152) + '€' + 'a'.repeat(10);
    expect(countSegments(text)).toMatchObject({ units: 164, segments: 2, remaining: 153 - 12 });
  });

  it('keeps accented letters of the GSM alphabet in GSM-7', () => {
    expect(countSegments('Ñandú').encoding).toBe('UCS-2'); // ú is not in the GSM alphabet, ù is
    expect(countSegments('Ça va? Ñandù Øre ß èé ÄÖÜ').encoding).toBe('GSM-7');
  });

  it('switches to UCS-2 for a character outside GSM-7 and names it', () => {
    expect(countSegments('Your code is 1234 ✓')).toMatchObject({ encoding: 'UCS-2', segments: 1, unicodeCharacters: ['✓'] });
  });

  it('fits 70 UCS-2 units in one segment and splits 71 into parts of 67', () => {
    expect(countSegments('я'.repeat(70))).toMatchObject({ encoding: 'UCS-2', segments: 1, remaining: 0 });
    expect(countSegments('я'.repeat(71))).toMatchObject({ segments: 2, remaining: 67 - 4 });
    expect(countSegments('я'.repeat(134)).segments).toBe(2);
    expect(countSegments('я'.repeat(135)).segments).toBe(3);
  });

  it('counts an emoji as two UCS-2 units and never splits it', () => {
    expect(countSegments('😀'.repeat(35))).toMatchObject({ units: 70, segments: 1 });
    const text = 'я'.repeat(66) + '😀' + 'я';
    expect(countSegments(text)).toMatchObject({ units: 69, segments: 1 });
    const long = 'я'.repeat(66) + '😀' + 'я'.repeat(5);
    expect(countSegments(long)).toMatchObject({ units: 73, segments: 2, remaining: 67 - 7 });
  });

  it('counts an extension character as one unit once the message is UCS-2', () => {
    expect(countSegments('€я')).toMatchObject({ encoding: 'UCS-2', units: 2 });
  });
});

describe('shortenId (lists)', () => {
  it('shortens an id over 12 characters to its first and last 6', () => {
    expect(shortenId('otp_0123456789abcdef')).toBe('otp_01…abcdef');
  });

  it('leaves an id of 12 characters whole', () => {
    expect(shortenId('otp_12345678')).toBe('otp_12345678');
  });
});

describe('activity filters', () => {
  it('reads the filters from the URL and ignores malformed dates', () => {
    expect(filtersFromSearch('?status=approved&from=2026-11-01&to=yesterday&customer=%2B1555&session=x')).toEqual({
      ...NO_FILTERS,
      status: 'approved',
      from: '2026-11-01',
      customer: '+1555',
    });
  });

  it('writes only the set filters into the URL and keeps other parameters', () => {
    expect(filtersToSearch({ ...NO_FILTERS, agent: ' ann@acme.test ' }, '?session=abc&status=pending')).toBe(
      '?session=abc&agent=ann%40acme.test',
    );
  });

  it('writes no query string when nothing is set', () => {
    expect(filtersToSearch(NO_FILTERS)).toBe('');
  });

  it("sends the picked days as they are, for the API to read in the viewer's time zone", () => {
    expect(filtersToQuery({ ...NO_FILTERS, from: '2026-11-01', to: '2026-11-03' })).toEqual({
      from: '2026-11-01',
      to: '2026-11-03',
    });
  });

  it('sends only the filters that are set, trimmed', () => {
    expect(filtersToQuery({ ...NO_FILTERS, status: 'expired', customer: ' CUST-1 ' })).toEqual({
      status: 'expired',
      q: 'CUST-1',
    });
  });

  it('says whether any filter is set', () => {
    expect(hasFilters(NO_FILTERS)).toBe(false);
    expect(hasFilters({ ...NO_FILTERS, to: '2026-01-01' })).toBe(true);
  });

  it('points out an end date before the start date', () => {
    expect(rangeError({ ...NO_FILTERS, from: '2026-11-05', to: '2026-11-01' })).toBe('The end date is before the start date');
    expect(rangeError({ ...NO_FILTERS, from: '2026-11-01', to: '2026-11-01' })).toBeNull();
  });
});

describe('dashboard period', () => {
  it('accepts 7, 30 and 90 days and falls back to 30', () => {
    expect(parsePeriod('7')).toBe(7);
    expect(parsePeriod('90')).toBe(90);
    expect(parsePeriod('14')).toBe(30);
    expect(parsePeriod(null)).toBe(30);
  });

  it('computes the change against the previous period', () => {
    expect(change(150, 100)).toBe(50);
    expect(change(50, 100)).toBe(-50);
    expect(change(5, 0)).toBeNull();
    expect(change(0, 0)).toBe(0);
    expect(formatChange(-12)).toBe('−12% vs previous period');
    expect(formatChange(null)).toBe('no earlier data');
  });

  it('says "new" or the absolute change where a percentage would mislead (+3800% on a nearly empty period)', () => {
    const n = (x: number) => String(x);
    expect(describeChange(39, 1, n)).toBe('+38 vs previous period');
    expect(describeChange(12, 0, n)).toBe('new this period');
    expect(describeChange(0, 0, n)).toBe('no change');
    expect(describeChange(2, 9, n)).toBe('−7 vs previous period');
    expect(describeChange(1000, 100, n)).toBe('+900 vs previous period');
    expect(describeChange(150, 100, n)).toBe('+50% vs previous period');
    expect(describeChange(50, 100, n)).toBe('−50% vs previous period');
    // money: cents are no small base, the ratio cap still applies
    expect(describeChange(123_450, 5_000, (c) => `$${(c / 100).toFixed(2)}`, 1)).toBe('+$1184.50 vs previous period');
    expect(describeChange(6_000, 5_000, (c) => `$${(c / 100).toFixed(2)}`, 1)).toBe('+20% vs previous period');
  });
});

describe('SMS templates', () => {
  it('inserts a placeholder at the caret, replacing the selection', () => {
    expect(insertPlaceholder('Code: !', 'code', 6)).toEqual({ text: 'Code: {{code}}!', caret: 14 });
    expect(insertPlaceholder('Code: XX', 'code', 6, 8)).toEqual({ text: 'Code: {{code}}', caret: 14 });
  });

  it('fills known placeholders and leaves unknown ones visible', () => {
    expect(fillTemplate('{{company}}: {{code}} {{ x }}', { company: 'Acme', code: '123456' })).toBe('Acme: 123456 {{ x }}');
  });

  it('finds a required placeholder that is missing, and unknown ones', () => {
    expect(missingPlaceholders('Hello {{company}}', ['code'])).toEqual(['code']);
    expect(missingPlaceholders('{{ code }}', ['code'])).toEqual([]);
    expect(unknownPlaceholders('{{code}} {{name}}', ['code', 'company'])).toEqual(['name']);
  });
});
