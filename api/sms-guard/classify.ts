import metadata from 'libphonenumber-js/metadata.max.json';
import { getCountries, getCountryCallingCode, parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/max';

// What a destination number is, from libphonenumber's full ("max") metadata: the country it
// belongs to (a calling code is not a country: +1 and +7 are shared by many), its type, and the
// number range the pumping rules count by. Server only: the metadata is ~145 KB. Migration 1050
// keeps its own frozen copy of the country rule (a deliberate duplicate): changing this changes no migration.

export type NumberClass = {
  /** ISO 3166-1 alpha-2; for a number the metadata does not know, the main country of its calling code */
  country: string;
  /** libphonenumber's type (MOBILE, FIXED_LINE, PREMIUM_RATE, ...), or null when it cannot tell */
  type: string | null;
  /** whether the metadata knows the number as a real number of its country */
  valid: boolean;
  /** the range the pumping rules count by: +, the calling code and the first three national digits */
  prefix: string;
};

/** Types never right for a verification SMS: the receiver is paid per message. */
export const REFUSED_TYPES: Record<string, string> = {
  PREMIUM_RATE: 'a premium-rate number',
  SHARED_COST: 'a shared-cost number',
};

export const PREFIX_NATIONAL_DIGITS = 3;

// the metadata lists a shared calling code's main country first (US for 1, RU for 7, GB for 44)
const mainCountry = (code: string): string | undefined =>
  (metadata as { country_calling_codes: Record<string, string[]> }).country_calling_codes[code]?.[0];

/** null when the text is not a phone number at all (the E.164 check comes before). */
export function classifyNumber(e164: string): NumberClass | null {
  const parsed = parsePhoneNumberFromString(e164);
  if (!parsed) return null;
  const code = parsed.countryCallingCode;
  const country = parsed.country ?? mainCountry(code);
  if (!country) return null;
  const valid = parsed.isValid();
  return {
    country,
    type: valid ? (parsed.getType() ?? null) : null,
    valid,
    prefix: `+${code}${parsed.nationalNumber.slice(0, PREFIX_NATIONAL_DIGITS)}`,
  };
}

/** Every country the metadata knows, with its calling code, for the list an admin picks from. */
export function knownCountries(): { code: string; callingCode: string }[] {
  return getCountries().map((c: CountryCode) => ({ code: c, callingCode: getCountryCallingCode(c) }));
}

export function isKnownCountry(code: string): boolean {
  return (getCountries() as string[]).includes(code);
}
