import { callingCode } from '../../../api/contract/calling-codes';

/** A phone number with the middle hidden: "+44 ••• 0958" (the country calling code and last four stay). */
export function maskPhone(phone: string): string {
  const digits = phone.replace(/[^\d+]/g, '');
  if (digits.length <= 7) return digits;
  const head = digits.startsWith('+') ? `+${callingCode(digits.slice(1))}` : digits.slice(0, 2);
  return `${head} ••• ${digits.slice(-4)}`;
}
