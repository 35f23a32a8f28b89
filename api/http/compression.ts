import { Duplex } from 'node:stream';
import zlib from 'node:zlib';
import type { MiddlewareHandler } from 'hono';

// Compression of what the server answers. Built assets are compressed once, at build time
// (build.mjs writes .br and .gz beside each file; static.ts picks one by Accept-Encoding). This
// middleware compresses the dynamic answers: HTML pages, JSON, CSV exports. Every chunk is
// flushed as soon as it is compressed, so a stream (a CSV export) still arrives as it goes;
// server-sent events are never touched: an event held in a compressor's window would reach the
// browser late, or never.

export type Coding = 'br' | 'gzip';

/** Answers smaller than this go as they are: a compressed frame would save little or nothing. */
export const COMPRESS_MIN_BYTES = 1024;

const COMPRESSIBLE = /^(text\/(html|plain|csv|css|javascript|xml)|application\/(json|problem\+json|javascript|xml|x-ndjson|manifest\+json)|image\/svg\+xml)\b/i;
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
    ? zlib.createBrotliCompress({ flush: zlib.constants.BROTLI_OPERATION_FLUSH, params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } })
    : zlib.createGzip({ flush: zlib.constants.Z_SYNC_FLUSH, level: 6 });
}

/** `head` (already read) then the rest of `reader`, compressed chunk by chunk. */
function compressedStream(coding: Coding, head: Uint8Array[], reader: ReadableStreamDefaultReader<Uint8Array> | null): ReadableStream<Uint8Array> {
  const z = compressor(coding);
  const { readable, writable } = Duplex.toWeb(z) as { readable: ReadableStream<Uint8Array>; writable: WritableStream<Uint8Array> };
  const writer = writable.getWriter();
  (async () => {
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

function addVary(headers: Headers): void {
  const vary = headers.get('Vary');
  if (!vary) headers.set('Vary', 'Accept-Encoding');
  else if (!/(^|,)\s*(accept-encoding|\*)\s*(,|$)/i.test(vary)) headers.set('Vary', `${vary}, Accept-Encoding`);
}

/** Compresses dynamic answers the client accepts compressed (see the top of this file). */
export function compression(options: { minBytes?: number } = {}): MiddlewareHandler {
  const minBytes = options.minBytes ?? COMPRESS_MIN_BYTES;
  return async (c, next) => {
    await next();
    const res = c.res;
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
    const coding = pickCoding(c.req.header('Accept-Encoding'));
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
    if (!STREAMED.test(type!) && declared === null) {
      // Unknown length: read until the threshold or the end. A page or a JSON answer is one
      // chunk, so this is one read; a small answer goes out as it is.
      let size = 0;
      while (size < minBytes) {
        const { done, value } = await reader.read();
        if (done) {
          ended = true;
          break;
        }
        head.push(value);
        size += value.byteLength;
      }
      if (ended && size < minBytes) {
        const body = new Uint8Array(size);
        let at = 0;
        for (const chunk of head) {
          body.set(chunk, at);
          at += chunk.byteLength;
        }
        c.res = new Response(body, { status, headers });
        return;
      }
    }
    // (Hono copies the old answer's headers onto the new one: change them after)
    c.res = new Response(compressedStream(coding, head, ended ? null : reader), { status, headers });
    c.res.headers.delete('Content-Length');
    c.res.headers.set('Content-Encoding', coding);
    // a strong validator names the bytes: compressed bytes are other bytes
    const etag = c.res.headers.get('ETag');
    if (etag && !etag.startsWith('W/')) c.res.headers.set('ETag', `W/${etag}`);
  };
}
