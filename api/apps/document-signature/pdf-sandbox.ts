import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { ApiError } from '../../http/errors';
import { PdfRefused, type PdfLimits } from './pdf-limits';
import type { PdfJob, PdfTask, PdfTaskResult, PdfWorkerMessage } from './pdf-worker';

// Every parse of an uploaded PDF runs here: in a worker thread with a heap limit, a time limit per
// task (the thread is stopped when it passes it) and at most `workers` at once, `queue` more
// waiting. A file that passes a limit is refused with the limit it passed; the server's thread
// never parses a PDF. Threads are kept for the next task (starting one and loading pdf-lib costs
// more than reading a small PDF), each for at most TASKS_PER_WORKER tasks, and end when idle.

/** How long a worker may take to start and load pdf-lib (not part of the file's time). */
const START_LIMIT_MS = 30_000;
/** An idle worker ends after this; the next task starts a new one. */
const IDLE_MS = 15_000;
/** A worker ends after this many tasks: what one file left in its heap never builds up. */
const TASKS_PER_WORKER = 25;

let workerFile: Promise<string> | null = null;

/** esbuild's options for the worker, here and in build.mjs: everything it imports in one file. */
const PDF_WORKER_BUILD = { bundle: true, platform: 'node', format: 'esm', target: 'node20', logLevel: 'warning' } as const;

/**
 * The worker's script: dist/pdf-worker.mjs in the built server (beside server.mjs; this module
 * may sit in dist/server-chunks/). Run from the TypeScript sources (the tests), the worker is
 * bundled once per process with esbuild, a development dependency, into node_modules/.cache.
 */
function workerScript(): Promise<string> {
  workerFile ??= (async () => {
    for (const rel of ['./pdf-worker.mjs', '../pdf-worker.mjs']) {
      const candidate = fileURLToPath(new URL(rel, import.meta.url));
      if (fs.existsSync(candidate)) return candidate;
    }
    const source = fileURLToPath(new URL('./pdf-worker.ts', import.meta.url));
    if (!fs.existsSync(source)) throw new Error('dist/pdf-worker.mjs is missing: build the server with `node build.mjs`.');
    const root = fileURLToPath(new URL('../../../', import.meta.url));
    const esbuild = await import('esbuild');
    const built = await esbuild.build({ ...PDF_WORKER_BUILD, entryPoints: [source], write: false });
    const code = built.outputFiles[0]!.contents;
    const dir = path.join(root, 'node_modules/.cache/switchboard');
    const file = path.join(dir, `pdf-worker-${crypto.createHash('sha256').update(code).digest('hex').slice(0, 16)}.mjs`);
    if (!fs.existsSync(file)) {
      fs.mkdirSync(dir, { recursive: true });
      const temp = `${file}.${process.pid}.tmp`;
      fs.writeFileSync(temp, code);
      fs.renameSync(temp, file);
    }
    return file;
  })();
  workerFile.catch(() => (workerFile = null));
  return workerFile;
}

let running = 0;
const waiting: (() => void)[] = [];

async function slot(concurrency: { workers: number; queue: number }): Promise<() => void> {
  if (running >= concurrency.workers) {
    if (waiting.length >= concurrency.queue) {
      throw new ApiError(503, 'PDF_BUSY', 'Too many PDFs are being read right now. Try again in a few seconds.', undefined, {
        'Retry-After': '5',
      });
    }
    await new Promise<void>((resolve) => waiting.push(resolve));
  }
  running++;
  return () => {
    running--;
    waiting.shift()?.();
  };
}

type Pending = { id: number; resolve: (result: unknown) => void; reject: (err: Error) => void; limits: PdfLimits };

class PdfWorker {
  private readonly worker: Worker;
  readonly ready: Promise<void>;
  tasks = 0;
  dead = false;
  private pending: Pending | null = null;
  private idleTimer: NodeJS.Timeout | null = null;

