// How many SMS an app's message costs: GSM-7 when every character is in the GSM 03.38 alphabet
// (extension characters take an escape plus the character, 2 septets), otherwise UCS-2. One
// message holds 160 septets or 70 UTF-16 units; a longer one is split into parts of 153 or 67,
// because each part carries a concatenation header. An escape pair or a surrogate pair is never
// split across two parts, so parts can hold a unit less than the nominal figure.

const GSM7_BASIC =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
const GSM7_EXTENSION = '\f^{}\\[~]|€';

const BASIC = new Set(GSM7_BASIC);
const EXTENSION = new Set(GSM7_EXTENSION);

export type SmsEncoding = 'GSM-7' | 'UCS-2';

export const SMS_LIMITS: Record<SmsEncoding, { single: number; part: number }> = {
  'GSM-7': { single: 160, part: 153 },
  'UCS-2': { single: 70, part: 67 },
};

export type SegmentCount = {
  encoding: SmsEncoding;
  /** septets (GSM-7) or UTF-16 code units (UCS-2) */
  units: number;
  segments: number;
  /** units still free in the last segment */
  remaining: number;
  /** characters that forced UCS-2, each once, in order of appearance */
  unicodeCharacters: string[];
};

/** The size of one character in the message's encoding. */
function unitsOf(char: string, encoding: SmsEncoding): number {
  if (encoding === 'UCS-2') return char.length;
  return EXTENSION.has(char) ? 2 : 1;
}

export function isGsm7(char: string): boolean {
  return BASIC.has(char) || EXTENSION.has(char);
}

export function countSegments(text: string): SegmentCount {
  const chars = Array.from(text);
  const unicodeCharacters = [...new Set(chars.filter((c) => !isGsm7(c)))];
  const encoding: SmsEncoding = unicodeCharacters.length ? 'UCS-2' : 'GSM-7';
  const sizes = chars.map((c) => unitsOf(c, encoding));
  const units = sizes.reduce((a, b) => a + b, 0);
  const { single, part } = SMS_LIMITS[encoding];
  if (units === 0) return { encoding, units, segments: 0, remaining: single, unicodeCharacters };
  if (units <= single) return { encoding, units, segments: 1, remaining: single - units, unicodeCharacters };
  let segments = 1;
  let used = 0;
  for (const size of sizes) {
    if (used + size > part) {
      segments++;
      used = 0;
    }
    used += size;
  }
  return { encoding, units, segments, remaining: part - used, unicodeCharacters };
}
