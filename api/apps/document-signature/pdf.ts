import { customerTimestamp, zoneName } from '../../customer-pages/dates';
import crypto from 'node:crypto';
import {
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFInvalidObject,
  PDFName,
  PDFRef,
  StandardFonts,
  rgb,
  type PDFFont,
  type PDFPage,
} from 'pdf-lib';
import { pdflibAddPlaceholder } from '@signpdf/placeholder-pdf-lib';
import { SUBFILTER_ETSI_CADES_DETACHED } from '@signpdf/utils';
import type { SigField, SigRemovedContent } from '../../contract/apps/document-signature';
import type { SigningCertificate } from './signing-certificate';
import { PdfRefused, type PdfLimits } from './pdf-limits';
import { stripActiveContent } from './pdf-clean';
import { drawLine, isolate, isolateLtr, layOneLine, layParagraph, PdfFonts, type TextStyle } from './pdf-text';
import { certificateLine, certificateText } from '../../customer-pages/certificate-text';
import { translate } from '../../customer-pages/i18n/index';
import { DEFAULT_LOCALE, type Locale } from '../../contract/locales';
import { SIG_DEFAULT_SETTINGS } from '../../contract/apps/document-signature';

// The PDF work of Document Signature, in the PDF worker only (pdf-worker.ts; the server's thread
// never parses a PDF): reading an upload within its limits and taking its active content out,
// stamping the customer's values into the original, the certificate of completion, and the room
// for the PAdES signature over the byte range (signed on the server's thread, seal.ts).

export type PdfInfo = { pageCount: number; pages: { width: number; height: number }[] };

export const sha256 = (bytes: Uint8Array) => crypto.createHash('sha256').update(bytes).digest('hex');

/**
 * Objects a file declares before any parsing: `n g obj` headers, plus what each object stream says
 * it holds (/N). Linear in the bytes, so a file with too many is refused before pdf-lib builds
 * them (150,000 objects took pdf-lib 4 to 13 s).
 */
export function declaredObjects(bytes: Uint8Array): number {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  let n = 0;
  // every repetition bounded, so no input makes these patterns backtrack far
  for (const _ of text.matchAll(/\d{1,10}\s{1,8}\d{1,5}\s{1,8}obj\b/g)) n++;
  for (const m of text.matchAll(
    /\/Type\s{0,8}\/ObjStm\b[^>]{0,200}?\/N\s{1,8}(\d{1,10})|\/N\s{1,8}(\d{1,10})[^>]{0,200}?\/Type\s{0,8}\/ObjStm\b/g,
  ))
    n += Number(m[1] ?? m[2]);
  return n;
}

/** Loads a PDF within the limits, or says which refusal applies. */
async function loadWithin(bytes: Uint8Array, limits: PdfLimits, strict: boolean): Promise<PDFDocument> {
  const head = Buffer.from(bytes.subarray(0, 1024)).toString('latin1');
  if (!head.includes('%PDF-')) throw new PdfRefused('not-pdf', limits);
  // an /Encrypt entry in a trailer is how a PDF says its content needs a key
  const tail = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  if (/\/Encrypt\s{0,8}(\d{1,10}\s{1,8}\d{1,5}\s{1,8}R|<<)/.test(tail)) throw new PdfRefused('encrypted', limits);
  if (declaredObjects(bytes) > limits.maxObjects) throw new PdfRefused('too-many-objects', limits);
  let doc: PDFDocument;
  try {
    doc = await PDFDocument.load(bytes, { updateMetadata: false, throwOnInvalidObject: strict });
  } catch (err) {
    if (err instanceof PdfRefused) throw err;
    if (err instanceof Error && /encrypt/i.test(err.message)) throw new PdfRefused('encrypted', limits);
    // nesting too deep for the parser, among others
    throw new PdfRefused('unreadable', limits);
  }
  if (doc.isEncrypted) throw new PdfRefused('encrypted', limits);
  if (doc.context.enumerateIndirectObjects().length > limits.maxObjects) throw new PdfRefused('too-many-objects', limits);
  return doc;
}

