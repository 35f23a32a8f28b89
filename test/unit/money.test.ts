import { describe, expect, it } from 'vitest';
import { currencyExponent, formatMinor, parseMajor, toMajor } from '../../api/contract/money';

describe('money in minor units', () => {
  it('knows zero- and three-decimal currencies', () => {
    expect([currencyExponent('usd'), currencyExponent('JPY'), currencyExponent('krw'), currencyExponent('kwd')]).toEqual([
      2, 0, 0, 3,
    ]);
  });

  it('formats minor units with Intl.NumberFormat', () => {
    expect(formatMinor(1250, 'usd', 'en-US')).toBe('$12.50');
    expect(formatMinor(500, 'jpy', 'en-US')).toBe('¥500');
    expect(formatMinor(1500, 'kwd', 'en-US').replace(/\s/g, ' ')).toBe('KWD 1.500');
    expect(formatMinor(99, 'eur', 'de-DE').replace(/\s/g, ' ')).toBe('0,99 €');
    expect(toMajor(1250, 'usd')).toBe(12.5);
  });

  it('reads what a person types as minor units, refusing digits the currency does not have', () => {
    expect(parseMajor('12.50', 'usd')).toBe(1250);
    expect(parseMajor('12.5', 'usd')).toBe(1250);
    expect(parseMajor('1,200', 'usd')).toBe(120000);
    expect(parseMajor('500', 'jpy')).toBe(500);
    expect(parseMajor('15.5', 'jpy')).toBeNull();
    expect(parseMajor('1.234', 'usd')).toBeNull();
    expect(parseMajor('1.234', 'kwd')).toBe(1234);
    expect(parseMajor('-3', 'usd')).toBeNull();
    expect(parseMajor('abc', 'usd')).toBeNull();
  });
});
