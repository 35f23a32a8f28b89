import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import fontkit from '@pdf-lib/fontkit';
import bidiFactory from 'bidi-js';
import { PDFHexString, rgb, type PDFDocument, type PDFFont, type PDFPage } from 'pdf-lib';

// Text in any script in the sealed PDF: names, addresses, a typed signature, the certificate in
// the signer's language. The PDF's standard fonts (Helvetica) speak WinAnsi only; these are
// Noto fonts (SIL OFL 1.1, from the @expo-google-fonts packages, server only): Noto Sans for
// Latin, Greek and Cyrillic, Noto Sans Arabic, and Noto Sans JP for Japanese (kana and kanji,
// which also covers most Chinese characters). Each is embedded only when a text needs it, and
// subsetted to the glyphs used (a Japanese name adds a few kilobytes, not the 5 MB font).
//
// A line is laid out as a reader expects it: the Unicode Bidirectional Algorithm (bidi-js)
// resolves each character's direction and orders the runs, right to left for an Arabic
// paragraph; each run is shaped by fontkit (Arabic letters take their joined forms, lam-alef its
// ligature) in logical order and drawn in visual order. Long text wraps at word boundaries
// (Intl.Segmenter, so Japanese, written without spaces, wraps between words too).

const bidi = bidiFactory();
const require = createRequire(import.meta.url);

type Face = 'latin' | 'arabic' | 'cjk';
const FACES: Face[] = ['latin', 'arabic', 'cjk'];
const FILES: Record<Face, { regular: string; bold: string }> = {
  latin: {
    regular: '@expo-google-fonts/noto-sans/400Regular/NotoSans_400Regular.ttf',
    bold: '@expo-google-fonts/noto-sans/700Bold/NotoSans_700Bold.ttf',
  },
  arabic: {
    regular: '@expo-google-fonts/noto-sans-arabic/400Regular/NotoSansArabic_400Regular.ttf',
    bold: '@expo-google-fonts/noto-sans-arabic/700Bold/NotoSansArabic_700Bold.ttf',
  },
  cjk: {
    regular: '@expo-google-fonts/noto-sans-jp/400Regular/NotoSansJP_400Regular.ttf',
    bold: '@expo-google-fonts/noto-sans-jp/700Bold/NotoSansJP_700Bold.ttf',
  },
};

// the font files, read once per process when a seal first needs them
const bytesCache = new Map<string, Uint8Array>();
function fontBytes(face: Face, bold: boolean): Uint8Array {
  const file = FILES[face][bold ? 'bold' : 'regular'];
  let bytes = bytesCache.get(file);
  if (!bytes) {
    bytes = fs.readFileSync(require.resolve(file));
    bytesCache.set(file, bytes);
  }
  return bytes;
}

// which characters each face has (its cmap), parsed once per process
type Coverage = { hasGlyphForCodePoint(cp: number): boolean };
const coverage = new Map<Face, Coverage>();
function covers(face: Face, cp: number): boolean {
  let font = coverage.get(face);
  if (!font) {
    font = fontkit.create(Buffer.from(fontBytes(face, false))) as unknown as Coverage;
    coverage.set(face, font);
  }
  return font.hasGlyphForCodePoint(cp);
}

const ARABIC = /[\u0600-\u06FF\u0750-\u077F\u08A0-\u08FF\uFB50-\uFDFF\uFE70-\uFEFF]/;
const CJK = /[\u3000-\u30FF\u3400-\u4DBF\u4E00-\u9FFF\uF900-\uFAFF\uFF00-\uFFEF]|[\uD840-\uD87F][\uDC00-\uDFFF]/;
const BIDI_CONTROLS = /[\u200E\u200F\u202A-\u202E\u2066-\u2069]/;
const STRONG_RTL = /[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFF]/;

/** The face a character is drawn with: its script's, else the one it follows if that has it. */
function faceFor(ch: string, previous: Face | null): Face | null {
  const cp = ch.codePointAt(0)!;
  if (ARABIC.test(ch) && covers('arabic', cp)) return 'arabic';
  if (CJK.test(ch) && covers('cjk', cp)) return 'cjk';
  if (previous && covers(previous, cp)) return previous;
  return FACES.find((f) => covers(f, cp)) ?? null;
}

