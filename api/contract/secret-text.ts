import * as v from 'valibot';

// Secrets and header values travel in HTTP headers, signatures and URLs. A control character
// inside one (CR, LF, NUL, any C0 or C1) is never part of a real credential, and it is what
// lets a value split a header or end up quoted in a client library's error: refused here, at
// the contract, after the ends are trimmed (a pasted trailing newline is still fine).

export const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f]/;
export const NO_CONTROL_CHARACTERS_MESSAGE = 'Must not contain line breaks or other control characters';

/** For a string pipe, after v.trim(): refuses any control character left inside. */
export const noControlCharacters = () => v.check((s: string) => !CONTROL_CHARACTER.test(s), NO_CONTROL_CHARACTERS_MESSAGE);
