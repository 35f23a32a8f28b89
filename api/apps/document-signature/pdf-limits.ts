import type { Config } from '../../config';
import { SIG_MAX_PAGES } from '../../contract/apps/document-signature';

// What reading one PDF may cost, what the PDF worker is asked and what it answers. This module has
// no pdf-lib in it: the server's own thread imports it, the worker (pdf-worker.ts) does the work.
//
// Operator settings (docs/signatures.md):
//   PDF_TIME_LIMIT_MS     one upload's reading and cleaning (default 10000); a seal gets 3 times it
//   PDF_MAX_OBJECTS       objects in one PDF (default 50000)
//   PDF_MEMORY_MB         the worker's JavaScript heap (default 384)
//   PDF_MAX_DECODED_MB    what one compressed stream may expand to while reading (default 64)
//   PDF_WORKERS           PDFs read at once (default 2); PDF_QUEUE more wait (default 8), then 503

export type PdfLimits = { timeMs: number; maxObjects: number; memoryMb: number; maxDecodedBytes: number; maxPages: number };

export const DEFAULT_PDF_LIMITS: PdfLimits = {
  timeMs: 10_000,
  maxObjects: 50_000,
  memoryMb: 384,
  maxDecodedBytes: 64 * 1024 * 1024,
  maxPages: SIG_MAX_PAGES,
};

/** A seal reads the document twice and writes it twice. */
export const SEAL_TIME_FACTOR = 3;

const positive = (raw: string | undefined, fallback: number, name: string): number => {
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a whole number above 0 (got ${JSON.stringify(raw)}).`);
  return n;
};

export function pdfLimits(config: Pick<Config, 'raw'>): PdfLimits {
  const e = config.raw;
  return {
    timeMs: positive(e.PDF_TIME_LIMIT_MS, DEFAULT_PDF_LIMITS.timeMs, 'PDF_TIME_LIMIT_MS'),
    maxObjects: positive(e.PDF_MAX_OBJECTS, DEFAULT_PDF_LIMITS.maxObjects, 'PDF_MAX_OBJECTS'),
    memoryMb: positive(e.PDF_MEMORY_MB, DEFAULT_PDF_LIMITS.memoryMb, 'PDF_MEMORY_MB'),
    maxDecodedBytes:
      positive(e.PDF_MAX_DECODED_MB, DEFAULT_PDF_LIMITS.maxDecodedBytes / 1024 / 1024, 'PDF_MAX_DECODED_MB') * 1024 * 1024,
    maxPages: SIG_MAX_PAGES,
  };
}

export function pdfConcurrency(config: Pick<Config, 'raw'>): { workers: number; queue: number } {
  return { workers: positive(config.raw.PDF_WORKERS, 2, 'PDF_WORKERS'), queue: positive(config.raw.PDF_QUEUE, 8, 'PDF_QUEUE') };
}

export type PdfProblem =
  | 'not-pdf'
  | 'encrypted'
  | 'unreadable'
  | 'empty'
  | 'too-many-pages'
  | 'too-many-objects'
  | 'too-slow'
  | 'too-much-memory'
  | 'expands-too-far';

const mb = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;
const count = (n: number) => n.toLocaleString('en-US');

export function pdfProblemMessage(problem: PdfProblem, limits: PdfLimits): string {
  switch (problem) {
    case 'not-pdf':
      return 'This file is not a PDF. Export the document as PDF and upload that.';
    case 'encrypted':
      return 'This PDF is encrypted (password-protected). Save a copy without a password and upload that.';
    case 'unreadable':
      return 'This PDF is damaged and cannot be read. Export it again and upload the new file.';
    case 'empty':
      return 'This PDF has no pages.';
    case 'too-many-pages':
      return `This PDF has more than ${limits.maxPages} pages. Split it, or upload the pages to be signed.`;
    case 'too-many-objects':
      return `This PDF is made of more than ${count(limits.maxObjects)} objects, more than a document for signature needs. Print it to a new PDF (or export it again) and upload that.`;
    case 'too-slow':
      return `Reading this PDF took longer than ${limits.timeMs / 1000} seconds, the most one document may take. Print it to a new PDF (or export it again) and upload that.`;
    case 'too-much-memory':
      return `Reading this PDF needs more than ${limits.memoryMb} MB of memory, the most one document may take. Print it to a new PDF (or export it again) and upload that.`;
    case 'expands-too-far':
      return `A compressed part of this PDF expands to more than ${mb(limits.maxDecodedBytes)}. Print it to a new PDF (or export it again) and upload that.`;
  }
}

/** The stable code an upload answers for each problem (all 400). */
export const PDF_PROBLEM_CODES: Record<PdfProblem, string> = {
  'not-pdf': 'NOT_A_PDF',
  encrypted: 'PDF_ENCRYPTED',
  unreadable: 'PDF_UNREADABLE',
  empty: 'PDF_UNREADABLE',
  'too-many-pages': 'PDF_TOO_MANY_PAGES',
  'too-many-objects': 'PDF_TOO_COMPLEX',
  'too-slow': 'PDF_TOO_COMPLEX',
  'too-much-memory': 'PDF_TOO_COMPLEX',
  'expands-too-far': 'PDF_TOO_COMPLEX',
};

export class PdfRefused extends Error {
  constructor(
    readonly problem: PdfProblem,
    limits: PdfLimits,
  ) {
    super(pdfProblemMessage(problem, limits));
  }
}
