import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import zlib from 'node:zlib';
import { ROOT, startServer, type RunningServer } from './harness';

// What the browser actually receives for the built files: the build's brotli or gzip copy,
// chosen by Accept-Encoding, so the sizes the build reports (dist/sizes.json) are bytes on the
// wire, and every customer page's script keeps within its budget as served.

const dist = path.join(ROOT, 'dist');
const CUSTOMER_SCRIPT_BUDGET = 10 * 1024;

type Got = { headers: http.IncomingHttpHeaders; wire: Buffer };

function get(url: string, acceptEncoding?: string): Promise<Got> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} }, async (res) => {
        const chunks: Buffer[] = [];
        for await (const c of res) chunks.push(c as Buffer);
        resolve({ headers: res.headers, wire: Buffer.concat(chunks) });
      })
      .on('error', reject);
  });
}

describe('built files as served', () => {
  let server: RunningServer;
  let entryScript: string;

  beforeAll(async () => {
    server = await startServer();
    // index.html is under 1 KB: it has no compressed copy and goes as it is
    const html = (await get(`${server.url}/`, 'br')).wire.toString('utf8');
    entryScript = html.match(/<script type="module" src="(\/main-[A-Z0-9]+\.js)"/)![1]!;
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("the console's first script travels as the build's brotli copy to a browser that takes brotli", async () => {
    const got = await get(`${server.url}${entryScript}`, 'gzip, deflate, br, zstd');
    expect(got.headers['content-encoding']).toBe('br');
    expect(got.headers.vary).toBe('Accept-Encoding');
    expect(got.wire.equals(fs.readFileSync(path.join(dist, 'web', `${entryScript}.br`)))).toBe(true);
    expect(zlib.brotliDecompressSync(got.wire).equals(fs.readFileSync(path.join(dist, 'web', entryScript)))).toBe(true);
  });

  it('a client that takes only gzip gets the gzip copy, and one that takes neither gets the file', async () => {
    const gz = await get(`${server.url}${entryScript}`, 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.wire).equals(fs.readFileSync(path.join(dist, 'web', entryScript)))).toBe(true);
    const plain = await get(`${server.url}${entryScript}`);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.wire.length).toBe(fs.statSync(path.join(dist, 'web', entryScript)).size);
  });

  it("the build's reported gzip size of the console's first script is what a gzip client receives", async () => {
    const sizes = JSON.parse(fs.readFileSync(path.join(dist, 'sizes.json'), 'utf8')) as Record<
      string,
      { initialGzip: number; initialBrotli: number }
    >;
    const gz = await get(`${server.url}${entryScript}`, 'gzip');
    // the first script is part of the initial JS the build sums
    expect(gz.wire.length).toBeLessThanOrEqual(sizes.web!.initialGzip);
    expect(sizes.web!.initialBrotli).toBeLessThan(sizes.web!.initialGzip);
  });

  it('every customer page script is within 10 KB as served gzip, and less as brotli', async () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(dist, 'customer-pages.json'), 'utf8')) as Record<string, string>;
    expect(Object.keys(manifest).length).toBeGreaterThan(3);
    for (const [name, src] of Object.entries(manifest)) {
      const gz = await get(`${server.url}${src}`, 'gzip');
      const br = await get(`${server.url}${src}`, 'br');
      expect(gz.wire.length, name).toBeLessThanOrEqual(CUSTOMER_SCRIPT_BUDGET);
      expect(br.wire.length, name).toBeLessThanOrEqual(gz.wire.length);
      expect(gz.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    }
  });
});
