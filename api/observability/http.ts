import type { Context, MiddlewareHandler } from 'hono';
import { matchedRoutes } from 'hono/route';
import { requestHeader } from '../http/request-header';
import { logger, logRequest } from './logger';
import { methodLabel, metrics } from './metrics';
import { REQUEST_ID_HEADER, requestIdFrom } from './request-id';
import { startRequestTrace, tracing, type Trace } from './tracing';

/** The route template that answered (`/api/admins/:id`), never the path with its values. */
function routeTemplate(c: Context): string {
  return matchedRoutes(c)[c.req.routeIndex]?.path ?? '*';
}

/**
 * The first middleware of every answer: gives the request its id (the caller's X-Request-Id when
 * acceptable, else a new one) and returns it on the answer, then records the answer in the
 * metrics and as one log line.
 */
export function observeRequests(): MiddlewareHandler {
  return async (c, next) => {
    const started = performance.now();
    const id = requestIdFrom(requestHeader(c, 'x-request-id'));
    c.set('requestId' as never, id as never);
    // set before the answer is made, so it is part of the answer's own headers (a header added to
    // a finished answer is lost when @hono/node-server's lightweight Response is materialised)
    c.header(REQUEST_ID_HEADER, id);
    // one request is one trace: its span is the parent of everything the request does; a caller's
    // traceparent makes it a child of the caller's (and keeps the caller's sampling decision).
    // The trace rides on the request's deps (api/app.ts), so its work finds it without a context
    // manager; an unsampled request has none.
    const trace: Trace | null = tracing
      ? startRequestTrace(methodLabel(c.req.method), requestHeader(c, 'traceparent'), requestHeader(c, 'tracestate'))
      : null;
    // the request's own span (`current` moves to named work while it runs)
    const span = trace?.current;
    if (trace) c.set('trace' as never, trace as never);
    await next();
    if (c.res.headers.get(REQUEST_ID_HEADER) !== id) {
      try {
        c.res.headers.set(REQUEST_ID_HEADER, id);
      } catch {
        // a Response whose headers are immutable (one fetched from elsewhere): copied once
        c.res = new Response(c.res.body, c.res);
        c.res.headers.set(REQUEST_ID_HEADER, id);
      }
    }
    const m = metrics;
    const log = logger;
    if (!m && !log && !trace) return;
    const method = methodLabel(c.req.method);
    const seconds = (performance.now() - started) / 1000;
    const route = routeTemplate(c);
    const status = c.res.status;
    let traceId: string | undefined;
    const t = tracing;
    if (span && t) {
      span.updateName(`${method} ${route}`);
      span.setAttributes({
        'http.request.method': method,
        'http.route': route,
        'http.response.status_code': status,
        'switchboard.request_id': id,
      });
      if (status >= 500) span.setStatus({ code: t.api.SpanStatusCode.ERROR });
      span.end();
      traceId = span.spanContext().traceId;
    }
    m?.httpRequest(route, method, status).observe(seconds);
    if (log) {
      const session = c.get('session' as never) as { accountId?: string } | undefined;
      logRequest(id, traceId, method, route, status, Math.round(seconds * 10_000) / 10, session?.accountId);
    }
  };
}
