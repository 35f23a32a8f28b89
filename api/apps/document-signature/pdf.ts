import crypto from 'node:crypto';
import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage } from 'pdf-lib';
import { pdflibAddPlaceholder } from '@signpdf/placeholder-pdf-lib';
import { SUBFILTER_ETSI_CADES_DETACHED } from '@signpdf/utils';
import type { SigField, SigRemovedContent } from '../../contract/apps/document-signature';
import type { SigningCertificate } from './signing-certificate';
import { PdfRefused, type PdfLimits } from './pdf-limits';
import { stripActiveContent } from './pdf-clean';

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
  for (const m of text.matchAll(/\/Type\s{0,8}\/ObjStm\b[^>]{0,200}?\/N\s{1,8}(\d{1,10})|\/N\s{1,8}(\d{1,10})[^>]{0,200}?\/Type\s{0,8}\/ObjStm\b/g)) n += Number(m[1] ?? m[2]);
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
  const info = { pageCount: pages.length, pages: pages.map((p) => ({ width: round(p.getWidth()), height: round(p.getHeight()) })) };
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

const OWNER_TEXT: Record<SealStatement['owner'], string> = {
  account: "the account's own certificate",
  provider: "the platform's certificate",
  development: 'a development certificate that no one trusts',
};

export function sealLines(s: SealStatement): string[] {
  return [
    `Sealed by ${s.subject} (${OWNER_TEXT[s.owner]}) with a PAdES baseline signature (ETSI.CAdES.detached, SHA-256) that covers every page, this certificate included.`,
    s.tsaUrl
      ? `Trusted time: the signature carries an RFC 3161 timestamp from ${s.tsaUrl} (PAdES B-T).`
      : `No trusted timestamp (PAdES B-B): ${s.noTimestampReason ?? 'no time-stamping authority is configured'}. The signing time is the server's clock.`,
    'Validation data (the certificate chain and, where published, revocation lists) is added after signing as an incremental update (PAdES B-LT).',
    'A PDF reader shows the signature as valid only while not one byte of the signed content has changed.',
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
  const regular = await doc.embedFont(StandardFonts.Helvetica);
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
      page.drawImage(image, { x: x + (w - image.width * scale) / 2, y: y + (h - image.height * scale) / 2, width: image.width * scale, height: image.height * scale });
    } else if (field.kind === 'checkbox') {
      if (!checked) continue;
      const s = Math.min(w, h);
      // a tick drawn as two strokes: no font needs the glyph
      page.drawLine({ start: { x: x + s * 0.15, y: y + s * 0.5 }, end: { x: x + s * 0.4, y: y + s * 0.2 }, thickness: Math.max(1, s * 0.1), color: rgb(0, 0, 0) });
      page.drawLine({ start: { x: x + s * 0.4, y: y + s * 0.2 }, end: { x: x + s * 0.85, y: y + s * 0.85 }, thickness: Math.max(1, s * 0.1), color: rgb(0, 0, 0) });
    } else if (text) {
      const font = field.kind === 'signature' || field.kind === 'initials' ? script : regular;
      const clean = winAnsi(text);
      const size = fit(font, clean, w, h);
      page.drawText(clean, { x: x + 1, y: y + (h - size) / 2 + size * 0.2, size, font, color: rgb(0.05, 0.1, 0.3) });
    }
  }
}

/** Standard fonts speak WinAnsi only: other characters become '?' rather than failing the seal. */
export function winAnsi(text: string): string {
  return text.replace(/[^\x20-\x7E\xA0-\xFF]/g, '?');
}

function wrap(font: PDFFont, text: string, size: number, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of winAnsi(text).split(/\s+/)) {
    const next = line ? `${line} ${word}` : word;
    if (font.widthOfTextAtSize(next, size) > width && line) {
      lines.push(line);
      line = word;
    } else line = next;
  }
  if (line) lines.push(line);
  return lines;
}

