import { callingCode } from '../../../api/contract/calling-codes';
import { SHORT_ID_KEEP, SHORT_ID_MAX_LENGTH } from '../../ui/constants';

/**
 * Short forms of ids shown together, each distinct: SPEC's first-and-last-6 where that tells
 * them apart, and a longer head only for ids that would otherwise read the same (session refs
 * that share a prefix and a suffix).
 */
export function distinctShortIds(ids: readonly string[]): Map<string, string> {
  const unique = [...new Set(ids)];
  for (let keep = SHORT_ID_KEEP; ; keep++) {
    const short = (id: string) => (id.length <= Math.max(SHORT_ID_MAX_LENGTH, keep + SHORT_ID_KEEP + 1) ? id : `${id.slice(0, keep)}…${id.slice(-SHORT_ID_KEEP)}`);
    const forms = unique.map(short);
    if (new Set(forms).size === unique.length) return new Map(unique.map((id, i) => [id, forms[i]!]));
  }
}

/** A phone number with the middle hidden: "+44 ••• 0958" (the country calling code and last four stay). */
export function maskPhone(phone: string): string {
  const digits = phone.replace(/[^\d+]/g, '');
  if (digits.length <= 7) return digits;
  const head = digits.startsWith('+') ? `+${callingCode(digits.slice(1))}` : digits.slice(0, 2);
  return `${head} ••• ${digits.slice(-4)}`;
}
