import { describe, expect, it } from 'vitest';
import {
  checkImage,
  MAX_IMAGE_PIXELS,
  MAX_IMAGE_SIDE,
  sniffImage,
  stripJpeg,
  stripPng,
} from '../../api/apps/identity-verification/images';
import { exifGpsSegment, makeJpeg, makePng, pngChunk } from '../../api/apps/identity-verification/sample-images';
import { mrzDate, nameTokens, readMrz, runChecks } from '../../api/apps/identity-verification/checks';

// The customer's photo as it is stored: its type from its bytes, and nothing of where it was taken.

const app = (marker: number, payload: string) => {
  const body = Buffer.from(payload, 'latin1');
  const head = Buffer.from([0xff, marker, 0, 0]);
  head.writeUInt16BE(body.length + 2, 2);
  return Buffer.concat([head, body]);
};

describe('photos from the customer page', () => {
  const clean = makeJpeg(2, 2, (bx, by) => 30 + bx * 100 + by * 50);

  it('EXIF with GPS, XMP and IPTC segments are removed and the image bytes are kept', () => {
    const xmp = app(0xe1, 'http://ns.adobe.com/xap/1.0/\0<x:xmpmeta><exif:GPSLatitude>51,30.4N</exif:GPSLatitude></x:xmpmeta>');
    const iptc = app(0xed, 'Photoshop 3.0\x008BIM\x04\x04 City: London');
    const dirty = makeJpeg(2, 2, (bx, by) => 30 + bx * 100 + by * 50, [exifGpsSegment(), xmp, iptc]);
    const out = stripJpeg(dirty)!;
    expect(out.removed).toEqual(['EXIF', 'XMP', 'IPTC']);
    expect(out.bytes.equals(clean)).toBe(true);
    for (const word of ['Exif', 'GPS', 'London', 'xmpmeta']) expect(out.bytes.includes(Buffer.from(word))).toBe(false);
  });

  it('fill bytes before a marker are allowed; a JPEG with no EXIF comes back unchanged', () => {
    expect(stripJpeg(clean)!.bytes.equals(clean)).toBe(true);
    const filled = Buffer.concat([clean.subarray(0, 2), Buffer.from([0xff, 0xff]), clean.subarray(2)]);
    expect(stripJpeg(filled)).not.toBeNull();
  });

  it('a JPEG whose segment lengths run past its end, or with no scan, is refused', () => {
    expect(stripJpeg(clean.subarray(0, 40))).toBeNull();
    expect(stripJpeg(Buffer.from([0xff, 0xd8, 0xff, 0xd9]))).toBeNull();
    expect(stripJpeg(Buffer.from([0xff, 0xd8, 0xff, 0xe1, 0x00, 0x01, 0xff, 0xda]))).toBeNull();
    expect(checkImage(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00]))).toMatchObject({ code: 'IMAGE_BROKEN' });
  });

  it('PNG text and eXIf chunks are removed; a PNG must start with IHDR and end with IEND', () => {
    const plain = makePng(3, 3, () => [10, 20, 30]);
    const tagged = makePng(3, 3, () => [10, 20, 30], [
      pngChunk('tEXt', Buffer.from('GPS\0 51.5 N')),
      pngChunk('eXIf', Buffer.from('MM\0*')),
    ]);
    const out = stripPng(tagged)!;
    expect(out.removed).toEqual(['tEXt', 'eXIf']);
    expect(out.bytes.equals(plain)).toBe(true);
    expect(stripPng(plain.subarray(0, plain.length - 12))).toBeNull();
  });

  it('the type comes from the bytes: JPEG, PNG, HEIC (refused with a way out), anything else refused', () => {
    expect(sniffImage(clean)).toBe('jpeg');
    expect(sniffImage(makePng(1, 1, () => [0, 0, 0]))).toBe('png');
    expect(sniffImage(Buffer.concat([Buffer.from([0, 0, 0, 24]), Buffer.from('ftypheic', 'latin1')]))).toBe('heic');
    expect(checkImage(Buffer.concat([Buffer.from([0, 0, 0, 24]), Buffer.from('ftypmif1', 'latin1')]))).toMatchObject({
      code: 'IMAGE_HEIC',
      message: expect.stringContaining('Most Compatible'),
    });
    expect(checkImage(Buffer.from('%PDF-1.7'))).toMatchObject({ code: 'IMAGE_TYPE' });
    expect(checkImage(new Uint8Array())).toMatchObject({ code: 'IMAGE_EMPTY' });
  });
});

