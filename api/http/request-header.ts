import type { IncomingMessage } from 'node:http';
import type { Context } from 'hono';

/**
 * A request header (`name` in lower case), read from Node's own parsed headers when the request
 * came through the Node adapter. Asking Hono (`c.req.header`) makes @hono/node-server build a web
 * `Headers` object from them, each name and value checked by undici, for the first header a
 * request reads (about 2 % of a bootstrap's CPU in a profile, 2026-11-26). Without the adapter
 * (`app.request` in tests) it is Hono's own.
 */
export function requestHeader(c: Context, name: string): string | undefined {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  if (!incoming) return c.req.header(name);
  const value = incoming.headers[name];
  // Node joins repeated headers with ", " except set-cookie (an array), which a request has not
  return Array.isArray(value) ? value.join(', ') : value;
}
