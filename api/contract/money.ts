// Money as the payment provider counts it: an integer in the currency's minor unit (cents for
// USD, yen for JPY, fils for KWD). Every amount the API takes, stores and answers is one of
// these; only what a person reads is formatted, here, with Intl.NumberFormat.

/** Stripe's zero-decimal currencies: 500 JPY is `500`, not `50000`. */
const ZERO_DECIMAL = new Set([
  'bif',
  'clp',
  'djf',
  'gnf',
  'jpy',
  'kmf',
  'krw',
  'mga',
  'pyg',
  'rwf',
  'ugx',
  'vnd',
  'vuv',
  'xaf',
  'xof',
  'xpf',
]);
/** Stripe's three-decimal currencies. */
const THREE_DECIMAL = new Set(['bhd', 'jod', 'kwd', 'omr', 'tnd']);

/** Currencies offered in pickers; any ISO 4217 code Stripe accepts may still be typed. */
export const COMMON_CURRENCIES = [
  'usd',
  'eur',
  'gbp',
  'cad',
  'aud',
  'nzd',
  'chf',
  'sek',
  'nok',
  'dkk',
  'pln',
  'jpy',
  'krw',
  'sgd',
  'hkd',
  'inr',
  'mxn',
  'brl',
] as const;

export const CURRENCY_PATTERN = /^[a-z]{3}$/;

/** Digits after the decimal point of `currency` (lowercase ISO 4217). */
export function currencyExponent(currency: string): number {
  const c = currency.toLowerCase();
  return ZERO_DECIMAL.has(c) ? 0 : THREE_DECIMAL.has(c) ? 3 : 2;
}

/** Minor units as a number of major units (1250 USD -> 12.5). For charts, never for storage. */
export function toMajor(minor: number, currency: string): number {
  return minor / 10 ** currencyExponent(currency);
}

/** "12.50" typed for USD -> 1250; null when it is not an amount in that currency. */
export function parseMajor(text: string, currency: string): number | null {
  const exp = currencyExponent(currency);
  const t = text.trim().replace(/,/g, '');
  const re = exp === 0 ? /^\d+$/ : new RegExp(`^\\d+(\\.\\d{1,${exp}})?$`);
  if (!re.test(t)) return null;
  const [whole, frac = ''] = t.split('.');
  const minor = Number(whole) * 10 ** exp + Number((frac + '000').slice(0, exp) || '0');
  return Number.isSafeInteger(minor) ? minor : null;
}

/** 1250, 'usd' -> "$12.50"; 500, 'jpy' -> "¥500". */
export function formatMinor(minor: number, currency: string, locale?: string): string {
  const exp = currencyExponent(currency);
  try {
    return new Intl.NumberFormat(locale, {
      style: 'currency',
      currency: currency.toUpperCase(),
      minimumFractionDigits: exp,
      maximumFractionDigits: exp,
    }).format(toMajor(minor, currency));
  } catch {
    // a code Intl does not know still reads right
    return `${toMajor(minor, currency).toFixed(exp)} ${currency.toUpperCase()}`;
  }
}
