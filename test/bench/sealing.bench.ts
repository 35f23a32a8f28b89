import { bench, describe } from 'vitest';
import { testConfig } from '../../api/config';
import type { Deps } from '../../api/deps';
import type { StampValue } from '../../api/apps/document-signature/pdf';
import { sealToPades } from '../../api/apps/document-signature/seal';
import { signingCertificate } from '../../api/apps/document-signature/signing-certificate';
import { makePdf } from '../support/pdfs';

// Sealing a 20-page document as the server does: in the PDF worker (a thread started for it) load
// the original with pdf-lib, stamp three values, append the certificate of completion; sign over
// the byte range (PAdES CAdES detached, RSA 2048); the DSS revision in a second worker. Heap growth
// of the server's thread per seal is printed once, for docs/benchmarks.md.

const original = await makePdf(20, 'Twenty-page agreement');
const cert = signingCertificate(testConfig());
const values: StampValue[] = [
  {
    field: { id: 'n', kind: 'fullName', page: 19, x: 0.1, y: 0.6, w: 0.4, h: 0.04, label: '', required: true },
    text: 'Ada Lovelace',
  },
  {
    field: { id: 'd', kind: 'dateSigned', page: 19, x: 0.6, y: 0.6, w: 0.3, h: 0.04, label: '', required: true },
    text: '2026-11-23',
  },
  {
    field: { id: 's', kind: 'signature', page: 19, x: 0.1, y: 0.7, w: 0.4, h: 0.07, label: '', required: true },
    text: 'Ada Lovelace',
  },
];
const certificate = {
  documentName: 'Twenty-page agreement',
  version: 1,
  requestId: 'bench',
  signerName: 'Ada Lovelace',
  phoneNumber: '+15551234567',
  customerRef: null,
  ip: '203.0.113.9',
  userAgent: 'bench',
  consentText: 'I agree.',
  locale: 'en' as const,
  timeZone: 'UTC',
  events: [{ time: new Date().toISOString(), description: 'Sent' }],
  originalSha256: 'x',
  signatures: [{ label: 'Signature', png: null, typed: 'Ada Lovelace' }],
};
const deps = { config: testConfig(), now: () => new Date() } as Deps;
const seal = () => sealToPades(deps, { original, values, certificate, signingTime: new Date(), signedAt: new Date() }, cert);

global.gc?.();
const before = process.memoryUsage().heapUsed;
const sealed = await seal();
console.log(
  `sealing a 20-page PDF (${original.length} bytes -> ${sealed.sealed.length} bytes): heap +${((process.memoryUsage().heapUsed - before) / 1024 / 1024).toFixed(1)} MB after one seal`,
);

describe('Document Signature sealing', () => {
  bench(
    'seal a 20-page PDF (stamp, certificate page, PAdES signature)',
    async () => {
      await seal();
    },
    { iterations: 10, warmupIterations: 2 },
  );
});
