import type { DestinationStream, Logger } from 'pino';

// One JSON line per request and per job run (docs/operations.md), through pino. What goes in is
// chosen field by field at the call sites (api/observability/http.ts, api/jobs/runner.ts): times,
// ids, route templates, statuses, never a URL with its query string, a header value or a body.

export type { Logger };

/** This process's request and job log, or null when none is kept (API tests, LOG_LEVEL=silent). */
export let logger: Logger | null = null;

/** Where the request lines go, and whether info lines are kept (null: none). */
let requestSink: DestinationStream | null = null;
const PID = `,"pid":${process.pid}`;

/**
 * The request's line, built here with its fixed fields rather than through pino's generic
 * serializer (it runs once per answer), and written to the same destination: the same JSON line
 * pino would write, fields in pino's order.
 */
export function logRequest(
  requestId: string,
  traceId: string | undefined,
  method: string,
  route: string,
  status: number,
  durationMs: number,
  accountId: string | undefined,
): void {
  const sink = requestSink;
  if (!sink) return;
  sink.write(
    `{"level":"info","time":"${new Date().toISOString()}"${PID},"requestId":${JSON.stringify(requestId)}${traceId === undefined ? '' : `,"traceId":"${traceId}"`},"method":"${method}","route":${JSON.stringify(route)},"status":${status},"durationMs":${durationMs}${accountId === undefined ? '' : `,"accountId":${JSON.stringify(accountId)}`},"msg":"request"}\n`,
  );
}

// pino loads only when the log is kept (startLogging).
async function createLogger(level: string, destination?: DestinationStream): Promise<Logger> {
  const { default: pino } = await import('pino');
  // asynchronous writes: a request never waits for stdout; flushed on the way out (stopLogging)
  const dest = destination ?? pino.destination({ dest: 1, sync: false });
  const log = pino(
    {
      level,
      base: { pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    dest,
  );
  requestSink = log.isLevelEnabled('info') ? dest : null;
  return log;
}

/** Starts the log at `level`; 'silent' keeps none. */
export async function startLogging(level: string, destination?: DestinationStream): Promise<Logger | null> {
  requestSink = null;
  logger = level === 'silent' ? null : await createLogger(level, destination);
  return logger;
}

/** Writes out what is buffered and stops the log (a stopping process; tests). */
export async function stopLogging(): Promise<void> {
  const log = logger;
  logger = null;
  requestSink = null;
  if (!log) return;
  // stdout already gone (or never answering): nothing left to say it to, and no reason to wait
  await Promise.race([
    new Promise<void>((resolve) => log.flush(() => resolve())),
    new Promise((resolve) => setTimeout(resolve, 1_000)),
  ]).catch(() => {});
}