/**
 * fontkit's TrueType subsetter copies each glyph's bytes as they are and then, when the subset
 * is small, writes the short `loca` format, which stores offsets halved: a glyph of odd length
 * (the Noto fonts have them) shifts every glyph after it, and a reader draws nothing or the wrong
 * outline from there on. Each glyph copied is padded to an even length (the TrueType spec's
 * alignment), once per process.
 */
let subsetPadded = false;
function padSubsetGlyphs(): void {
  if (subsetPadded) return;
  subsetPadded = true;
  const sample = fontkit.create(Buffer.from(fontBytes('arabic', false))) as unknown as { createSubset(): object };
  type TtfSubset = { glyf: Uint8Array[]; offset: number; _addGlyph(gid: number): number };
  const proto = Object.getPrototypeOf(sample.createSubset()) as TtfSubset;
  const copy = proto._addGlyph;
  proto._addGlyph = function padded(this: TtfSubset, gid: number): number {
    const index = copy.call(this, gid);
    const bytes = this.glyf[index]!;
    if (bytes.length % 2) {
      // the subsetter's own Buffer class (its streams accept no other)
      const even = (bytes.constructor as unknown as { alloc(n: number): Uint8Array }).alloc(bytes.length + 1);
      even.set(bytes);
      this.glyf[index] = even;
      this.offset += 1;
    }
    return index;
  };
}

type Glyph = { id: number; codePoints: number[] };
type SubsetEmbedder = {
  font: {
    getGlyph(id: number, codePoints?: number[]): Glyph | null;
    layout(text: string, features?: unknown): { glyphs: Glyph[] };
  };
  fontFeatures: unknown;
  subset: { glyphs: number[] };
  glyphs: Glyph[];
  glyphCache: { invalidate(): void };
  encodeText(text: string): PDFHexString;
  glyphId(glyph: Glyph | undefined): number;
};

/**
 * The text a reader copies from a glyph is what the font's map (ToUnicode) says for it. One
 * glyph can stand for several letters (Noto Sans Arabic draws beh, teh, theh, yeh and noon in a
 * joined form as one dotless shape with its dots as marks), and fontkit keeps the letters of
 * the first use of a glyph only, so "التوقيع" was copied as "اليوقيع". Each glyph used for other
 * letters is given a code of its own (the subset holds the outline twice, a few bytes), so every
 * code names its own letters.
 */
function codesByLetters(font: PDFFont): void {
  const embedder = (font as unknown as { embedder: SubsetEmbedder }).embedder;
  const fontkitFont = embedder.font;
  const getGlyph = fontkitFont.getGlyph.bind(fontkitFont);
  fontkitFont.getGlyph = (id, codePoints = []) => {
    const glyph = getGlyph(id, codePoints);
    if (!glyph || (glyph.codePoints.length === codePoints.length && glyph.codePoints.every((c, i) => c === codePoints[i])))
      return glyph;
    return Object.create(glyph, { codePoints: { value: codePoints } }) as Glyph;
  };
  const codes = new Map<string, number>();
  const codeOf = new Map<Glyph, number>();
  embedder.encodeText = function encodeText(this: SubsetEmbedder, text: string) {
    const unmirror = MIRRORED_TEXTS.has(text);
    const hex = this.font.layout(text, this.fontFeatures).glyphs.map((drawn) => {
      // a bracket drawn mirrored in a right-to-left run (forFont) copies as the one the text has
      const mirror =
        unmirror && drawn.codePoints.length === 1 ? bidi.getMirroredCharacter(String.fromCodePoint(drawn.codePoints[0]!)) : null;
      const glyph = mirror ? (this.font.getGlyph(drawn.id, [mirror.codePointAt(0)!]) ?? drawn) : drawn;
      const key = `${glyph.id}:${glyph.codePoints.join(',')}`;
      let code = codes.get(key);
      if (code === undefined) {
        code = this.subset.glyphs.push(glyph.id) - 1;
        codes.set(key, code);
        codeOf.set(glyph, code);
        this.glyphs[code - 1] = glyph;
      }
      return code.toString(16).padStart(4, '0');
    });
    this.glyphCache.invalidate();
    return PDFHexString.of(hex.join(''));
  };
  embedder.glyphId = (glyph) => (glyph ? (codeOf.get(glyph) ?? -1) : -1);
}

