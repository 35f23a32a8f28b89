import type { Link, Span, Tracer } from '@opentelemetry/api';

// OpenTelemetry traces (docs/operations.md), off unless OTEL_EXPORTER_OTLP_ENDPOINT is set: then
// spans go over OTLP/HTTP (JSON) to `${endpoint}/v1/traces`, sampled parent-based (an incoming
// traceparent's decision is kept; a new trace is sampled at OTEL_TRACES_SAMPLER_ARG, 10 % by
// default). Spans are made by hand where our own code knows what the work is: the request (its
// route template), named service and database work (`measured` in ./metrics.ts), each database
// round trip (our read lanes speak the protocol themselves, so no instrumentation sees them),
// the calls to Twilio and Stripe, and job runs (linked to the requests that asked for them).
// The SDK is loaded only when tracing is on.
//
// A sampled request's trace rides on the request's own objects (a `Trace` on its database view,
// its deps and its transactions), never in an AsyncLocalStorage: on Node 20 the first
// AsyncLocalStorage.run turns on V8's promise hooks for the whole process, and from then on every
// promise of every request, the 90 % left unsampled included, pays for them (about 40 % of a
// bootstrap's CPU, test/bench/observability.mjs). An unsampled request makes no span and no
// context: one random number and a few null checks.

export type TracingApi = typeof import('@opentelemetry/api');

/**
 * One sampled request's (or job run's) trace: `current` is the span new work becomes a child of
 * (the request's, or the named work `measured` is inside). Work a request runs concurrently under
 * two names may put its round trips under either; they stay in the request's trace.
 */
export type Trace = { current: Span };

/** What a trace rides on: a database view, deps (by their db), a transaction. */
type Carrier = { trace?: Trace | null; db?: { trace?: Trace | null } } | null | undefined;

/** The tracer and the API, or null when tracing is off (every call site pays one null check). */
export let tracing: { tracer: Tracer; api: TracingApi; ratio: number; flush: () => Promise<void> } | null = null;

export async function startTracing(options: {
  endpoint: string;
  ratio: number;
  serviceName?: string;
  delayMs?: number;
}): Promise<void> {
  const api = await import('@opentelemetry/api');
  const { AlwaysOnSampler, BasicTracerProvider, BatchSpanProcessor, ParentBasedSampler } = await import(
    '@opentelemetry/sdk-trace-base'
  );
  const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-http');
  const { W3CTraceContextPropagator } = await import('@opentelemetry/core');
  const { resourceFromAttributes } = await import('@opentelemetry/resources');
  const exporter = new OTLPTraceExporter({ url: `${options.endpoint.replace(/\/$/, '')}/v1/traces` });
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': options.serviceName ?? 'switchboard' }),
    // the ratio is applied before any span is made (sampledRoot): a span is started only for a
    // trace already chosen, or under a caller's parent, whose decision stands
    sampler: new ParentBasedSampler({ root: new AlwaysOnSampler() }),
    spanProcessors: [new BatchSpanProcessor(exporter, { scheduledDelayMillis: options.delayMs ?? 2_000 })],
  });
  // no global context manager: context is passed by hand (see above)
  api.propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  api.trace.setGlobalTracerProvider(provider);
  tracing = { tracer: api.trace.getTracer('switchboard'), api, ratio: options.ratio, flush: () => provider.forceFlush() };
}

/** Sends what is buffered and stops (a stopping process; tests). */
export async function stopTracing(): Promise<void> {
  const t = tracing;
  tracing = null;
  if (!t) return;
  await t.flush().catch(() => {});
  t.api.trace.disable();
  t.api.propagation.disable();
}

/**
 * The trace of a request: a child of the caller's `traceparent` when it sent a sampled one (an
 * unsampled one: none); else a new trace for OTEL_TRACES_SAMPLER_ARG of requests. Null when not
 * traced, which is most requests: then nothing else is made.
 */
export function startRequestTrace(name: string, traceparent: string | undefined, tracestate: string | undefined): Trace | null {
  const t = tracing;
  if (!t) return null;
  let parent = t.api.ROOT_CONTEXT;
  if (traceparent !== undefined) {
    parent = t.api.propagation.extract(parent, { traceparent, tracestate });
    const remote = t.api.trace.getSpanContext(parent);
    if (remote && !(remote.traceFlags & 1)) return null;
    if (!remote && !(Math.random() < t.ratio)) return null;
  } else if (!(Math.random() < t.ratio)) return null;
  return { current: t.tracer.startSpan(name, { kind: t.api.SpanKind.SERVER }, parent) };
}

