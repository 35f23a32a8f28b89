import type { IncomingMessage, ServerResponse } from 'node:http';
import { getRequestListener } from '@hono/node-server';

/**
 * The Node adapter's request listener, with the Host header made canonical first. The adapter
 * compares the header with the hostname the URL parser makes of it and answers an empty 400 when
 * they differ, which they do for `VERIFY.GLOBEX.EXAMPLE:8443` (the parser lower-cases) and for an
 * internationalised name (it makes punycode), before our own host normalisation (hostName() in
 * api/http/host.ts) could run. A header the URL parser refuses is left for the adapter to refuse.
 */
export function nodeListener(
  fetch: Parameters<typeof getRequestListener>[0],
): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const listener = getRequestListener(fetch);
  return (req, res) => {
    const host = req.headers.host;
    if (host) {
      try {
        const canonical = new URL(`http://${host}`).host;
        // only a name and a port: anything else (a path, credentials) stays refused
        if (canonical.length > 0 && !/[/@?#\\]/.test(host)) req.headers.host = canonical;
      } catch {
        // not a host at all: the adapter answers 400
      }
    }
    return listener(req, res);
  };
}
