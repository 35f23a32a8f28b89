import { maskPhone } from '../contract/platform';

// What leaves for a destination that has not opted in to full numbers: every phone number in
// E.164 form (+ and 7 to 15 digits) in any string of the payload, masked as the console's lists
// show it (+1 •••• •• 4567). Keys are left as they are; only values change.

const E164_IN_TEXT = /\+[1-9]\d{6,14}\b/g;

export function maskNumbersInText(text: string): string {
  return text.replace(E164_IN_TEXT, (n) => maskPhone(n) ?? n);
}

export function maskNumbers<T>(value: T): T {
  if (typeof value === 'string') return maskNumbersInText(value) as T;
  if (Array.isArray(value)) return value.map(maskNumbers) as T;
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, maskNumbers(v)])) as T;
  return value;
}
