import crypto from 'node:crypto';
import { sql } from 'kysely';
import type { Deps } from '../deps';
import { logger } from '../observability/logger';
import { measured, metrics } from '../observability/metrics';
import { startJobTrace, traceOf, traceparentOf, tracing } from '../observability/tracing';

// Periodic jobs kept in the database (table `jobs`), never in an in-memory timer a restart
// forgets. Each job has one row; a worker leases it when due with `for update skip locked`, so
// among any number of server processes exactly one runs it, and a run that dies with its
// process is taken again once its lease expires. The job's own work must be safe to repeat
// (every job here is: it reads state and moves it forward).

export type Job = {
  name: string;
  intervalSeconds: number;
  run: (deps: Deps, now: Date) => Promise<void>;
};

export type RunnerOptions = {
  /** the jobs' rows exist already (the runner registers them once, when it starts) */
  registered?: boolean;
  /** names this worker in the table (locked_by) */
  workerId?: string;
  /** how long a run may take before another worker may take the job again */
  leaseMs?: number;
  /** wait before a failed run is tried again (capped at the job's interval) */
  retryMs?: number;
};

const DEFAULT_LEASE_MS = 10 * 60_000;
const DEFAULT_RETRY_MS = 60_000;
export const DEFAULT_POLL_MS = 30_000;

/** The jobs' rows, made or their intervals updated: one statement, rows taken in name order. */
async function register(deps: Deps, jobs: readonly Job[], now: Date): Promise<void> {
  const sorted = [...jobs].sort((a, b) => (a.name < b.name ? -1 : 1));
  await deps.db.system((trx) =>
    sql`insert into jobs (name, interval_seconds, next_run_at)
      select name, interval_seconds, ${now} from unnest(${sorted.map((j) => j.name)}::text[], ${sorted.map((j) => j.intervalSeconds)}::int[]) as j(name, interval_seconds)
      on conflict (name) do update set interval_seconds = excluded.interval_seconds
        where jobs.interval_seconds <> excluded.interval_seconds`.execute(trx),
  );
}

/** The job leased for this worker, with the traceparents of the requests that asked for it; null when not due or taken. */
async function lease(deps: Deps, job: Job, now: Date, workerId: string, leaseMs: number): Promise<string[] | null> {
  return deps.db.system((trx) =>
    measured(trx, 'jobs.lease', async () => {
      const due = await sql<{
        name: string;
        next_run_at: Date;
        trace_links: string[] | null;
      }>`select name, next_run_at, trace_links from jobs
      where name = ${job.name} and next_run_at <= ${now} and (locked_until is null or locked_until <= ${now})
      for update skip locked`.execute(trx);
      if (!due.rows.length) return null;
      metrics?.jobLag.observe(
        { job: job.name },
        Math.max(0, now.getTime() - new Date(due.rows[0]!.next_run_at).getTime()) / 1000,
      );
      await sql`update jobs set locked_until = ${new Date(now.getTime() + leaseMs)}, locked_by = ${workerId}, last_started_at = ${now}, trace_links = null
      where name = ${job.name}`.execute(trx);
      return due.rows[0]!.trace_links ?? [];
    }),
  );
}

/**
 * Asks `job` to run at the next poll. A traced request (its deps carry the trace) keeps its
 * traceparent with the job's row, so the run's span links to the request's (at most 32, newest first).
 */
export async function runSoon(deps: Pick<Deps, 'db' | 'now'>, job: string): Promise<void> {
  const now = deps.now();
  const link = traceparentOf(traceOf(deps));
  await deps.db.system((trx) =>
    link
      ? sql`update jobs set next_run_at = least(next_run_at, ${now}), trace_links = (array[${link}::text] || coalesce(trace_links, '{}'))[1:32] where name = ${job}`.execute(
          trx,
        )
      : sql`update jobs set next_run_at = ${now} where name = ${job} and next_run_at > ${now}`.execute(trx),
  );
}

/** A job run's log line and counter: its name and outcome, never what it worked on. */
function jobRan(job: string, outcome: 'ok' | 'failed', started: number, traceId?: string): void {
  metrics?.jobRuns.inc({ job, outcome });
  logger?.[outcome === 'ok' ? 'info' : 'warn'](
    { job, outcome, traceId, durationMs: Math.round((performance.now() - started) * 10) / 10 },
    'job run',
  );
}

/** Runs every due job this worker can lease; answers the names it ran. */
export async function runDueJobs(deps: Deps, jobs: readonly Job[], options: RunnerOptions = {}): Promise<string[]> {
  const workerId = options.workerId ?? `${process.pid}-${crypto.randomBytes(4).toString('hex')}`;
  const now = deps.now();
  if (!options.registered) await register(deps, jobs, now);
  const ran: string[] = [];
  for (const job of jobs) {
    const links = await lease(deps, job, now, workerId, options.leaseMs ?? DEFAULT_LEASE_MS);
    if (!links) continue;
    const started = performance.now();
    // the run is a trace of its own, linked to the traced requests that asked for it
    const trace = startJobTrace(`job ${job.name}`, links);
    const span = trace?.current;
    span?.setAttribute('switchboard.job', job.name);
    const traceId = span?.spanContext().traceId;
    try {
      await job.run(trace ? { ...deps, db: deps.db.traced(trace) } : deps, now);
      await deps.db.system((trx) =>
        measured(trx, 'jobs.finish', () =>
          sql`update jobs set next_run_at = ${new Date(now.getTime() + job.intervalSeconds * 1000)}, locked_until = null, locked_by = null,
          last_finished_at = ${deps.now()}, last_error = null, runs = runs + 1, last_run_by = ${workerId}
          where name = ${job.name} and locked_by = ${workerId}`.execute(trx),
        ),
      );
      ran.push(job.name);
      jobRan(job.name, 'ok', started, traceId);
    } catch (err) {
      jobRan(job.name, 'failed', started, traceId);
      if (span && tracing)
        span.setStatus({ code: tracing.api.SpanStatusCode.ERROR, message: err instanceof Error ? err.name : 'error' });
      deps.log(`Job ${job.name} failed`, err);
      const retry = Math.min(options.retryMs ?? DEFAULT_RETRY_MS, job.intervalSeconds * 1000);
      await deps.db.system((trx) =>
        sql`update jobs set next_run_at = ${new Date(now.getTime() + retry)}, locked_until = null, locked_by = null,
          last_error = ${String(err instanceof Error ? err.message : err).slice(0, 500)}
          where name = ${job.name} and locked_by = ${workerId}`.execute(trx),
      );
    } finally {
      span?.end();
    }
  }
  return ran;
}

/**
 * Looks for due jobs every `pollMs` (JOB_POLL_MS) until stopped: a job runs at most that long
 * after it is due. Any number of processes may poll: the lease decides which one runs a due job.
 * stop() waits for a run in progress.
 */
export function startJobRunner(deps: Deps, jobs: readonly Job[], pollMs = DEFAULT_POLL_MS): { stop: () => Promise<void> } {
  let stopped = false;
  let current: Promise<unknown> = Promise.resolve();
  let registered = false;
  const tick = () => {
    if (stopped) return;
    current = runDueJobs(deps, jobs, { registered })
      .then(() => void (registered = true))
      .catch((err) => deps.log('Job runner failed', err))
      .finally(() => {
        if (!stopped) timer = setTimeout(tick, pollMs);
      });
  };
  let timer = setTimeout(tick, Math.min(1_000, pollMs));
  return {
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await current;
    },
  };
}