function pagesOf(doc: PDFDocument, limits: PdfLimits): PDFPage[] {
  let pages: PDFPage[];
  try {
    // a page tree that loops on itself ends here (the stack runs out)
    pages = doc.getPages();
  } catch {
    throw new PdfRefused('unreadable', limits);
  }
  if (!pages.length) throw new PdfRefused('empty', limits);
  if (pages.length > limits.maxPages) throw new PdfRefused('too-many-pages', limits);
  return pages;
}

export type InspectedPdf = PdfInfo & { removed: SigRemovedContent[]; cleaned: Uint8Array };

/**
 * Reads an upload: its pages and their sizes, or which of the refusals applies; and the file to
 * store, written again by us without active content (what was checked is exactly what is kept:
 * a reader that trusts the xref where pdf-lib reads objects in order sees the same file).
 */
export async function inspectPdf(bytes: Uint8Array, limits: PdfLimits): Promise<InspectedPdf> {
  const doc = await loadWithin(bytes, limits, true);
  const pages = pagesOf(doc, limits);
  const info = {
    pageCount: pages.length,
    pages: pages.map((p) => ({ width: round(p.getWidth()), height: round(p.getHeight()) })),
  };
  const removed = stripActiveContent(doc.context);
  const cleaned = await doc.save({ useObjectStreams: true, addDefaultPage: false, updateFieldAppearances: false });
  return { ...info, removed, cleaned };
}

const round = (n: number) => Math.round(n * 100) / 100;

export type StampValue = { field: SigField; text?: string | null; checked?: boolean; png?: Uint8Array | null };

export type Certificate = {
  documentName: string;
  version: number;
  requestId: string;
  signerName: string;
  phoneNumber: string;
  customerRef: string | null;
  ip: string | null;
  userAgent: string | null;
  consentText: string;
  /** the signer's language: the certificate is written in it, with English beside it */
  locale: Locale;
  /** the account's time zone: the timeline's times are in it (customer-pages/dates.ts) */
  timeZone: string;
  events: { time: string; description: string }[];
  originalSha256: string;
  /** each signature the signer gave: drawn (PNG) or typed */
  signatures: { label: string; png: Uint8Array | null; typed: string | null }[];
  seal: SealStatement;
};

/** What the certificate page says about the seal itself (written before signing, so inside it). */
export type SealStatement = {
  subject: string;
  owner: SigningCertificate['owner'];
  /** the time-stamping authority asked for a token, or null with the reason there is none */
  tsaUrl: string | null;
  noTimestampReason: string | null;
};

/** What the certificate says about the seal: each sentence in the signer's language and in English. */
export function sealLines(s: SealStatement, locale: Locale = DEFAULT_LOCALE): { text: string; english: string }[] {
  const both = (say: (l: Locale) => string) => ({ text: say(locale), english: say(DEFAULT_LOCALE) });
  return [
    both((l) => translate(l, 'cert.sealedBy', { subject: isolate(s.subject), owner: translate(l, `cert.owner.${s.owner}`) })),
    s.tsaUrl
      ? both((l) => translate(l, 'cert.tsa', { url: isolateLtr(s.tsaUrl!) }))
      : both((l) => translate(l, 'cert.noTsa', { reason: s.noTimestampReason ?? translate(l, 'cert.noTsaConfigured') })),
    // written before signing, so it says what may follow, not what did: with a time-stamp the
    // seal becomes B-LTA or stays B-T (seal.ts); without one nothing follows it
    both((l) => translate(l, s.tsaUrl ? 'cert.validationData' : 'cert.endsWithSignature')),
    both((l) => translate(l, 'cert.validWhile')),
  ];
}

/** Fits text into a box: the largest size up to the box height that fits its width. */
function fit(font: PDFFont, text: string, width: number, height: number): number {
  let size = Math.min(height * 0.75, 14);
  while (size > 4 && font.widthOfTextAtSize(text, size) > width) size -= 0.5;
  return size;
}

