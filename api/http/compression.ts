import { Duplex } from 'node:stream';
import zlib from 'node:zlib';
import type { Context, MiddlewareHandler } from 'hono';
import { requestHeader } from './request-header';

// Compression of what the server answers. Built assets are compressed once, at build time
// (build.mjs writes .br and .gz beside each file; static.ts picks one by Accept-Encoding). This
// middleware compresses the dynamic answers: HTML pages, JSON, CSV exports. Every chunk is
// flushed as soon as it is compressed, so a stream (a CSV export) still arrives as it goes;
// server-sent events are never touched: an event held in a compressor's window would reach the
// browser late, or never.

export type Coding = 'br' | 'gzip';

/** Answers smaller than this go as they are: a compressed frame would save little or nothing. */
export const COMPRESS_MIN_BYTES = 1024;

const COMPRESSIBLE =
  /^(text\/(html|plain|csv|css|javascript|xml)|application\/(json|problem\+json|javascript|xml|x-ndjson|manifest\+json)|image\/svg\+xml)\b/i;
/**
 * Answers up to this size are compressed whole, in one call, rather than as a stream: the stream's
 * machinery and a write per flushed chunk cost more than compressing a page (about 0.1 ms here).
 * Larger ones are streamed so one answer never holds the event loop for long.
 */
const WHOLE_MAX_BYTES = 256 * 1024;
/**
 * Brotli for a whole answer. An answer that fits TCP's first window (10 segments, about 14 KB)
 * reaches the caller in one round trip whatever its size, so bytes saved there save no time:
 * it gets quality 1 (a 3.5 KB customer page: 30-45 µs, 1,864 bytes; quality 4: 100-170 µs, 1,570
 * bytes, measured 2026-11-26). A larger one gets quality 5 (as fast as 4 here, and smaller). The
 * window is no larger than the answer (the default 4 MB one costs twice the time to set up).
 */
const FIRST_WINDOW_BYTES = 14 * 1024;
const brotliWhole = (size: number) => ({
  params: {
    [zlib.constants.BROTLI_PARAM_QUALITY]: size <= FIRST_WINDOW_BYTES ? 1 : 5,
    [zlib.constants.BROTLI_PARAM_SIZE_HINT]: size,
    [zlib.constants.BROTLI_PARAM_LGWIN]: Math.min(22, Math.max(16, Math.ceil(Math.log2(size)))),
  },
});
/** Streams by nature: compressed from the first byte, whatever their size, never held back. */
const STREAMED = /^(text\/csv|application\/x-ndjson)\b/i;

/** The coding to use for an Accept-Encoding header: brotli if accepted, else gzip, else none. */
export function pickCoding(acceptEncoding: string | undefined | null): Coding | null {
  if (!acceptEncoding) return null;
  const accepted = new Map<string, number>();
  for (const part of acceptEncoding.toLowerCase().split(',')) {
    const [name, ...params] = part.trim().split(';');
    if (!name) continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    accepted.set(name.trim(), q ? Number(q.slice(2)) || 0 : 1);
  }
  const ok = (name: string) => (accepted.get(name) ?? accepted.get('*') ?? 0) > 0;
  if (ok('br')) return 'br';
  if (ok('gzip')) return 'gzip';
  return null;
}

export function isCompressibleType(contentType: string | null | undefined): boolean {
  return !!contentType && COMPRESSIBLE.test(contentType) && !/^text\/event-stream\b/i.test(contentType);
}

/**
 * A compressor that flushes after every write: what goes in comes out at once, framed, at a
 * little cost in ratio. Brotli at quality 4 compresses about as fast as gzip 6 and smaller.
 */
function compressor(coding: Coding): zlib.BrotliCompress | zlib.Gzip {
  return coding === 'br'
    ? zlib.createBrotliCompress({
        flush: zlib.constants.BROTLI_OPERATION_FLUSH,
        params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 },
      })
    : zlib.createGzip({ flush: zlib.constants.Z_SYNC_FLUSH, level: 6 });
}

/** `head` (already read) then the rest of `reader`, compressed chunk by chunk. */
function compressedStream(
  coding: Coding,
  head: Uint8Array[],
  reader: ReadableStreamDefaultReader<Uint8Array> | null,
): ReadableStream<Uint8Array> {
  const z = compressor(coding);
  const { readable, writable } = Duplex.toWeb(z) as {
    readable: ReadableStream<Uint8Array>;
    writable: WritableStream<Uint8Array>;
  };
  const writer = writable.getWriter();
  // never rejects: a failure cancels both sides
  void (async () => {
    try {
      for (const chunk of head) await writer.write(chunk);
      while (reader) {
        const { done, value } = await reader.read();
        if (done) break;
        await writer.write(value);
      }
      await writer.close();
    } catch (err) {
      // the client went away (the readable side was canceled) or the source failed
      reader?.cancel(err).catch(() => {});
      writer.abort(err).catch(() => {});
    }
  })();
  return readable;
}

/** (Hono copies the old answer's headers onto the new one: these are set after) */
function compressedHeaders(headers: Headers, coding: Coding): void {
  headers.delete('Content-Length');
  headers.set('Content-Encoding', coding);
  // a strong validator names the bytes: compressed bytes are other bytes
  const etag = headers.get('ETag');
  if (etag && !etag.startsWith('W/')) headers.set('ETag', `W/${etag}`);
}