/**
 * The trace of a job run: sampled when a request that asked for it was (its span is then linked
 * to theirs, `links`: W3C traceparents) or, like a request, at OTEL_TRACES_SAMPLER_ARG.
 */
export function startJobTrace(name: string, links: readonly string[]): Trace | null {
  const t = tracing;
  if (!t) return null;
  const linked: Link[] = [];
  for (const header of links) {
    const context = t.api.trace.getSpanContext(t.api.propagation.extract(t.api.ROOT_CONTEXT, { traceparent: header }));
    if (context && context.traceFlags & 1) linked.push({ context });
  }
  if (!linked.length && !(Math.random() < t.ratio)) return null;
  return { current: t.tracer.startSpan(name, { kind: t.api.SpanKind.INTERNAL, links: linked }, t.api.ROOT_CONTEXT) };
}

/** The trace riding on a database view, deps or a transaction, if any. */
export function traceOf(carrier: Carrier | object): Trace | null {
  if (!tracing || !carrier) return null;
  const c = carrier as Exclude<Carrier, null | undefined>;
  return c.trace ?? c.db?.trace ?? bound.get(carrier) ?? null;
}

// transactions (Kysely's one-connection objects) of traced requests: they carry no field of ours
const bound = new WeakMap<object, Trace>();

/** Marks a transaction as one of `trace`'s (api/db/index.ts). */
export function bindTrace(transaction: object, trace: Trace): void {
  bound.set(transaction, trace);
}

/** A W3C traceparent naming the current span of `trace` (kept with enqueued work, to link to it). */
export function traceparentOf(trace: Trace | null): string | null {
  if (!trace) return null;
  const ctx = trace.current.spanContext();
  return `00-${ctx.traceId}-${ctx.spanId}-0${ctx.traceFlags & 1}`;
}

/**
 * fn inside a child span of `trace`'s current one, named `name` (kind: internal, or client for a
 * call out); while it runs, the child is the current span. Without a trace, just fn.
 */
export async function inTrace<T>(
  trace: Trace | null,
  name: string,
  fn: (span: Span | null) => Promise<T>,
  client = false,
): Promise<T> {
  const t = tracing;
  if (!t || !trace) return fn(null);
  const parent = trace.current;
  const span = t.tracer.startSpan(
    name,
    { kind: client ? t.api.SpanKind.CLIENT : t.api.SpanKind.INTERNAL },
    t.api.trace.setSpan(t.api.ROOT_CONTEXT, parent),
  );
  trace.current = span;
  try {
    return await fn(span);
  } catch (err) {
    span.setStatus({ code: t.api.SpanStatusCode.ERROR, message: err instanceof Error ? err.name : 'error' });
    throw err;
  } finally {
    if (trace.current === span) trace.current = parent;
    span.end();
  }
}

/** fn inside a child span of the trace riding on `carrier` (see inTrace). */
export function inSpan<T>(
  carrier: Carrier | object,
  name: string,
  fn: (span: Span | null) => Promise<T>,
  client = false,
): Promise<T> {
  return inTrace(traceOf(carrier), name, fn, client);
}

/** The trace id of a sampled trace (for the log line), else undefined. */
export function traceIdOf(trace: Trace | null): string | undefined {
  return trace?.current.spanContext().traceId;
}

type StripeResponseEvent = { method: string; path: string; status: number; request_start_time: number; request_end_time: number };

/**
 * A span for each Stripe call, from the client's own response events (stripe-node times each
 * request): named by method and path with Stripe's ids replaced, so names stay few. The events
 * carry no request, so each call is a trace of its own, sampled at the ratio.
 */
export function traceStripe(stripe: { on(event: 'response', fn: (e: StripeResponseEvent) => void): unknown }): void {
  stripe.on('response', (e) => {
    const t = tracing;
    if (!t || !(Math.random() < t.ratio)) return;
    const path = e.path.split('?')[0]!.replace(/\/[a-z]+_[A-Za-z0-9]+/g, '/{id}');
    const span = t.tracer.startSpan(
      `stripe ${e.method} ${path}`,
      { kind: t.api.SpanKind.CLIENT, startTime: e.request_start_time, attributes: { 'http.response.status_code': e.status } },
      t.api.ROOT_CONTEXT,
    );
    span.end(e.request_end_time);
  });
}
