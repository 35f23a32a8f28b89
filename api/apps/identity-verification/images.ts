import { IDV_MAX_IMAGE_BYTES } from '../../contract/apps/identity-verification';

// What a customer's photo is, decided by its bytes (never by its name or the browser's claim),
// and the photo without what it says about where and on what it was taken. A phone's JPEG
// carries EXIF (APP1) with the GPS position of the customer's home more often than not.

export type ImageKind = 'jpeg' | 'png';
export type CheckedImage = { kind: ImageKind; contentType: 'image/jpeg' | 'image/png'; bytes: Buffer; removed: string[] };
export type ImageRefusal = { code: 'IMAGE_EMPTY' | 'IMAGE_TOO_LARGE' | 'IMAGE_HEIC' | 'IMAGE_TYPE' | 'IMAGE_BROKEN'; message: string };

export const IMAGE_REFUSALS: Record<ImageRefusal['code'], string> = {
  IMAGE_EMPTY: 'No photo was chosen. Take or choose a photo, then send it.',
  IMAGE_TOO_LARGE: `The photo is larger than ${IDV_MAX_IMAGE_BYTES / 1024 / 1024} MB. Take it again at a lower resolution, or choose a smaller one.`,
  IMAGE_HEIC:
    'HEIC photos cannot be accepted yet. Take the photo with the camera button on this page (it sends a JPEG), or on an iPhone choose Settings > Camera > Formats > Most Compatible.',
  IMAGE_TYPE: 'This file is not a JPEG or PNG photo. Take a photo, or choose a JPEG or PNG picture.',
  IMAGE_BROKEN: 'This photo is damaged or incomplete. Take it again.',
};

const refuse = (code: ImageRefusal['code']): ImageRefusal => ({ code, message: IMAGE_REFUSALS[code] });

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const HEIF_BRANDS = new Set(['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis', 'hevm', 'hevs', 'mif1', 'msf1', 'avif']);

/** The kind of image the bytes are, by their first bytes; null when neither JPEG nor PNG. */
export function sniffImage(bytes: Uint8Array): ImageKind | 'heic' | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (bytes.length >= 8 && Buffer.from(bytes.subarray(0, 8)).equals(PNG_SIGNATURE)) return 'png';
  if (bytes.length >= 12 && Buffer.from(bytes.subarray(4, 8)).toString('latin1') === 'ftyp' && HEIF_BRANDS.has(Buffer.from(bytes.subarray(8, 12)).toString('latin1'))) return 'heic';
  return null;
}

/**
 * A JPEG without its APP1 segments (EXIF, which holds GPS, and XMP, which can repeat it) and
 * APP13 (IPTC, which can hold a place): every segment before the scan is walked by its length,
 * so a damaged file is refused rather than passed through half-read. The scan itself is copied
 * as it is. (The EXIF orientation goes with it: a reviewer may see a photo turned.)
 */
export function stripJpeg(input: Uint8Array): { bytes: Buffer; removed: string[] } | null {
  const b = Buffer.from(input);
  if (b.length < 4 || b[0] !== 0xff || b[1] !== 0xd8) return null;
  const parts: Buffer[] = [b.subarray(0, 2)];
  const removed: string[] = [];
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
    if (marker === 0xda) {
      // start of scan: the entropy-coded data and whatever follows are image, kept whole
      parts.push(b.subarray(start));
      return { bytes: Buffer.concat(parts), removed };
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
export function stripPng(input: Uint8Array): { bytes: Buffer; removed: string[] } | null {
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
    if (first && type !== 'IHDR') return null;
    first = false;
    if (PNG_METADATA.has(type)) removed.push(type);
    else parts.push(b.subarray(pos, end));
    pos = end;
    if (type === 'IEND') return { bytes: Buffer.concat(parts), removed };
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
  if (!stripped) return refuse('IMAGE_BROKEN');
  return { kind, contentType: kind === 'jpeg' ? 'image/jpeg' : 'image/png', bytes: stripped.bytes, removed: stripped.removed };
}

export const isRefusal = (r: CheckedImage | ImageRefusal): r is ImageRefusal => 'code' in r;