function addVary(headers: Headers): void {
  const vary = headers.get('Vary');
  if (!vary) headers.set('Vary', 'Accept-Encoding');
  else if (!/(^|,)\s*(accept-encoding|\*)\s*(,|$)/i.test(vary)) headers.set('Vary', `${vary}, Accept-Encoding`);
}

/** A Buffer as the plain Uint8Array a Response body is typed to take (no copy). */
const bytesOf = (buffer: Buffer) =>
  new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength) as Uint8Array<ArrayBuffer>;

/** The answer's bytes, compressed whole with `coding`. */
function compressWhole(body: Buffer, coding: Coding): Buffer {
  return coding === 'br' ? zlib.brotliCompressSync(body, brotliWhole(body.byteLength)) : zlib.gzipSync(body, { level: 6 });
}

/** Answers `htmlAnswer` made: their coding is chosen, and the middleware below leaves them alone. */
const negotiated = new WeakSet<Response>();

/**
 * An HTML page made as one string (a customer page), compressed here when the client takes it:
 * the middleware below would have to turn the adapter's light answer into a stream and back to
 * read it, which costs more than making the page (about 0.2 ms of the 0.6 ms a page took).
 * `headers` are the page's own (its CSP, caching): they go out as a plain object, as Node takes
 * them. Set through Hono (`c.header`, `c.body`) they would become a web `Headers` object, each
 * name and value checked by undici, and be copied back into Node's for the write. With the
 * request's headers read from Node's own too (api/http/request-header.ts), undici's share of a
 * page's CPU went from 4.1 % to 0.1 % (CPU profiles under load, 2026-11-26).
 */
export function htmlAnswer(c: Context, html: string, status: number, headers: Record<string, string> = {}): Response {
  const coding = pickCoding(requestHeader(c, 'accept-encoding'));
  const all: Record<string, string> = { ...headers, 'content-type': 'text/html; charset=UTF-8', vary: 'Accept-Encoding' };
  let body: string | Uint8Array<ArrayBuffer> = html;
  if (coding) {
    const bytes = Buffer.from(html, 'utf8');
    if (bytes.byteLength < COMPRESS_MIN_BYTES) body = bytesOf(bytes);
    else {
      body = bytesOf(compressWhole(bytes, coding));
      all['content-encoding'] = coding;
    }
  }
  const res = new Response(body, { status, headers: all });
  negotiated.add(res);
  return res;
}

/** Compresses dynamic answers the client accepts compressed (see the top of this file). */
export function compression(options: { minBytes?: number } = {}): MiddlewareHandler {
  const minBytes = options.minBytes ?? COMPRESS_MIN_BYTES;
  return async (c, next) => {
    await next();
    const res = c.res;
    if (negotiated.has(res)) return;
    // Headers and status first, the body last: asking for `res.body` turns the Node adapter's
    // light answer (a string) into a full Response with a stream, which costs more than the rest
    // of a small JSON read. A client that takes no compression never pays it.
    const type = res.headers.get('Content-Type');
    if (!isCompressibleType(type)) return;
    if (res.headers.has('Content-Encoding')) return;
    if (res.status === 204 || res.status === 304) return;
    addVary(res.headers);
    if (c.req.method === 'HEAD' || res.status === 206) return;
    if (/\bno-transform\b/i.test(res.headers.get('Cache-Control') ?? '')) return;
    const coding = pickCoding(requestHeader(c, 'accept-encoding'));
    if (!coding) return;
    const declared = res.headers.get('Content-Length');
    if (declared !== null && Number(declared) < minBytes) return;
    // The light answer keeps headers set on it after it was made (no-store, Vary) apart from the
    // ones it was made with; the full Response that `res.body` builds has only the latter. Keep
    // the whole set, and build the answer that replaces it from them.
    const headers = new Headers(res.headers);
    const status = res.status;
    if (!res.body) return;

    const reader = res.body.getReader();
    const head: Uint8Array[] = [];
    let ended = false;
    if (!STREAMED.test(type!) && (declared === null || Number(declared) <= WHOLE_MAX_BYTES)) {
      // A page or a JSON answer is one chunk: read it to its end (a second read says so), then
      // compress it in one call and send it in one write. A small answer goes out as it is.
      let size = 0;
      while (size <= WHOLE_MAX_BYTES) {
        const { done, value } = await reader.read();
        if (done) {
          ended = true;
          break;
        }
        head.push(value);
        size += value.byteLength;
      }
      if (ended) {
        const body = Buffer.concat(head, size);
        if (size < minBytes) {
          c.res = new Response(bytesOf(body), { status, headers });
          return;
        }
        const packed = compressWhole(body, coding);
        c.res = new Response(bytesOf(packed), { status, headers });
        compressedHeaders(c.res.headers, coding);
        c.res.headers.set('Content-Length', String(packed.byteLength));
        return;
      }
    }
    // A stream, or an answer too large to hold: compressed chunk by chunk as it goes.
    c.res = new Response(compressedStream(coding, head, ended ? null : reader), { status, headers });
    compressedHeaders(c.res.headers, coding);
  };
}
