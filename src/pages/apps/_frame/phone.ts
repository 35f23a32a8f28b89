// Phone numbers in lists are masked: the country code and the last four digits are what an
// admin needs to tell callers apart without the list becoming a phone book.

// ITU-T E.164 country codes of two digits; 1 and 7 are the one-digit codes, all others are three.
const TWO_DIGIT_CODES = new Set([
  '20', '27', '30', '31', '32', '33', '34', '36', '39', '40', '41', '43', '44', '45', '46', '47', '48', '49',
  '51', '52', '53', '54', '55', '56', '57', '58', '60', '61', '62', '63', '64', '65', '66',
  '81', '82', '84', '86', '90', '91', '92', '93', '94', '95', '98',
]);

export function countryCode(digits: string): string {
  if (digits.startsWith('1') || digits.startsWith('7')) return digits.slice(0, 1);
  const two = digits.slice(0, 2);
  return TWO_DIGIT_CODES.has(two) ? two : digits.slice(0, 3);
}

const BULLET = '•';

/** '+15551234567' -> '+1 •••• •• 4567'. Anything that is not E.164 is masked whole but its last 2. */
export function maskPhone(phone: string | null | undefined): string {
  if (!phone) return '';
  const match = /^\+([1-9]\d{6,14})$/.exec(phone.trim());
  if (!match) return phone.length <= 2 ? phone : BULLET.repeat(phone.length - 2) + phone.slice(-2);
  const digits = match[1]!;
  const cc = countryCode(digits);
  const national = digits.slice(cc.length);
  const hidden = Math.max(0, national.length - 4);
  const groups = (BULLET.repeat(hidden).match(/.{1,4}/g) ?? []).join(' ');
  return [`+${cc}`, groups, national.slice(hidden)].filter(Boolean).join(' ');
}