/** The fonts of one PDF, embedded (subsetted) the first time a text uses them. */
export class PdfFonts {
  private readonly embedded = new Map<string, Promise<PDFFont>>();
  constructor(private readonly doc: PDFDocument) {
    doc.registerFontkit(fontkit);
    padSubsetGlyphs();
  }
  font(face: Face, bold = false): Promise<PDFFont> {
    const key = `${face}:${bold}`;
    let font = this.embedded.get(key);
    if (!font) {
      // a subset's name starts with a tag of six capitals (ISO 32000 9.6.4): readers and pdffonts know it for one
      const tag = Array.from(crypto.randomBytes(6), (b) => String.fromCharCode(65 + (b % 26))).join('');
      const name = `${tag}+${FILES[face][bold ? 'bold' : 'regular'].split('/').pop()!.replace(/_\d+/, '-').replace('.ttf', '')}`;
      font = this.doc.embedFont(fontBytes(face, bold), { subset: true, customName: name }).then((f) => {
        codesByLetters(f);
        return f;
      });
      this.embedded.set(key, font);
    }
    return font;
  }
}

/** A value read left to right whatever surrounds it (a phone number, an address, a hash) in an Arabic sentence. */
export const isolateLtr = (value: string) => `\u2066${value}\u2069`;
/** A value read in its own direction (a name: Arabic in an English sentence, Latin in an Arabic one). */
export const isolate = (value: string) => `\u2068${value}\u2069`;

/** A stretch of one line drawn with one font, in the order it is drawn (left to right). */
type Run = { text: string; face: Face; level: number };

/** Splits [start, end) of a paragraph into runs of one direction level and one face, in logical order. */
function runsOf(text: string, levels: Uint8Array, start: number, end: number): Run[] {
  const runs: Run[] = [];
  let previous: Face | null = null;
  for (let i = start; i < end; ) {
    const cp = text.codePointAt(i)!;
    const ch = String.fromCodePoint(cp);
    // direction marks and isolates steer the algorithm; they are not drawn
    if (BIDI_CONTROLS.test(ch)) {
      i += ch.length;
      continue;
    }
    const face = faceFor(ch, previous);
    const level = levels[i]!;
    // a character no font has is shown as "?" rather than as nothing
    const shown = face ? ch : '?';
    const drawnWith: Face = face ?? previous ?? 'latin';
    const last = runs[runs.length - 1];
    if (last && last.face === drawnWith && last.level === level) last.text += shown;
    else runs.push({ text: shown, face: drawnWith, level });
    previous = drawnWith;
    i += ch.length;
  }
  return runs;
}

/** UAX #9 rule L2: from the highest level down to the lowest odd one, reverse each sequence at that level or above. */
function visualOrder(runs: Run[]): Run[] {
  const out = [...runs];
  const max = Math.max(0, ...out.map((r) => r.level));
  const minOdd = Math.min(...out.map((r) => r.level).filter((l) => l % 2 === 1), Infinity);
  for (let level = max; level >= minOdd && level > 0; level--) {
    for (let i = 0; i < out.length; ) {
      if (out[i]!.level < level) {
        i++;
        continue;
      }
      let j = i;
      while (j < out.length && out[j]!.level >= level) j++;
      out.splice(i, j - i, ...out.slice(i, j).reverse());
      i = j;
    }
  }
  return out;
}

/**
 * The string handed to the font for a run. fontkit shapes a right-to-left script (Arabic) in
 * logical order and gives its glyphs reversed; a right-to-left run with no such script in it
 * (spaces, punctuation between Arabic words) is reversed here; brackets are mirrored in both.
 */
function forFont(run: Run): string {
  if (run.level % 2 === 0) return run.text;
  // in a right-to-left run "(" is drawn as ")" (rule L4); fontkit reverses but does not mirror
  const chars = [...run.text];
  const mirrored = chars.map((c) => bidi.getMirroredCharacter(c) ?? c);
  const text = STRONG_RTL.test(run.text) ? mirrored.join('') : mirrored.reverse().join('');
  if (mirrored.some((c, i) => c !== chars[i])) {
    if (MIRRORED_TEXTS.size > 10_000) MIRRORED_TEXTS.clear();
    MIRRORED_TEXTS.add(text);
  }
  return text;
}

/**
 * Texts handed to the font whose brackets forFont mirrored: the encoder maps each such glyph back
 * to the bracket the text has, so a reader copies "(" where the line says "(" though it draws ")".
 */
