import { IDV_MAX_IMAGE_BYTES } from '../../contract/apps/identity-verification';

// What a customer's photo is, decided by its bytes (never by its name or the browser's claim),
// and the photo without what it says about where and on what it was taken. A phone's JPEG
// carries EXIF (APP1) with the GPS position of the customer's home more often than not.

export type ImageKind = 'jpeg' | 'png';
export type CheckedImage = { kind: ImageKind; contentType: 'image/jpeg' | 'image/png'; bytes: Buffer; removed: string[] };
export type ImageRefusal = {
  code: 'IMAGE_EMPTY' | 'IMAGE_TOO_LARGE' | 'IMAGE_HEIC' | 'IMAGE_TYPE' | 'IMAGE_BROKEN' | 'IMAGE_DIMENSIONS';
  message: string;
};

/**
 * The most pixels a photo may declare. A header is a claim: a 1 KB PNG can say 100,000 × 100,000
 * and make a reviewer's browser try to decode 40 GB. A 50-megapixel phone photo fits; a 200 MP
 * one is over the byte limit anyway.
 */
export const MAX_IMAGE_SIDE = 10_000;
export const MAX_IMAGE_PIXELS = 50_000_000;

export const IMAGE_REFUSALS: Record<ImageRefusal['code'], string> = {
  IMAGE_EMPTY: 'No photo was chosen. Take or choose a photo, then send it.',
  IMAGE_TOO_LARGE: `The photo is larger than ${IDV_MAX_IMAGE_BYTES / 1024 / 1024} MB. Take it again at a lower resolution, or choose a smaller one.`,
  IMAGE_HEIC:
    'HEIC photos cannot be accepted yet. Take the photo with the camera button on this page (it sends a JPEG), or on an iPhone choose Settings > Camera > Formats > Most Compatible.',
  IMAGE_TYPE: 'This file is not a JPEG or PNG photo. Take a photo, or choose a JPEG or PNG picture.',
  IMAGE_BROKEN: 'This photo is damaged or incomplete. Take it again.',
  IMAGE_DIMENSIONS: `The photo has too many pixels (at most ${MAX_IMAGE_SIDE.toLocaleString('en-US')} on a side and ${MAX_IMAGE_PIXELS / 1_000_000} megapixels). Take it again at a lower resolution.`,
};

const refuse = (code: ImageRefusal['code']): ImageRefusal => ({ code, message: IMAGE_REFUSALS[code] });

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const HEIF_BRANDS = new Set(['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis', 'hevm', 'hevs', 'mif1', 'msf1', 'avif']);

/** The kind of image the bytes are, by their first bytes; null when neither JPEG nor PNG. */
export function sniffImage(bytes: Uint8Array): ImageKind | 'heic' | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (bytes.length >= 8 && Buffer.from(bytes.subarray(0, 8)).equals(PNG_SIGNATURE)) return 'png';
  if (
    bytes.length >= 12 &&
    Buffer.from(bytes.subarray(4, 8)).toString('latin1') === 'ftyp' &&
    HEIF_BRANDS.has(Buffer.from(bytes.subarray(8, 12)).toString('latin1'))
  )
    return 'heic';
  return null;
}

/**
 * A JPEG without its APP1 segments (EXIF, which holds GPS, and XMP, which can repeat it) and
 * APP13 (IPTC, which can hold a place): every segment before the scan is walked by its length,
 * so a damaged file is refused rather than passed through half-read. The scan itself is copied
 * as it is. (The EXIF orientation goes with it: a reviewer may see a photo turned.)
 */
type Stripped = { bytes: Buffer; removed: string[]; width: number; height: number };

/** Start-of-frame markers (SOF0-SOF15 without DHT 0xC4, JPG 0xC8 and DAC 0xCC): they carry the size. */
const isStartOfFrame = (m: number) => m >= 0xc0 && m <= 0xcf && m !== 0xc4 && m !== 0xc8 && m !== 0xcc;

