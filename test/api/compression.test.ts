import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import zlib from 'node:zlib';
import type { AddressInfo } from 'node:net';
import { Hono } from 'hono';
import { getRequestListener } from '@hono/node-server';
import { compression, pickCoding } from '../../api/http/compression';
import { noStore } from '../../api/http/no-store';
import { DATABASE_KINDS, useTestContext } from './helpers';

// Dynamic answers travel compressed when the client accepts it, over real HTTP on loopback; a
// stream still arrives as it goes, and server-sent events are never compressed or held.

type Got = { status: number; headers: http.IncomingHttpHeaders; res: http.IncomingMessage };

function get(url: string, acceptEncoding?: string): Promise<Got> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} }, (res) =>
        resolve({ status: res.statusCode!, headers: res.headers, res }),
      )
      .on('error', reject);
  });
}

async function bodyOf(got: Got): Promise<string> {
  const coding = got.headers['content-encoding'];
  const stream =
    coding === 'br'
      ? got.res.pipe(zlib.createBrotliDecompress())
      : coding === 'gzip'
        ? got.res.pipe(zlib.createGunzip())
        : got.res;
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** The first decompressed bytes of a streamed answer, without waiting for its end. */
function firstText(got: Got): Promise<string> {
  const coding = got.headers['content-encoding'];
  const stream =
    coding === 'br'
      ? got.res.pipe(zlib.createBrotliDecompress())
      : coding === 'gzip'
        ? got.res.pipe(zlib.createGunzip())
        : got.res;
  return new Promise((resolve) => stream.once('data', (d: Buffer) => resolve(d.toString('utf8'))));
}

describe('compression of dynamic answers', () => {
  const page = '<!doctype html><p>' + 'Your passkey is ready. '.repeat(200) + '</p>';
  let releaseCsv: () => void = () => {};
  let releaseEvents: () => void = () => {};
  let server: http.Server;
  let base: string;

  beforeAll(async () => {
    const app = new Hono();
    app.use('*', compression());
    app.get('/page', (c) => c.html(page));
    app.get('/small', (c) => c.json({ ok: true }));
    // as /api answers are made: a middleware inside the compression sets headers after the route
    const api = new Hono();
    api.use('*', noStore());
    api.get('/small', (c) => c.json({ ok: true }));
    api.get('/large', (c) => c.json({ rows: Array.from({ length: 200 }, (_, i) => ({ id: i, status: 'verified' })) }));
    app.route('/api', api);
    app.get('/picture', (c) => c.body(new Uint8Array(4096), 200, { 'content-type': 'image/png' }));
    app.get('/export.csv', () => {
      const gate = new Promise<void>((r) => (releaseCsv = r));
      const body = new ReadableStream<Uint8Array>({
        async start(controller) {
          controller.enqueue(new TextEncoder().encode('id,status\n1,verified\n'));
          await gate;
          controller.enqueue(new TextEncoder().encode('2,failed\n'));
          controller.close();
        },
      });
      return new Response(body, { headers: { 'content-type': 'text/csv; charset=utf-8' } });
    });
    app.get('/events', () => {
      const gate = new Promise<void>((r) => (releaseEvents = r));
      const body = new ReadableStream<Uint8Array>({
        async start(controller) {
          controller.enqueue(new TextEncoder().encode('id: 1\ndata: {"task":"t1"}\n\n'));
          await gate;
          controller.close();
        },
      });
      return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
    });
    server = http.createServer(getRequestListener(app.fetch));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    releaseCsv();
    releaseEvents();
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  it('a page goes as brotli to a browser that accepts it, and says it varies by Accept-Encoding', async () => {
    const got = await get(`${base}/page`, 'gzip, deflate, br');
    expect(got.headers['content-encoding']).toBe('br');
    expect(got.headers.vary).toMatch(/accept-encoding/i);
    expect(await bodyOf(got)).toBe(page);
  });

  it('an API answer keeps the headers set inside the compression, compressed or not, large or small', async () => {
    for (const path of ['/api/small', '/api/large']) {
      for (const accept of [undefined, 'gzip, deflate, br']) {
        const got = await get(`${base}${path}`, accept);
        expect(got.headers['cache-control'], `${path} ${accept}`).toBe('no-store');
        expect(got.headers['x-content-type-options'], `${path} ${accept}`).toBe('nosniff');
        expect(got.headers.vary, `${path} ${accept}`).toMatch(/accept-encoding/i);
        expect(got.headers['content-encoding'], `${path} ${accept}`).toBe(path === '/api/large' && accept ? 'br' : undefined);
        expect(JSON.parse(await bodyOf(got))).toBeTruthy();
      }
    }
  });

  it('a client that takes only gzip gets gzip, and one that takes nothing gets the page as it is', async () => {
    const gz = await get(`${base}/page`, 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(await bodyOf(gz)).toBe(page);
    const plain = await get(`${base}/page`);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(await bodyOf(plain)).toBe(page);
  });

  it('a compressed page is a fraction of its size on the wire', async () => {
    const got = await get(`${base}/page`, 'br');
    let wire = 0;
    for await (const c of got.res) wire += (c as Buffer).length;
    expect(wire).toBeLessThan(Buffer.byteLength(page) / 10);
  });

  it('an answer under 1 KB and a picture go uncompressed', async () => {
    const small = await get(`${base}/small`, 'br, gzip');
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(await bodyOf(small)).toBe('{"ok":true}');
    const picture = await get(`${base}/picture`, 'br, gzip');
    expect(picture.headers['content-encoding']).toBeUndefined();
  });

  it('a CSV export is compressed and its first rows arrive before the export ends', async () => {
    for (const coding of ['br', 'gzip']) {
      const got = await get(`${base}/export.csv`, coding);
      expect(got.headers['content-encoding']).toBe(coding);
      // the server holds the rest until the first rows are read: buffering would hang here
      expect(await firstText(got)).toBe('id,status\n1,verified\n');
      releaseCsv();
      got.res.resume();
    }
  });

  it('server-sent events are never compressed and each event arrives at once', async () => {
    const got = await get(`${base}/events`, 'br, gzip');
    expect(got.headers['content-encoding']).toBeUndefined();
    expect(await firstText(got)).toBe('id: 1\ndata: {"task":"t1"}\n\n');
    releaseEvents();
    got.res.resume();
  });

  it('Accept-Encoding is read with its weights', () => {
    expect(pickCoding('gzip, deflate, br')).toBe('br');
    expect(pickCoding('br;q=0, gzip')).toBe('gzip');
    expect(pickCoding('identity')).toBeNull();
    expect(pickCoding('*')).toBe('br');
    expect(pickCoding(undefined)).toBeNull();
  });
});

describe.each(DATABASE_KINDS)('compression in the app (%s)', (kind) => {
  const t = useTestContext(kind);

  it("a customer page's HTML travels compressed", async () => {
    const res = await t.app.request('/c/' + 'x'.repeat(43), { headers: { host: 'localhost:3000', 'accept-encoding': 'br' } });
    expect(res.status).toBe(404);
    expect(res.headers.get('content-encoding')).toBe('br');
    const html = zlib.brotliDecompressSync(Buffer.from(await res.arrayBuffer())).toString('utf8');
    expect(html).toContain('This link does not work');
  });

  it.each(['br', 'gzip', ''])(
    "a customer page carries its security headers, its coding and Vary, whatever it is sent as (Accept-Encoding '%s')",
    async (accept) => {
      const res = await t.app.request('/c/' + 'x'.repeat(43), { headers: { host: 'localhost:3000', 'accept-encoding': accept } });
      expect(res.headers.get('content-security-policy')).toMatch(
        /^default-src 'none'; .*style-src 'nonce-[^']+'; script-src 'nonce-[^']+';.* frame-ancestors 'none'$/,
      );
      expect(res.headers.get('referrer-policy')).toBe('no-referrer');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.headers.get('vary')).toBe('Accept-Encoding');
      expect(res.headers.get('content-type')).toBe('text/html; charset=UTF-8');
      expect(res.headers.get('content-encoding')).toBe(accept || null);
    },
  );
});
