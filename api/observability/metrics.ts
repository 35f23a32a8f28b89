import cluster from 'node:cluster';
import type * as PromClient from 'prom-client';
import { inTrace, traceOf, type Trace } from './tracing';

// Prometheus metrics (docs/operations.md). Off unless METRICS_PORT is set: `metrics` is null and
// every call site pays one null check. Labels are bounded by construction: route templates from
// the router, methods from a fixed list, statement and job names the code gives, outcome and
// reason codes from fixed sets; never ids, phone numbers or account names.

const PREFIX = 'switchboard_';
const DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export type PoolStats = { total: number; idle: number; waiting: number };

/**
 * One child of a duration histogram (the request histogram's (route, method, status), the
 * statement histogram's (statement, outcome)), kept by hand: prom-client's observe hashes the
 * label set (keys sorted, joined) on every call, a cached child's included, and these run once
 * per answer and per statement. Buckets are counted apart and summed up at the scrape.
 */
class DurationCounts {
  readonly buckets = new Float64Array(DURATION_BUCKETS.length);
  sum = 0;
  count = 0;
  constructor(readonly labels: Record<string, string>) {}
  observe(seconds: number): void {
    this.sum += seconds;
    this.count++;
    for (let i = 0; i < DURATION_BUCKETS.length; i++) {
      if (seconds <= DURATION_BUCKETS[i]!) {
        this.buckets[i]!++;
        return;
      }
    }
  }
}

/**
 * A hand-kept duration histogram as prom-client's registry reads a metric (get(), as its own Histogram
 * answers it, so the text and the WORKERS > 1 aggregation are the same as a prom-client
 * Histogram's): cumulative buckets, +Inf, sum and count per child.
 */
function durationHistogram(name: string, help: string, children: Map<string, DurationCounts>) {
  return {
    name,
    help,
    type: 'histogram',
    aggregator: 'sum',
    reset() {
      children.clear();
    },
    async get() {
      const values: { labels: Record<string, string | number>; value: number; metricName: string }[] = [];
      for (const child of children.values()) {
        let acc = 0;
        for (let i = 0; i < DURATION_BUCKETS.length; i++) {
          acc += child.buckets[i]!;
          values.push({ labels: { ...child.labels, le: DURATION_BUCKETS[i]! }, value: acc, metricName: `${name}_bucket` });
        }
        values.push({ labels: { ...child.labels, le: '+Inf' }, value: child.count, metricName: `${name}_bucket` });
        values.push({ labels: { ...child.labels }, value: child.sum, metricName: `${name}_sum` });
        values.push({ labels: { ...child.labels }, value: child.count, metricName: `${name}_count` });
      }
      return { name, help, type: 'histogram', values, aggregator: 'sum' };
    },
  };
}