/** Draws the values into their boxes (fractions of the page, top-left origin; PDF is bottom-left). */
async function stamp(doc: PDFDocument, values: StampValue[]): Promise<void> {
  const fonts = new PdfFonts(doc);
  const script = await doc.embedFont(StandardFonts.TimesRomanItalic);
  const pages = doc.getPages();
  for (const { field, text, checked, png } of values) {
    const page = pages[field.page];
    if (!page) continue;
    const { x: bx, y: by, width: pw, height: ph } = page.getCropBox();
    const w = field.w * pw;
    const h = field.h * ph;
    const x = bx + field.x * pw;
    const y = by + ph - (field.y + field.h) * ph;
    if (png) {
      const image = await doc.embedPng(png);
      const scale = Math.min(w / image.width, h / image.height);
      page.drawImage(image, {
        x: x + (w - image.width * scale) / 2,
        y: y + (h - image.height * scale) / 2,
        width: image.width * scale,
        height: image.height * scale,
      });
    } else if (field.kind === 'checkbox') {
      if (!checked) continue;
      const s = Math.min(w, h);
      // a tick drawn as two strokes: no font needs the glyph
      page.drawLine({
        start: { x: x + s * 0.15, y: y + s * 0.5 },
        end: { x: x + s * 0.4, y: y + s * 0.2 },
        thickness: Math.max(1, s * 0.1),
        color: rgb(0, 0, 0),
      });
      page.drawLine({
        start: { x: x + s * 0.4, y: y + s * 0.2 },
        end: { x: x + s * 0.85, y: y + s * 0.85 },
        thickness: Math.max(1, s * 0.1),
        color: rgb(0, 0, 0),
      });
    } else if (text) {
      const color: [number, number, number] = [0.05, 0.1, 0.3];
      // a typed signature in Latin letters keeps the script face; any other text, in any script, the Noto fonts
      if ((field.kind === 'signature' || field.kind === 'initials') && winAnsi(text) === text) {
        const size = fit(script, text, w, h);
        page.drawText(text, { x: x + 1, y: y + (h - size) / 2 + size * 0.2, size, font: script, color: rgb(...color) });
        continue;
      }
      const size = await fitLine(fonts, text, w, h);
      const line = await layOneLine(fonts, text, { size });
      drawLine(page, line, { left: x + 1, right: x + w - 1, y: y + (h - size) / 2 + size * 0.2 }, { size, color });
    }
  }
}

/** The largest size up to the box height (14 pt at most) at which one line of text fits the box's width. */
async function fitLine(fonts: PdfFonts, text: string, width: number, height: number): Promise<number> {
  const size = Math.min(height * 0.75, 14);
  const line = await layOneLine(fonts, text, { size });
  return line.width <= width - 2 ? size : Math.max(4, Math.floor(((size * (width - 2)) / line.width) * 2) / 2);
}

/** Standard fonts speak WinAnsi only: text for them (the signature's reason) has other characters as '?'. */
export function winAnsi(text: string): string {
  return text.replace(/[^\x20-\x7E\xA0-\xFF]/g, '?');
}