describe('checks on the typed MRZ', () => {
  const today = new Date('2026-11-23T12:00:00Z');

  it('MRZ dates get their century: births in the past, expiries within 50 years', () => {
    expect(mrzDate('740812', 'birth', today)).toBe('1974-08-12');
    expect(mrzDate('261124', 'birth', today)).toBe('1926-11-24');
    expect(mrzDate('120415', 'expiry', today)).toBe('2012-04-15');
    expect(mrzDate('340415', 'expiry', today)).toBe('2034-04-15');
    expect(mrzDate('740230', 'birth', today)).toBeNull();
  });

  it('names compare by their words, in any order, without accents or case', () => {
    expect(nameTokens('Anna-María Eriksson')).toEqual(nameTokens('ERIKSSON ANNA MARIA'));
  });

  it('with no MRZ every data check is not run, and face match and liveness are never run', () => {
    const results = runChecks({
      reading: null,
      expectedName: 'A',
      expectedDateOfBirth: null,
      minimumAge: 18,
      today,
      seenElsewhere: false,
    });
    expect(results.every((r) => r.status === 'not_run')).toBe(true);
    expect(results.filter((r) => r.reason === 'not_available').map((r) => r.key)).toEqual(['face_match', 'liveness']);
    const read = readMrz(['P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<', 'L898902C36UTO7408122F1204159ZE184226B<<<<<10'], today);
    const withData = runChecks({
      reading: read,
      expectedName: null,
      expectedDateOfBirth: null,
      minimumAge: 18,
      today,
      seenElsewhere: false,
    });
    expect(withData.filter((r) => r.key === 'face_match' || r.key === 'liveness').every((r) => r.status === 'not_run')).toBe(
      true,
    );
  });
});

describe('a photo whose header declares an absurd size is refused before anyone decodes it', () => {
  const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const ihdr = (width: number, height: number) => {
    const data = Buffer.alloc(13);
    data.writeUInt32BE(width, 0);
    data.writeUInt32BE(height, 4);
    data.set([8, 2, 0, 0, 0], 8);
    return pngChunk('IHDR', data);
  };
  /** a small file that claims width × height pixels */
  const claimingPng = (width: number, height: number) =>
    Buffer.concat([
      SIGNATURE,
      ihdr(width, height),
      pngChunk('IDAT', Buffer.from([0x78, 0x9c, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01])),
      pngChunk('IEND', Buffer.alloc(0)),
    ]);
  const claimingJpeg = (width: number, height: number) => {
    const jpeg = Buffer.from(makeJpeg(1, 1, () => 100));
    const sof = jpeg.indexOf(Buffer.from([0xff, 0xc0]));
    jpeg.writeUInt16BE(height, sof + 5);
    jpeg.writeUInt16BE(width, sof + 7);
    return jpeg;
  };

  it.each([
    ['a PNG of 100,000 × 100,000', claimingPng(100_000, 100_000)],
    ['a PNG of 10,001 × 1', claimingPng(MAX_IMAGE_SIDE + 1, 1)],
    ['a PNG of 8,000 × 8,000 (64 megapixels)', claimingPng(8000, 8000)],
    ['a JPEG of 60,000 × 60,000', claimingJpeg(60_000, 60_000)],
  ])('%s is refused with IMAGE_DIMENSIONS', (_, bytes) => {
    expect(checkImage(bytes)).toMatchObject({ code: 'IMAGE_DIMENSIONS', message: expect.stringMatching(/too many pixels/) });
  });

  it('a photo of 0 pixels is broken; a real phone photo size passes', () => {
    expect(checkImage(claimingPng(0, 100))).toMatchObject({ code: 'IMAGE_BROKEN' });
    expect(checkImage(claimingJpeg(0, 100))).toMatchObject({ code: 'IMAGE_BROKEN' });
    expect(checkImage(claimingPng(4032, 3024))).toMatchObject({ kind: 'png' });
    expect(checkImage(claimingJpeg(8160, 6120))).toMatchObject({ kind: 'jpeg' });
    expect(MAX_IMAGE_PIXELS).toBeGreaterThanOrEqual(8160 * 6120);
  });
});
