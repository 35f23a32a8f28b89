import crypto from 'node:crypto';
import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage } from 'pdf-lib';
import { pdflibAddPlaceholder } from '@signpdf/placeholder-pdf-lib';
import { SignPdf } from '@signpdf/signpdf';
import { Signer, SUBFILTER_ETSI_CADES_DETACHED } from '@signpdf/utils';
import type { SigField } from '../../contract/apps/document-signature';
import type { SigningCertificate } from './signing-certificate';
import { cadesDetached, type Timestamper } from './pades/cades';

// The PDF work of Document Signature, on the server only: reading an upload, stamping the
// customer's values into the original, the certificate of completion, and the PAdES baseline
// signature over the byte range (what PDF readers show as "signed, unchanged since").

export type PdfInfo = { pageCount: number; pages: { width: number; height: number }[] };
export type PdfProblem = 'not-pdf' | 'encrypted' | 'unreadable' | 'empty';

export const PDF_PROBLEM_MESSAGES: Record<PdfProblem, string> = {
  'not-pdf': 'This file is not a PDF. Export the document as PDF and upload that.',
  encrypted: 'This PDF is encrypted (password-protected). Save a copy without a password and upload that.',
  unreadable: 'This PDF is damaged and cannot be read. Export it again and upload the new file.',
  empty: 'This PDF has no pages.',
};

export class PdfRefused extends Error {
  constructor(readonly problem: PdfProblem) {
    super(PDF_PROBLEM_MESSAGES[problem]);
  }
}

export const sha256 = (bytes: Uint8Array) => crypto.createHash('sha256').update(bytes).digest('hex');

/** Reads an upload: its pages and their sizes, or which of the refusals applies. */
export async function inspectPdf(bytes: Uint8Array): Promise<PdfInfo> {
  const head = Buffer.from(bytes.subarray(0, 1024)).toString('latin1');
  if (!head.includes('%PDF-')) throw new PdfRefused('not-pdf');
  // an /Encrypt entry in a trailer is how a PDF says its content needs a key
  const tail = Buffer.from(bytes).toString('latin1');
  if (/\/Encrypt\s*(\d+\s+\d+\s+R|<<)/.test(tail)) throw new PdfRefused('encrypted');
  let doc: PDFDocument;
  try {
    doc = await PDFDocument.load(bytes, { updateMetadata: false, throwOnInvalidObject: true });
  } catch (err) {
    if (err instanceof Error && /encrypt/i.test(err.message)) throw new PdfRefused('encrypted');
    throw new PdfRefused('unreadable');
  }
  if (doc.isEncrypted) throw new PdfRefused('encrypted');
  let pages: PDFPage[];
  try {
    pages = doc.getPages();
  } catch {
    throw new PdfRefused('unreadable');
  }
  if (!pages.length) throw new PdfRefused('empty');
  return { pageCount: pages.length, pages: pages.map((p) => ({ width: round(p.getWidth()), height: round(p.getHeight()) })) };
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

/** @signpdf hands us the bytes of the byte range; we answer with the CAdES signature. */
class CadesSigner extends Signer {
  constructor(
    private readonly cert: SigningCertificate,
    private readonly timestamper: Timestamper | undefined,
  ) {
    super();
  }
  override async sign(content: Buffer): Promise<Buffer> {
    return cadesDetached(content, this.cert.signer, this.timestamper);
  }
}

// room for the CMS: the chain, and a timestamp token with the TSA's own chain
const SIGNATURE_BYTES = 24_576;

export type SealResult = { sealed: Buffer; contentSha256: string };

/**
 * Stamps the values into the original, appends the certificate of completion and signs the
 * whole. Always starts from the original bytes, so sealing again never stamps twice.
 */
export async function sealPdf(original: Uint8Array, values: StampValue[], certificate: Certificate, cert: SigningCertificate, signingTime: Date, timestamper?: Timestamper): Promise<SealResult> {
  const doc = await PDFDocument.load(original, { updateMetadata: false });
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
    name: winAnsi(cert.subject),
    location: 'Switchboard',
    signingTime,
    signatureLength: SIGNATURE_BYTES,
    subFilter: SUBFILTER_ETSI_CADES_DETACHED,
  });
  const withPlaceholder = Buffer.from(await sealed.save({ useObjectStreams: false }));
  const signed = await new SignPdf().sign(withPlaceholder, new CadesSigner(cert, timestamper), signingTime);
  return { sealed: signed, contentSha256 };
}