async function certificatePage(doc: PDFDocument, c: Certificate, contentSha256: string): Promise<void> {
  const fonts = new PdfFonts(doc);
  const script = await doc.embedFont(StandardFonts.TimesRomanItalic);
  const width = 595.28;
  const height = 841.89;
  let page = doc.addPage([width, height]);
  let y = height - 60;
  const left = 50;
  const usable = width - 2 * left;
  const newPageIfBelow = (room: number) => {
    if (y - room < 60) {
      page = doc.addPage([width, height]);
      y = height - 60;
    }
  };
  type LineOptions = { bold?: boolean; size?: number; gap?: number; direction?: TextStyle['direction'] };
  const line = async (text: string, opts: LineOptions = {}) => {
    const style: TextStyle = { size: opts.size ?? 10, bold: opts.bold, direction: opts.direction };
    for (const l of await layParagraph(fonts, text, usable, style)) {
      newPageIfBelow(0);
      drawLine(page, l, { left, right: left + usable, y }, style);
      y -= style.size * 1.5;
    }
    y -= opts.gap ?? 0;
  };
  const L = c.locale;
  /**
   * A line in the signer's language with English beside it (certificateLine); when the two do
   * not fit on one line, each is its own paragraph, the English below, each read in its own
   * direction (an Arabic sentence from the right, the English from the left).
   */
  const bilingual = async (
    key: Parameters<typeof certificateLine>[1],
    values?: Parameters<typeof certificateLine>[2],
    opts: LineOptions = {},
  ) => {
    const both = certificateLine(L, key, values);
    const style: TextStyle = { size: opts.size ?? 10, bold: opts.bold };
    if (L === DEFAULT_LOCALE || (await layParagraph(fonts, both, usable, style)).length === 1) return line(both, opts);
    const { text, english } = certificateText(L, key, values);
    await line(text);
    await line(english, { ...opts, direction: 'ltr' });
  };
  const heading = (key: Parameters<typeof certificateLine>[1], values?: Parameters<typeof certificateLine>[2]) =>
    line(certificateLine(L, key, values), { bold: true, size: 12 });
  await bilingual('cert.title', undefined, { bold: true, size: 18, gap: 8 });
  // values keep their own direction inside a sentence of the other (isolates, UAX #9)
  await bilingual('cert.document', { name: isolate(c.documentName), version: c.version });
  await bilingual('cert.request', { id: isolateLtr(c.requestId) }, { gap: 8 });
  await heading('cert.signer');
  await bilingual('cert.name', { name: isolate(c.signerName) });
  await bilingual('cert.phone', { phone: isolateLtr(c.phoneNumber) });
  if (c.customerRef) await bilingual('cert.customerRef', { ref: isolate(c.customerRef) });
  await bilingual('cert.ip', { ip: isolateLtr(c.ip ?? '—') });
  await bilingual('cert.userAgent', { agent: isolateLtr(c.userAgent ?? '—') }, { gap: 8 });
  // each signature as the signer gave it, so the certificate shows what was signed with
  for (const sig of c.signatures) {
    const box = 48;
    newPageIfBelow(box + 14);
    await line(certificateLine(L, 'cert.signature', { label: sig.label }));
    if (sig.png) {
      const image = await doc.embedPng(sig.png);
      const scale = Math.min(220 / image.width, box / image.height);
      page.drawImage(image, {
        x: left,
        y: y - image.height * scale + 8,
        width: image.width * scale,
        height: image.height * scale,
      });
      y -= box;
    } else if (sig.typed) {
      const color: [number, number, number] = [0.05, 0.1, 0.3];
      if (winAnsi(sig.typed) === sig.typed) {
        page.drawText(sig.typed, {
          x: left,
          y: y - 14,
          size: fit(script, sig.typed, 260, 24),
          font: script,
          color: rgb(...color),
        });
      } else {
        const size = await fitLine(fonts, sig.typed, 260, 24);
        drawLine(page, await layOneLine(fonts, sig.typed, { size }), { left, right: left + 260, y: y - 14 }, { size, color });
      }
      y -= 30;
    }
  }
  y -= 8;
  await heading('cert.consent');
  // the built-in consent text was shown in the signer's language: both are recorded; an
  // account's own text is recorded as it was shown
  const builtIn = c.consentText.trim() === SIG_DEFAULT_SETTINGS.consentText;
  if (builtIn && L !== DEFAULT_LOCALE) await line(translate(L, 'sig.consent'));
  await line(c.consentText, { gap: 8 });
  // the heading names the zone; each time is in the customer's one date style, to the second
  const when = c.events[0]?.time ?? new Date();
  await heading('cert.events', { zone: `${c.timeZone}, ${zoneName(when, L, c.timeZone)}` });
  // the timeline's own words, as the console shows them (English), time first
  for (const e of c.events)
    await line(
      `${isolateLtr(customerTimestamp(e.time, L, c.timeZone))}  ${e.description.replaceAll(c.signerName, isolate(c.signerName))}`,
      { direction: 'ltr' },
    );
  y -= 8;
  await heading('cert.integrity');
  await bilingual('cert.originalSha', { hash: isolateLtr(c.originalSha256) });
  await bilingual('cert.contentSha', { hash: isolateLtr(contentSha256) }, { gap: 8 });
  await heading('cert.seal');
  for (const { text, english } of sealLines(c.seal, L)) {
    // as certificateLine words it: "<the signer's language> / <English>", or apart when too long
    const together = L === DEFAULT_LOCALE ? english : `${text} / ${english}`;
    if ((await layParagraph(fonts, together, usable, { size: 9 })).length === 1 || L === DEFAULT_LOCALE)
      await line(together, { size: 9 });
    else {
      await line(text, { size: 9 });
      await line(english, { size: 9, direction: 'ltr' });
    }
  }
}

