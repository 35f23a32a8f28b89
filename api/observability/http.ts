import type { Context, MiddlewareHandler } from 'hono';
import { matchedRoutes } from 'hono/route';
import { requestHeader } from '../http/request-header';
import { logger } from './logger';
import { methodLabel, metrics } from './metrics';
import { REQUEST_ID_HEADER, requestIdFrom } from './request-id';

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
    if (!m && !log) return;
    const seconds = (performance.now() - started) / 1000;
    const route = routeTemplate(c);
    const status = c.res.status;
    m?.httpRequests.observe({ route, method: methodLabel(c.req.method), status: String(status) }, seconds);
    if (log) {
      const session = c.get('session' as never) as { accountId?: string } | undefined;
      log.info(
        { requestId: id, method: methodLabel(c.req.method), route, status, durationMs: Math.round(seconds * 10_000) / 10, accountId: session?.accountId },
        'request',
      );
    }
  };
}
