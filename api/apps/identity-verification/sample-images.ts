import zlib from 'node:zlib';

// Small real images made in code, for the demo seed and the tests: a PNG (RGB, deflated) and a
// baseline greyscale JPEG whose 8×8 blocks are each one shade (only DC coefficients, so the
// encoder stays a page long). Both decode in any browser.

// ---------------------------------------------------------------- PNG

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const byte of buf) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

export function pngChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** A PNG of width × height whose pixel (x, y) is pixel(x, y) as [r, g, b]. */
export function makePng(
  width: number,
  height: number,
  pixel: (x: number, y: number) => [number, number, number],
  extraChunks: Buffer[] = [],
): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // RGB
  const raw = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    const row = y * (width * 3 + 1);
    for (let x = 0; x < width; x++) raw.set(pixel(x, y), row + 1 + x * 3);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    ...extraChunks,
    pngChunk('IDAT', zlib.deflateSync(raw)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

// ---------------------------------------------------------------- JPEG

// The standard luminance DC table (ITU T.81 Annex K.3); the AC table holds only end-of-block.
const DC_BITS = [0, 1, 5, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0];
const DC_VALUES = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11];

function canonicalCodes(bits: number[], values: number[]): Map<number, { code: number; length: number }> {
  const codes = new Map<number, { code: number; length: number }>();
  let code = 0;
  let k = 0;
  for (let length = 1; length <= 16; length++) {
    for (let i = 0; i < bits[length - 1]!; i++) codes.set(values[k++]!, { code: code++, length });
    code <<= 1;
  }
  return codes;
}

const segment = (marker: number, data: number[] | Buffer) => {
  const body = Buffer.from(data);
  const head = Buffer.from([0xff, marker, 0, 0]);
  head.writeUInt16BE(body.length + 2, 2);
  return Buffer.concat([head, body]);
};

/**
 * A greyscale baseline JPEG of (blocksWide × 8) × (blocksHigh × 8) pixels whose block (bx, by)
 * has the shade shade(bx, by) (0–255). `segments` are inserted right after SOI (tests add an
 * EXIF APP1 there, where cameras put it).
 */
export function makeJpeg(
  blocksWide: number,
  blocksHigh: number,
  shade: (bx: number, by: number) => number,
  segments: Buffer[] = [],
): Buffer {
  const dc = canonicalCodes(DC_BITS, DC_VALUES);
  const bytes: number[] = [];
  let acc = 0;
  let count = 0;
  const put = (code: number, length: number) => {
    for (let i = length - 1; i >= 0; i--) {
      acc = (acc << 1) | ((code >> i) & 1);
      if (++count === 8) {
        bytes.push(acc);
        if (acc === 0xff) bytes.push(0); // byte stuffing
        acc = 0;
        count = 0;
      }
    }
  };
  let previous = 0;
  for (let by = 0; by < blocksHigh; by++) {
    for (let bx = 0; bx < blocksWide; bx++) {
      // a flat block's DC coefficient is 8 × (shade − 128) with a quantiser of 1
      const value = 8 * (Math.max(0, Math.min(255, Math.round(shade(bx, by)))) - 128);
      const diff = value - previous;
      previous = value;
      const category = diff === 0 ? 0 : Math.floor(Math.log2(Math.abs(diff))) + 1;
      const { code, length } = dc.get(category)!;
      put(code, length);
      if (category) put(diff > 0 ? diff : diff + (1 << category) - 1, category);
      put(0, 1); // the AC table's one code: end of block
    }
  }
  if (count) put((1 << (8 - count)) - 1, 8 - count); // pad with ones
  const width = blocksWide * 8;
  const height = blocksHigh * 8;
  return Buffer.concat([
    Buffer.from([0xff, 0xd8]),
    ...segments,
    segment(0xe0, [0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0]), // JFIF
    segment(0xdb, [0, ...new Array<number>(64).fill(1)]),
    segment(0xc0, [8, height >> 8, height & 0xff, width >> 8, width & 0xff, 1, 1, 0x11, 0]),
    segment(0xc4, [0x00, ...DC_BITS, ...DC_VALUES]),
    segment(0xc4, [0x10, 1, ...new Array<number>(15).fill(0), 0x00]),
    segment(0xda, [1, 1, 0x00, 0, 63, 0]),
    Buffer.from(bytes),
    Buffer.from([0xff, 0xd9]),
  ]);
}

/**
 * An EXIF APP1 segment as a phone writes it, with a GPS IFD holding a latitude and longitude
 * (big-endian TIFF): what must never reach storage.
 */
export function exifGpsSegment(): Buffer {
  const tiff: number[] = [];
  const u16 = (n: number) => tiff.push(n >> 8, n & 0xff);
  const u32 = (n: number) => tiff.push((n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff);
  // header: MM, 42, IFD0 at 8
  tiff.push(0x4d, 0x4d);
  u16(42);
  u32(8);
  // IFD0: one entry, GPSInfo (0x8825) pointing at the GPS IFD at 26
  u16(1);
  u16(0x8825), u16(4), u32(1), u32(26);
  u32(0);
  // GPS IFD at 26: LatitudeRef N, Latitude, LongitudeRef W, Longitude (rationals at 80 and 104)
  u16(4);
  u16(1), u16(2), u32(2), tiff.push(0x4e, 0, 0, 0);
  u16(2), u16(5), u32(3), u32(80);
  u16(3), u16(2), u32(2), tiff.push(0x57, 0, 0, 0);
  u16(4), u16(5), u32(3), u32(104);
  u32(0);
  // 51°30'26" N, 0°7'39" W
  for (const [n, d] of [
    [51, 1],
    [30, 1],
    [26, 1],
    [0, 1],
    [7, 1],
    [39, 1],
  ] as const)
    u32(n), u32(d);
  return segment(0xe1, Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), Buffer.from(tiff)]));
}

// ---------------------------------------------------------------- believable samples

/** A card-like picture: a coloured band, a photo box, text lines, and the MRZ band at the bottom. */
export function sampleDocumentPng(seed: number, side: 'front' | 'back'): Buffer {
  const hue = [
    [37, 99, 235],
    [219, 39, 119],
    [5, 150, 105],
    [217, 119, 6],
  ][seed % 4]!;
  return makePng(172, 108, (x, y) => {
    if (x < 2 || y < 2 || x > 169 || y > 105) return [120, 120, 120];
    if (side === 'front') {
      if (y < 18) return hue as [number, number, number];
      if (x > 10 && x < 50 && y > 26 && y < 78) return [180 + (seed % 40), 160, 150];
      if (x > 60 && x < 160 && (y % 10 === 0 || y % 10 === 1) && y > 28 && y < 80) return [60, 60, 60];
    }
    if (y > 84 && y < 100 && x > 8 && x < 164 && (x + seed) % 5 < 3 && y % 6 < 4) return [30, 30, 30];
    return [244, 241, 232];
  });
}

/** A selfie-like JPEG: a light background, a face-shaped oval of a darker shade. */
export function sampleSelfieJpeg(seed: number): Buffer {
  return makeJpeg(12, 16, (bx, by) => {
    const dx = (bx - 5.5) / 3.5;
    const dy = (by - 6.5) / 5;
    if (dx * dx + dy * dy < 1) return 150 + (seed % 5) * 12;
    if (by > 11 && Math.abs(bx - 5.5) < 5) return 70;
    return 225;
  });
}