/**
 * Makes the seal a certification signature (DocMDP, ISO 32000-2 12.8.2.2): its dictionary gets
 * a DocMDP reference with P=2 and the catalog's /Perms points at it. P=2 permits filling in
 * forms and signing, which is how PAdES adds its validation data and document time-stamp (the
 * DSS and the DocTimeStamp field); a reader that checks certifications (Acrobat) flags any
 * other later change as breaking it, not just as "not the whole document".
 */
function certify(doc: PDFDocument): void {
  const acroForm = doc.catalog.lookup(PDFName.of('AcroForm'), PDFDict);
  const fields = acroForm.lookup(PDFName.of('Fields'), PDFArray);
  const widget = doc.context.lookup(fields.get(fields.size() - 1), PDFDict);
  const sigRef = widget.get(PDFName.of('V'));
  if (!(sigRef instanceof PDFRef)) throw new Error('The signature field has no signature dictionary.');
  // @signpdf wrote the dictionary as raw bytes (so its placeholders keep their exact form): the
  // reference goes in before its closing >>
  const raw = doc.context.lookup(sigRef);
  if (!(raw instanceof PDFInvalidObject)) throw new Error('The signature dictionary is not where @signpdf puts it.');
  const bytes = new Uint8Array(raw.sizeInBytes());
  raw.copyBytesInto(bytes, 0);
  const text = Buffer.from(bytes).toString('latin1');
  const end = text.lastIndexOf('>>');
  const reference =
    '/Reference [<< /Type /SigRef /TransformMethod /DocMDP /TransformParams << /Type /TransformParams /P 2 /V /1.2 >> >>]\n';
  doc.context.assign(sigRef, PDFInvalidObject.of(Buffer.from(text.slice(0, end) + reference + text.slice(end), 'latin1')));
  doc.catalog.set(PDFName.of('Perms'), doc.context.obj({ DocMDP: sigRef }));
}

// room for the CMS: the chain, and a timestamp token with the TSA's own chain
const SIGNATURE_BYTES = 24_576;

export type PreparedSeal = { withPlaceholder: Uint8Array; contentSha256: string };

/**
 * Stamps the values into the original, appends the certificate of completion and makes room for
 * the signature (signed after, on the server's thread). Always starts from the original bytes,
 * so sealing again never stamps twice; takes active content out again (a document stored
 * before uploads were cleaned is sealed clean too).
 */
export async function prepareSeal(
  original: Uint8Array,
  values: StampValue[],
  certificate: Certificate,
  sealedBy: string,
  signingTime: Date,
  limits: PdfLimits,
): Promise<PreparedSeal> {
  const doc = await loadWithin(original, limits, false);
  pagesOf(doc, { ...limits, maxPages: Number.MAX_SAFE_INTEGER });
  stripActiveContent(doc.context);
  await stamp(doc, values);
  doc.setModificationDate(signingTime);
  const content = await doc.save({ useObjectStreams: false });
  const contentSha256 = sha256(content);
  const sealed = await PDFDocument.load(content, { updateMetadata: false });
  await certificatePage(sealed, certificate, contentSha256);
  pdflibAddPlaceholder({
    pdfDoc: sealed,
    reason: `Signed by ${winAnsi(certificate.signerName)}`,
    contactInfo: '',
    name: winAnsi(sealedBy),
    location: 'Switchboard',
    signingTime,
    signatureLength: SIGNATURE_BYTES,
    subFilter: SUBFILTER_ETSI_CADES_DETACHED,
  });
  certify(sealed);
  return { withPlaceholder: await sealed.save({ useObjectStreams: false }), contentSha256 };
}
