import type { Span, Tracer } from '@opentelemetry/api';

// OpenTelemetry traces (docs/operations.md), off unless OTEL_EXPORTER_OTLP_ENDPOINT is set: then
// spans go over OTLP/HTTP (JSON) to `${endpoint}/v1/traces`, sampled parent-based (an incoming
// traceparent's decision is kept; a new trace is sampled at OTEL_TRACES_SAMPLER_ARG, 10 % by
// default). Spans are made by hand where our own code knows what the work is: the request (its
// route template), named service and database work (`measured` in ./metrics.ts), each database
// round trip (our read lanes speak the protocol themselves, so no instrumentation sees them) and
// the calls to Twilio and Stripe. The SDK is loaded only when tracing is on.

export type TracingApi = typeof import('@opentelemetry/api');

/** The tracer and the API, or null when tracing is off (every call site pays one null check). */
export let tracing: { tracer: Tracer; api: TracingApi; flush: () => Promise<void> } | null = null;

export async function startTracing(options: { endpoint: string; ratio: number; serviceName?: string; delayMs?: number }): Promise<void> {
  const api = await import('@opentelemetry/api');
  const { BasicTracerProvider, BatchSpanProcessor, ParentBasedSampler, TraceIdRatioBasedSampler } = await import('@opentelemetry/sdk-trace-base');
  const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-http');
  const { AsyncLocalStorageContextManager } = await import('@opentelemetry/context-async-hooks');
  const { W3CTraceContextPropagator } = await import('@opentelemetry/core');
  const { resourceFromAttributes } = await import('@opentelemetry/resources');
  const exporter = new OTLPTraceExporter({ url: `${options.endpoint.replace(/\/$/, '')}/v1/traces` });
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': options.serviceName ?? 'switchboard' }),
    sampler: new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(options.ratio) }),
    spanProcessors: [new BatchSpanProcessor(exporter, { scheduledDelayMillis: options.delayMs ?? 2_000 })],
  });
  api.context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  api.propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  api.trace.setGlobalTracerProvider(provider);
  tracing = { tracer: api.trace.getTracer('switchboard'), api, flush: () => provider.forceFlush() };
}

/** Sends what is buffered and stops (a stopping process; tests). */
export async function stopTracing(): Promise<void> {
  const t = tracing;
  tracing = null;
  if (!t) return;
  await t.flush().catch(() => {});
  t.api.trace.disable();
  t.api.context.disable();
  t.api.propagation.disable();
}

/** fn inside a child span of the current (recording) one, named `name` (kind: internal, or client for a call out). */
export async function inSpan<T>(name: string, fn: (span: Span | null) => Promise<T>, client = false): Promise<T> {
  const t = tracing;
  // only inside a sampled trace (a request's): the 90 % of requests left unsampled, and work
  // outside any request, pay one lookup and no context switch
  if (!t || !t.api.trace.getActiveSpan()?.isRecording()) return fn(null);
  return t.tracer.startActiveSpan(name, { kind: client ? t.api.SpanKind.CLIENT : t.api.SpanKind.INTERNAL }, async (span) => {
    try {
      return await fn(span);
    } catch (err) {
      span.setStatus({ code: t.api.SpanStatusCode.ERROR, message: err instanceof Error ? err.name : 'error' });
      throw err;
    } finally {
      span.end();
    }
  });
}

/** The trace id of the current span when it is sampled (for the log line), else undefined. */
export function currentTraceId(): string | undefined {
  const t = tracing;
  if (!t) return undefined;
  const ctx = t.api.trace.getActiveSpan()?.spanContext();
  return ctx && ctx.traceFlags & 1 ? ctx.traceId : undefined;
}

type StripeResponseEvent = { method: string; path: string; status: number; request_start_time: number; request_end_time: number };

/**
 * A span for each Stripe call, from the client's own response events (stripe-node times each
 * request): named by method and path with Stripe's ids replaced, so names stay few.
 */
export function traceStripe(stripe: { on(event: 'response', fn: (e: StripeResponseEvent) => void): unknown }): void {
  stripe.on('response', (e) => {
    const t = tracing;
    if (!t) return;
    const path = e.path.split('?')[0]!.replace(/\/[a-z]+_[A-Za-z0-9]+/g, '/{id}');
    const span = t.tracer.startSpan(`stripe ${e.method} ${path}`, { kind: t.api.SpanKind.CLIENT, startTime: e.request_start_time, attributes: { 'http.response.status_code': e.status } });
    span.end(e.request_end_time);
  });
}