const MIRRORED_TEXTS = new Set<string>();

/** `direction`: the paragraph's base direction; 'auto' (the default) takes its first strong letter's */
export type TextStyle = { size: number; bold?: boolean; color?: [number, number, number]; direction?: 'ltr' | 'rtl' | 'auto' };

type Laid = { runs: { text: string; font: PDFFont }[]; width: number; rtl: boolean };

/** One line's runs with their fonts and its width at `size`. */
async function layLine(
  fonts: PdfFonts,
  text: string,
  levels: Uint8Array,
  start: number,
  end: number,
  style: TextStyle,
  rtl: boolean,
): Promise<Laid> {
  const runs = await Promise.all(
    visualOrder(runsOf(text, levels, start, end)).map(async (r) => ({
      text: forFont(r),
      font: await fonts.font(r.face, style.bold),
    })),
  );
  const width = runs.reduce((w, r) => w + r.font.widthOfTextAtSize(r.text, style.size), 0);
  return { runs, width, rtl };
}

/**
 * Where a line may break: after each word, as the text's language segments it (Japanese has
 * no spaces), with the spaces after it; never before a comma, stop or closing bracket, nor
 * after an opening one.
 */
function breakPoints(text: string): number[] {
  const points: number[] = [];
  const segmenter = new Intl.Segmenter(undefined, { granularity: 'word' });
  for (const s of segmenter.segment(text)) {
    const end = s.index + s.segment.length;
    if (/^[\p{Ps}\p{Pi}]+$/u.test(s.segment)) continue;
    if (points.length && (/^\s+$/.test(s.segment) || !s.isWordLike)) points[points.length - 1] = end;
    else points.push(end);
  }
  if (!points.length || points[points.length - 1] !== text.length) points.push(text.length);
  return points;
}

/**
 * Lays out a paragraph in lines of at most `width` points: each line's runs in drawing order,
 * its width, and whether the paragraph reads right to left (it is then aligned right).
 */
export async function layParagraph(fonts: PdfFonts, paragraph: string, width: number, style: TextStyle): Promise<Laid[]> {
  const text = paragraph.replace(/\s+/g, ' ').trim();
  if (!text) return [];
  const embedding = bidi.getEmbeddingLevels(text, style.direction ?? 'auto');
  const rtl = (embedding.paragraphs[0]?.level ?? 0) % 2 === 1;
  const lines: Laid[] = [];
  const lay = (start: number, end: number) => {
    while (end > start && /\s/.test(text[end - 1]!)) end--;
    return layLine(fonts, text, embedding.levels, start, end, style, rtl);
  };
  let start = 0;
  let fit: { end: number; laid: Laid } | null = null;
  for (const end of breakPoints(text)) {
    let laid = await lay(start, end);
    if (laid.width <= width) {
      fit = { end, laid };
      continue;
    }
    if (fit) {
      lines.push(fit.laid);
      start = fit.end;
      fit = null;
      laid = await lay(start, end);
      if (laid.width <= width) {
        fit = { end, laid };
        continue;
      }
    }
    // one word wider than the line stands alone on it
    lines.push(laid);
    start = end;
  }
  if (fit) lines.push(fit.laid);
  return lines;
}

/** Draws one laid-out line with its left edge at `left` (right-to-left lines end at `right`). */
export function drawLine(page: PDFPage, line: Laid, at: { left: number; right: number; y: number }, style: TextStyle): void {
  let x = line.rtl ? at.right - line.width : at.left;
  const color = rgb(...(style.color ?? [0.1, 0.1, 0.1]));
  for (const run of line.runs) {
    page.drawText(run.text, { x, y: at.y, size: style.size, font: run.font, color });
    x += run.font.widthOfTextAtSize(run.text, style.size);
  }
}

/** One line of text, unwrapped (a stamped value): its runs and width, to fit into a box. */
export async function layOneLine(fonts: PdfFonts, text: string, style: TextStyle): Promise<Laid> {
  const clean = text.replace(/\s+/g, ' ').trim();
  const embedding = bidi.getEmbeddingLevels(clean, 'auto');
  return layLine(fonts, clean, embedding.levels, 0, clean.length, style, (embedding.paragraphs[0]?.level ?? 0) % 2 === 1);
}
