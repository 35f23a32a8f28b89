import { Hono } from 'hono';
import fs from 'node:fs';
import path from 'node:path';
import { pickCoding, type Coding } from './http/compression';
import { requestIdOf } from './observability/request-id';

// Serves the built UI: /zoom/* from dist/zoom, /webex/* from dist/webex, everything else from
// dist/web. Hashed assets are cached for a year; index.html never is, so a deploy shows at once.
// Unknown paths get the entry's index.html (the router shows the page or its 404).

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
};

export type UiEntry = 'web' | 'zoom' | 'webex';

/** Headers every HTML answer carries; hosts that embed us need some of them (Zoom needs all four). */
export function htmlSecurityHeaders(entry: UiEntry): Record<string, string> {
  const frameAncestors =
    entry === 'webex'
      ? "'self' https://*.webex.com https://*.wbx2.com https://*.ciscospark.com"
      : entry === 'zoom'
        ? "'self' https://*.zoom.us https://*.zoomgov.com"
        : "'self'";
  return {
    'Strict-Transport-Security': 'max-age=31536000; includeSubDomains',
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'strict-origin-when-cross-origin',
    'Content-Security-Policy': [
      "default-src 'self'",
      "script-src 'self'",
      "style-src 'self' 'unsafe-inline'",
      "img-src 'self' data: blob: https:",
      "connect-src 'self'",
      "font-src 'self' data:",
      "object-src 'none'",
      "base-uri 'self'",
      "form-action 'self' https:",
      `frame-ancestors ${frameAncestors}`,
    ].join('; '),
  };
}

const SUFFIX: Record<Coding, string> = { br: '.br', gzip: '.gz' };

/**
 * A built file as the client best takes it: the .br or .gz that build.mjs wrote beside it
 * when the client accepts that coding, else the file itself. Vary tells caches the choice.
 */
function builtFile(
  file: string,
  acceptEncoding: string | undefined,
): { body: Buffer<ArrayBuffer>; headers: Record<string, string> } {
  const coding = pickCoding(acceptEncoding);
  const pre = coding ? `${file}${SUFFIX[coding]}` : null;
  if (pre && fs.existsSync(pre))
    return { body: fs.readFileSync(pre), headers: { 'Content-Encoding': coding!, Vary: 'Accept-Encoding' } };
  // small files have no compressed copy: they go as they are to everyone
  return { body: fs.readFileSync(file), headers: fs.existsSync(`${file}.gz`) ? { Vary: 'Accept-Encoding' } : {} };
}

function safeJoin(dir: string, requestPath: string): string | null {
  const decoded = decodeURIComponent(requestPath);
  const full = path.resolve(dir, '.' + path.posix.normalize('/' + decoded));
  return full.startsWith(dir + path.sep) ? full : null;
}

export function uiRoutes(distDir: string) {
  const app = new Hono();
  app.get('*', (c) => {
    const urlPath = c.req.path;
    if (urlPath === '/api' || urlPath.startsWith('/api/')) {
      return c.json({ code: 'NOT_FOUND', message: 'There is nothing at this address.', requestId: requestIdOf(c) }, 404);
    }
    const entry: UiEntry =
      urlPath === '/zoom' || urlPath.startsWith('/zoom/')
        ? 'zoom'
        : urlPath === '/webex' || urlPath.startsWith('/webex/')
          ? 'webex'
          : 'web';
    const dir = path.join(distDir, entry);
    const rest = entry === 'web' ? urlPath : urlPath.slice(entry.length + 1) || '/';
    let file: string | null = null;
    try {
      file = rest === '/' ? null : safeJoin(dir, rest);
    } catch {
      file = null;
    }
    if (file && fs.existsSync(file) && fs.statSync(file).isFile()) {
      const ext = path.extname(file);
      const hashed = /-[A-Z0-9]{8}\.(js|css|map|svg|png)$/.test(file);
      const built = builtFile(file, c.req.header('Accept-Encoding'));
      return c.body(built.body, 200, {
        ...built.headers,
        'Content-Type': TYPES[ext] ?? 'application/octet-stream',
        'Cache-Control': hashed ? 'public, max-age=31536000, immutable' : 'no-cache',
        'X-Content-Type-Options': 'nosniff',
        // an HTML file asked for by name is a page like any other (Zoom refuses it without these)
        ...(ext === '.html' ? htmlSecurityHeaders(entry) : {}),
      });
    }
    if (path.extname(rest) && !rest.endsWith('.html')) return c.text('Not found', 404);
    const index = path.join(dir, 'index.html');
    if (!fs.existsSync(index)) return c.text('The console has no build in dist/: run npm run build.', 503);
    const built = builtFile(index, c.req.header('Accept-Encoding'));
    return c.body(built.body, 200, {
      ...built.headers,
      'Content-Type': TYPES['.html'],
      'Cache-Control': 'no-cache',
      ...htmlSecurityHeaders(entry),
    });
  });
  return app;
}