export function stripJpeg(input: Uint8Array): Stripped | null {
  const b = Buffer.from(input);
  if (b.length < 4 || b[0] !== 0xff || b[1] !== 0xd8) return null;
  const parts: Buffer[] = [b.subarray(0, 2)];
  const removed: string[] = [];
  let size: { width: number; height: number } | null = null;
  let pos = 2;
  while (pos < b.length) {
    if (b[pos] !== 0xff) return null;
    const start = pos;
    // any number of 0xFF fill bytes may precede a marker
    while (pos < b.length && b[pos] === 0xff) pos++;
    if (pos >= b.length) return null;
    const marker = b[pos]!;
    pos++;
    if (marker === 0xd9) return null; // end of image before any scan
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      parts.push(b.subarray(start, pos));
      continue;
    }
    if (pos + 2 > b.length) return null;
    const length = b.readUInt16BE(pos);
    if (length < 2 || pos + length > b.length) return null;
    const end = pos + length;
    if (isStartOfFrame(marker) && length >= 7) size = { height: b.readUInt16BE(pos + 3), width: b.readUInt16BE(pos + 5) };
    if (marker === 0xda) {
      // start of scan: the entropy-coded data and whatever follows are image, kept whole
      if (!size) return null;
      parts.push(b.subarray(start));
      return { bytes: Buffer.concat(parts), removed, ...size };
    }
    if (marker === 0xe1) {
      const id = b.subarray(pos + 2, Math.min(end, pos + 2 + 29)).toString('latin1');
      removed.push(id.startsWith('Exif\0') ? 'EXIF' : id.startsWith('http://ns.adobe.com/xap/') ? 'XMP' : 'APP1');
    } else if (marker === 0xed) {
      removed.push('IPTC');
    } else {
      parts.push(b.subarray(start, end));
    }
    pos = end;
  }
  return null;
}

/** PNG chunks that carry metadata (EXIF and text, where XMP lives): dropped. */
const PNG_METADATA = new Set(['eXIf', 'tEXt', 'zTXt', 'iTXt']);

/** A PNG without its metadata chunks; null when its chunks do not add up to an image. */
export function stripPng(input: Uint8Array): Stripped | null {
  const b = Buffer.from(input);
  if (b.length < 8 + 12 || !b.subarray(0, 8).equals(PNG_SIGNATURE)) return null;
  const parts: Buffer[] = [b.subarray(0, 8)];
  const removed: string[] = [];
  let pos = 8;
  let first = true;
  while (pos + 12 <= b.length) {
    const length = b.readUInt32BE(pos);
    const type = b.subarray(pos + 4, pos + 8).toString('latin1');
    const end = pos + 12 + length;
    if (!/^[A-Za-z]{4}$/.test(type) || end > b.length) return null;
    if (first && (type !== 'IHDR' || length !== 13)) return null;
    first = false;
    if (PNG_METADATA.has(type)) removed.push(type);
    else parts.push(b.subarray(pos, end));
    pos = end;
    if (type === 'IEND') return { bytes: Buffer.concat(parts), removed, width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
  }
  return null;
}

/** The photo as it will be stored, or why it is refused. */
export function checkImage(bytes: Uint8Array): CheckedImage | ImageRefusal {
  if (bytes.length === 0) return refuse('IMAGE_EMPTY');
  if (bytes.length > IDV_MAX_IMAGE_BYTES) return refuse('IMAGE_TOO_LARGE');
  const kind = sniffImage(bytes);
  if (kind === 'heic') return refuse('IMAGE_HEIC');
  if (!kind) return refuse('IMAGE_TYPE');
  const stripped = kind === 'jpeg' ? stripJpeg(bytes) : stripPng(bytes);
  if (!stripped || stripped.width === 0 || stripped.height === 0) return refuse('IMAGE_BROKEN');
  if (stripped.width > MAX_IMAGE_SIDE || stripped.height > MAX_IMAGE_SIDE || stripped.width * stripped.height > MAX_IMAGE_PIXELS)
    return refuse('IMAGE_DIMENSIONS');
  return { kind, contentType: kind === 'jpeg' ? 'image/jpeg' : 'image/png', bytes: stripped.bytes, removed: stripped.removed };
}

export const isRefusal = (r: CheckedImage | ImageRefusal): r is ImageRefusal => 'code' in r;
