import crypto from 'node:crypto';
import type { Context } from 'hono';

export const REQUEST_ID_HEADER = 'X-Request-Id';

// A caller's (or a balancer's) id is kept when it is short and plain, so one id follows a request
// through every hop; anything else (too long, spaces, quotes, control characters that could forge
// a log line) is replaced by our own.
const ACCEPTED = /^[A-Za-z0-9._:+=/@-]{8,128}$/;

/** The request id to use: the one given when it is acceptable, else a new UUID. */
export function requestIdFrom(given: string | undefined): string {
  return given !== undefined && ACCEPTED.test(given) ? given : crypto.randomUUID();
}

/** This request's id (set by the first middleware, api/observability/http.ts); '' outside one. */
export function requestIdOf(c: Context): string {
  return (c.get('requestId' as never) as string | undefined) ?? '';
}