// prom-client loads only when metrics are on (enableMetrics): most starts never need it.
export function createMetrics(client: typeof PromClient) {
  const registry = new client.Registry();
  const registers = [registry];
  const pools = new Set<() => PoolStats>();
  // A histogram's child per label set, kept: prom-client's observe(labels, v) hashes the labels
  // (keys sorted, joined) on every call; the sets are bounded (see above), so the map is too.
  const httpChildren = new Map<string, DurationCounts>();
  const statementChildren = new Map<string, DurationCounts>();
  const openStreams = new Set<() => number>();
  const m = {
    registry,
    poolWait: new client.Histogram({
      name: `${PREFIX}db_pool_wait_seconds`,
      help: 'Time a checkout waited for a pooled database connection',
      buckets: DURATION_BUCKETS,
      registers,
    }),
    liveEvents: new client.Counter({
      name: `${PREFIX}live_events_sent_total`,
      help: 'Live-update events written to open streams',
      registers,
    }),
    jobRuns: new client.Counter({
      name: `${PREFIX}job_runs_total`,
      help: 'Periodic job runs by job and outcome',
      labelNames: ['job', 'outcome'] as const,
      registers,
    }),
    jobLag: new client.Histogram({
      name: `${PREFIX}job_lag_seconds`,
      help: 'How late a periodic job started against its due time',
      labelNames: ['job'] as const,
      buckets: [0.1, 0.5, 1, 5, 15, 30, 60, 300, 900, 3600],
      registers,
    }),
    webhookDeliveries: new client.Counter({
      name: `${PREFIX}webhook_deliveries_total`,
      help: 'Webhook delivery attempts by outcome',
      labelNames: ['outcome'] as const,
      registers,
    }),
    sms: new client.Counter({
      name: `${PREFIX}sms_total`,
      help: 'SMS by outcome (sent, held, refused) and reason',
      labelNames: ['outcome', 'reason'] as const,
      registers,
    }),
    creditRefusals: new client.Counter({
      name: `${PREFIX}credit_reservations_refused_total`,
      help: 'Credit reservations refused, by reason',
      labelNames: ['reason'] as const,
      registers,
    }),
    /** the request histogram's child for one route template, method and status */
    httpRequest(route: string, method: string, status: number): DurationCounts {
      const key = `${status} ${method} ${route}`;
      let child = httpChildren.get(key);
      if (!child) httpChildren.set(key, (child = new DurationCounts({ route, method, status: String(status) })));
      return child;
    },
    /** the statement histogram's child for one name and outcome */
    statement(statement: string, outcome: 'ok' | 'error'): DurationCounts {
      const key = `${outcome} ${statement}`;
      let child = statementChildren.get(key);
      if (!child) statementChildren.set(key, (child = new DurationCounts({ statement, outcome })));
      return child;
    },
    /** a database pool whose connections the scrape reports */
    addPool(stats: () => PoolStats): () => void {
      pools.add(stats);
      return () => pools.delete(stats);
    },
    /** a live hub whose open streams the scrape counts */
    addStreams(count: () => number): () => void {
      openStreams.add(count);
      return () => openStreams.delete(count);
    },
  };
  registry.registerMetric(
    durationHistogram(
      `${PREFIX}http_request_duration_seconds`,
      'HTTP requests by route template, method and status: time to the answer',
      httpChildren,
    ) as unknown as PromClient.Metric,
  );
  registry.registerMetric(
    durationHistogram(
      `${PREFIX}db_statement_duration_seconds`,
      'Database work by the name its call site gives it',
      statementChildren,
    ) as unknown as PromClient.Metric,
  );
  new client.Gauge({
    name: `${PREFIX}db_pool_connections`,
    help: 'Pooled database connections by state (total, idle, and checkouts waiting for one)',
    labelNames: ['state'] as const,
    registers,
    collect() {
      const sum = { total: 0, idle: 0, waiting: 0 };
      for (const stats of pools) {
        const s = stats();
        sum.total += s.total;
        sum.idle += s.idle;
        sum.waiting += s.waiting;
      }
      this.set({ state: 'total' }, sum.total);
      this.set({ state: 'idle' }, sum.idle);
      this.set({ state: 'waiting' }, sum.waiting);
    },
  });
  new client.Gauge({
    name: `${PREFIX}live_streams_open`,
    help: 'Open live-update streams',
    registers,
    collect() {
      let n = 0;
      for (const count of openStreams) n += count();
      this.set(n);
    },
  });
  client.collectDefaultMetrics({ register: registry, prefix: PREFIX });
  // gauges that prom-client names *_total, which Prometheus reserves for counters (promtool
  // refuses them); the handle and request counts say little that the event loop lag does not
  for (const name of ['nodejs_active_handles_total', 'nodejs_active_requests_total', 'nodejs_active_resources_total'])
    registry.removeSingleMetric(PREFIX + name);
  // With WORKERS > 1 the primary asks each worker for this registry (AggregatorRegistry); a
  // worker answers once an AggregatorRegistry exists in it (its constructor adds the listener).
  client.AggregatorRegistry.setRegistries([registry]);
  if (cluster.isWorker) new client.AggregatorRegistry();
  return m;
}

export type Metrics = ReturnType<typeof createMetrics>;

/** This process's metrics, or null when they are off. */
export let metrics: Metrics | null = null;

export async function enableMetrics(): Promise<Metrics> {
  if (metrics) return metrics;
  const { default: client } = await import('prom-client');
  return (metrics ??= createMetrics(client));
}

/** Turns metrics off again (tests). */
export function disableMetrics(): void {
  metrics?.registry.clear();
  metrics = null;
}

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
export const methodLabel = (method: string): string => (METHODS.has(method) ? method : 'other');

/**
 * fn, timed under `name` when metrics are on, and a span of the trace riding on `carrier` (the
 * request's deps, database view or transaction) when the request is traced. The name is the call
 * site's own fixed words, never the statement's text or values.
 */
export async function measured<T>(carrier: object | null | undefined, name: string, fn: () => Promise<T>): Promise<T> {
  const trace = traceOf(carrier);
  if (trace) return inTrace(trace, name, () => timed(name, fn));
  return timed(name, fn);
}

async function timed<T>(name: string, fn: () => Promise<T>): Promise<T> {
  const m = metrics;
  if (!m) return fn();
  const started = performance.now();
  let outcome: 'ok' | 'error' = 'error';
  try {
    const result = await fn();
    outcome = 'ok';
    return result;
  } finally {
    m.statement(name, outcome).observe((performance.now() - started) / 1000);
  }
}

export type { Trace };
