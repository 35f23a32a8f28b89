/**
 * Country calling codes (ITU-T E.164 assignments) are prefix-free and one to three digits long.
 * Listing the one- and two-digit codes is enough: every other code is three digits.
 */
const ONE_DIGIT = new Set(['1', '7']);
const TWO_DIGITS = new Set([
  '20',
  '27',
  '30',
  '31',
  '32',
  '33',
  '34',
  '36',
  '39',
  '40',
  '41',
  '43',
  '44',
  '45',
  '46',
  '47',
  '48',
  '49',
  '51',
  '52',
  '53',
  '54',
  '55',
  '56',
  '57',
  '58',
  '60',
  '61',
  '62',
  '63',
  '64',
  '65',
  '66',
  '81',
  '82',
  '84',
  '86',
  '90',
  '91',
  '92',
  '93',
  '94',
  '95',
  '98',
]);

/** The country calling code at the start of an E.164 number's digits (without '+'). */
export function callingCode(digits: string): string {
  if (ONE_DIGIT.has(digits.slice(0, 1))) return digits.slice(0, 1);
  if (TWO_DIGITS.has(digits.slice(0, 2))) return digits.slice(0, 2);
  return digits.slice(0, 3);
}
