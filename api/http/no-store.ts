import type { MiddlewareHandler } from 'hono';

/**
 * Every API answer may hold account data: browsers must not sniff it into something
 * executable, and no cache (shared or the browser's own, e.g. back/forward) may keep a copy.
 * Set after the handler so error answers get it too; a route with its own cache rule keeps it.
 */
export function noStore(): MiddlewareHandler {
  return async (c, next) => {
    await next();
    c.res.headers.set('X-Content-Type-Options', 'nosniff');
    if (!c.res.headers.has('Cache-Control')) c.res.headers.set('Cache-Control', 'no-store');
  };
}