async function certificatePage(doc: PDFDocument, fonts: { regular: PDFFont; bold: PDFFont; script: PDFFont }, c: Certificate, contentSha256: string): Promise<void> {
  const width = 595.28;
  const height = 841.89;
  let page = doc.addPage([width, height]);
  let y = height - 60;
  const left = 50;
  const usable = width - 2 * left;
  const line = (text: string, opts: { bold?: boolean; size?: number; gap?: number } = {}) => {
    const size = opts.size ?? 10;
    const font = opts.bold ? fonts.bold : fonts.regular;
    for (const l of wrap(font, text, size, usable)) {
      if (y < 60) {
        page = doc.addPage([width, height]);
        y = height - 60;
      }
      page.drawText(l, { x: left, y, size, font, color: rgb(0.1, 0.1, 0.1) });
      y -= size * 1.4;
    }
    y -= opts.gap ?? 0;
  };
  line('Certificate of completion', { bold: true, size: 18, gap: 8 });
  line(`Document: ${c.documentName} (version ${c.version})`);
  line(`Request: ${c.requestId}`, { gap: 8 });
  line('Signer', { bold: true, size: 12 });
  line(`Name: ${c.signerName}`);
  line(`Phone: ${c.phoneNumber}`);
  if (c.customerRef) line(`Customer reference: ${c.customerRef}`);
  line(`IP address: ${c.ip ?? 'unknown'}`);
  line(`User agent: ${c.userAgent ?? 'unknown'}`, { gap: 8 });
  // each signature as the signer gave it, so the certificate shows what was signed with
  for (const sig of c.signatures) {
    const box = 48;
    if (y - box < 60) {
      page = doc.addPage([width, height]);
      y = height - 60;
    }
    line(`${sig.label}:`);
    if (sig.png) {
      const image = await doc.embedPng(sig.png);
      const scale = Math.min(220 / image.width, box / image.height);
      page.drawImage(image, { x: left, y: y - image.height * scale + 8, width: image.width * scale, height: image.height * scale });
      y -= box;
    } else if (sig.typed) {
      const text = winAnsi(sig.typed);
      page.drawText(text, { x: left, y: y - 14, size: fit(fonts.script, text, 260, 24), font: fonts.script, color: rgb(0.05, 0.1, 0.3) });
      y -= 30;
    }
  }
  y -= 8;
  line('Consent given', { bold: true, size: 12 });
  line(c.consentText, { gap: 8 });
  line('Events (UTC)', { bold: true, size: 12 });
  for (const e of c.events) line(`${e.time.replace('T', ' ').slice(0, 19)}  ${e.description}`);
  y -= 8;
  line('Integrity', { bold: true, size: 12 });
  line(`SHA-256 of the original document: ${c.originalSha256}`);
  line(`SHA-256 of the signed content (the document with the signer's values, before this certificate): ${contentSha256}`, { gap: 8 });
  line('Seal', { bold: true, size: 12 });
  for (const l of sealLines(c.seal)) line(l, { size: 9 });
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
export async function prepareSeal(original: Uint8Array, values: StampValue[], certificate: Certificate, sealedBy: string, signingTime: Date, limits: PdfLimits): Promise<PreparedSeal> {
  const doc = await loadWithin(original, limits, false);
  pagesOf(doc, { ...limits, maxPages: Number.MAX_SAFE_INTEGER });
  stripActiveContent(doc.context);
  await stamp(doc, values);
  doc.setModificationDate(signingTime);
  const content = await doc.save({ useObjectStreams: false });
  const contentSha256 = sha256(content);
  const sealed = await PDFDocument.load(content, { updateMetadata: false });
  const fonts = { regular: await sealed.embedFont(StandardFonts.Helvetica), bold: await sealed.embedFont(StandardFonts.HelveticaBold), script: await sealed.embedFont(StandardFonts.TimesRomanItalic) };
  await certificatePage(sealed, fonts, certificate, contentSha256);
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
  return { withPlaceholder: await sealed.save({ useObjectStreams: false }), contentSha256 };
}
