import { parentPort } from 'node:worker_threads';
import { decodePDFRawStream, PDFContext, PDFRawStream } from 'pdf-lib';
import { PdfRefused, type PdfLimits, type PdfProblem } from './pdf-limits';
import { inspectPdf, prepareSeal, type Certificate, type InspectedPdf, type PreparedSeal, type StampValue } from './pdf';
import { appendDss, appendLtv, type ValidationData } from './pades/dss';

// A PDF worker thread (pdf-sandbox.ts keeps a few, each with a heap limit, and stops one that
// passes a task's time limit), so a hostile file costs a thread of its own, never the server's
// event loop or memory. It says 'ready' once pdf-lib is loaded, then answers tasks one at a time.
// It is bundled with everything it imports (build.mjs): one file loads in half the time of
// pdf-lib's few hundred.

export type PdfTask =
  | { kind: 'inspect'; bytes: Uint8Array }
  | {
      kind: 'prepare-seal';
      original: Uint8Array;
      values: StampValue[];
      certificate: Certificate;
      sealedBy: string;
      signingTime: Date;
    }
  | { kind: 'append-dss'; pdf: Uint8Array; data: ValidationData }
  | { kind: 'append-ltv'; pdf: Uint8Array; data: ValidationData };

export type PdfTaskResult = {
  inspect: InspectedPdf;
  'prepare-seal': PreparedSeal;
  'append-dss': Uint8Array;
  'append-ltv': Uint8Array;
};

type PdfWorkerAnswer =
  | { type: 'done'; result: PdfTaskResult[PdfTask['kind']] }
  | { type: 'refused'; problem: PdfProblem }
  | { type: 'failed'; message: string };

export type PdfWorkerMessage = { type: 'ready' } | ({ id: number } & PdfWorkerAnswer);

class ExpandsTooFar extends Error {}

let decodeLimit = Infinity;
let expanded = false;

/**
 * pdf-lib inflates an object or xref stream while it parses, into a buffer it doubles as it
 * grows: a few KB of deflated zeros asks for gigabytes, outside the heap limit. Growth past the
 * task's limit throws (and is remembered, in case the parser swallows the error and goes on).
 */
type Growable = { ensureBuffer(requested: number): Uint8Array };
// every filter's stream class extends pdf-lib's DecodeStream, which pdf-lib does not export:
// reached through an ASCIIHex stream made on the spot
const probe = decodePDFRawStream(PDFRawStream.of(PDFContext.create().obj({ Filter: 'ASCIIHexDecode' }), new Uint8Array()));
const proto = Object.getPrototypeOf(Object.getPrototypeOf(probe)) as Growable;
if (typeof proto.ensureBuffer !== 'function')
  throw new Error("pdf-lib's DecodeStream has no ensureBuffer: the decoding limit cannot be set.");
const grow = proto.ensureBuffer;
proto.ensureBuffer = function (requested: number) {
  if (requested > decodeLimit) {
    expanded = true;
    throw new ExpandsTooFar(`A stream expands past ${decodeLimit} bytes`);
  }
  return grow.call(this, requested);
};

async function run(task: PdfTask, limits: PdfLimits): Promise<PdfTaskResult[PdfTask['kind']]> {
  if (task.kind === 'inspect') return inspectPdf(task.bytes, limits);
  if (task.kind === 'prepare-seal')
    return prepareSeal(task.original, task.values, task.certificate, task.sealedBy, task.signingTime, limits);
  const pdf = Buffer.from(task.pdf.buffer, task.pdf.byteOffset, task.pdf.byteLength);
  return task.kind === 'append-ltv' ? appendLtv(pdf, task.data) : appendDss(pdf, task.data);
}

function transferables(result: PdfTaskResult[PdfTask['kind']]): ArrayBuffer[] {
  const bytes = result instanceof Uint8Array ? result : 'cleaned' in result ? result.cleaned : result.withPlaceholder;
  // a Buffer may be a view on Node's shared pool: only a buffer of its own is handed over
  return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer
    ? [bytes.buffer]
    : [];
}

export type PdfJob = { id: number; task: PdfTask; limits: PdfLimits };

const port = parentPort;
if (port) {
  const answer = (id: number, m: PdfWorkerAnswer, transfer: ArrayBuffer[] = []) =>
    port.postMessage({ id, ...m } satisfies PdfWorkerMessage, transfer);
  port.on('message', ({ id, task, limits }: PdfJob) => {
    decodeLimit = limits.maxDecodedBytes;
    expanded = false;
    run(task, limits).then(
      (result) =>
        expanded
          ? answer(id, { type: 'refused', problem: 'expands-too-far' })
          : answer(id, { type: 'done', result }, transferables(result)),
      (err: unknown) => {
        if (expanded || err instanceof ExpandsTooFar) return answer(id, { type: 'refused', problem: 'expands-too-far' });
        if (err instanceof PdfRefused) return answer(id, { type: 'refused', problem: err.problem });
        answer(id, { type: 'failed', message: err instanceof Error ? err.message : String(err) });
      },
    );
  });
  // pdf-lib is loaded (static imports) before any task's clock starts
  port.postMessage({ type: 'ready' } satisfies PdfWorkerMessage);
}
