import * as v from 'valibot';
import { isStorableText, TEXT_MESSAGE } from './common';

// Secrets and header values travel in HTTP headers, signatures and URLs. A control character
// inside one (CR, LF, NUL, any C0 or C1) is never part of a real credential, and it is what
// lets a value split a header or end up quoted in a client library's error: refused here, at
// the contract, after the ends are trimmed (a pasted trailing newline is still fine).

export const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f]/;
export const NO_CONTROL_CHARACTERS_MESSAGE = 'Must not contain line breaks or other control characters';

/** For a string pipe, after v.trim(): refuses any control character left inside. */
export const noControlCharacters = () => v.check((s: string) => !CONTROL_CHARACTER.test(s), NO_CONTROL_CHARACTERS_MESSAGE);

// Control characters are judged before the general text rule so a pasted secret with a line
// break gets the message that names the real problem.
const secretText = (message: string) =>
  v.pipe(v.string(message), v.trim(), noControlCharacters(), v.check(isStorableText, TEXT_MESSAGE));

/** A required secret or header value: the same message when missing or blank. */
export const requiredSecret = (message: string, max = 500, tooLong = 'This value is too long') =>
  v.pipe(v.optional(secretText(message), ''), v.nonEmpty(message), v.maxLength(max, tooLong));

/** A secret a connected integration may leave blank to keep the stored value. */
export const keptSecret = (message: string, max = 500) =>
  v.optional(v.pipe(secretText(message), v.maxLength(max, 'This value is too long')), '');