  constructor(
    script: string,
    readonly memoryMb: number,
  ) {
    this.worker = new Worker(script, {
      resourceLimits: { maxOldGenerationSizeMb: memoryMb, maxYoungGenerationSizeMb: 32, stackSizeMb: 4 },
    });
    // an idle worker never keeps the process alive; a task's timer does while it runs
    this.worker.unref();
    let started: (() => void) | undefined;
    let failed: ((err: Error) => void) | undefined;
    this.ready = new Promise<void>((resolve, reject) => {
      started = resolve;
      failed = reject;
    });
    // whoever waits for it sees a failed start; nobody else needs to
    this.ready.catch(() => {});
    const startTimer = setTimeout(() => this.end(new Error('The PDF worker did not start.')), START_LIMIT_MS);
    this.worker.on('message', (m: PdfWorkerMessage) => {
      if (m.type === 'ready') {
        clearTimeout(startTimer);
        return started!();
      }
      const pending = this.pending;
      if (!pending || pending.id !== m.id) return;
      this.pending = null;
      if (m.type === 'done') pending.resolve(m.result);
      else if (m.type === 'refused') pending.reject(new PdfRefused(m.problem, pending.limits));
      else pending.reject(new Error(`Reading the PDF failed: ${m.message}`));
    });
    this.worker.on('error', (err: Error & { code?: string }) => {
      clearTimeout(startTimer);
      this.end(err.code === 'ERR_WORKER_OUT_OF_MEMORY' ? 'too-much-memory' : err);
      failed!(err);
    });
    this.worker.on('exit', (code) => {
      clearTimeout(startTimer);
      const err = new Error(`The PDF worker stopped (exit code ${code}).`);
      this.end(err);
      failed!(err);
    });
  }

  /** Stops the thread; a task it was running fails with `why`. */
  end(why: Error | 'too-much-memory' | 'too-slow') {
    this.dead = true;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    const pending = this.pending;
    this.pending = null;
    if (pending) pending.reject(typeof why === 'string' ? new PdfRefused(why, pending.limits) : why);
    void this.worker.terminate();
  }

  /** Taken from the idle list: its idle timer stops. */
  wake(): this {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    return this;
  }

  run(task: PdfTask, limits: PdfLimits): Promise<unknown> {
    this.tasks++;
    const id = this.tasks;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => this.end('too-slow'), limits.timeMs);
      const done = () => clearTimeout(timer);
      this.pending = { id, limits, resolve: (r) => (done(), resolve(r)), reject: (e) => (done(), reject(e)) };
      // the bytes are copied in, never transferred: the caller keeps its own
      this.worker.postMessage({ id, task, limits } satisfies PdfJob);
    });
  }

  /** Back to the idle list, or ended when it has done its share. */
  rest(idle: PdfWorker[]) {
    if (this.dead || this.tasks >= TASKS_PER_WORKER) return this.end(new Error('retired'));
    idle.push(this);
    this.idleTimer = setTimeout(() => {
      const at = idle.indexOf(this);
      if (at >= 0) idle.splice(at, 1);
      this.end(new Error('idle'));
    }, IDLE_MS);
    this.idleTimer.unref();
  }
}

const idle: PdfWorker[] = [];

/** Runs one task in a worker within the limits; a refusal rejects with PdfRefused. */
export async function runPdfTask<K extends PdfTask['kind']>(
  task: Extract<PdfTask, { kind: K }>,
  limits: PdfLimits,
  concurrency: { workers: number; queue: number },
): Promise<PdfTaskResult[K]> {
  const script = await workerScript();
  const release = await slot(concurrency);
  let worker: PdfWorker | undefined;
  try {
    const at = idle.findIndex((w) => !w.dead && w.memoryMb === limits.memoryMb);
    worker = at >= 0 ? idle.splice(at, 1)[0]!.wake() : new PdfWorker(script, limits.memoryMb);
    await worker.ready;
    return (await worker.run(task, limits)) as PdfTaskResult[K];
  } finally {
    worker?.rest(idle);
    release();
  }
}
