import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestHeader } from '../../api/http/request-header';

// requestHeader reads Node's own parsed headers behind the Node adapter, and Hono's without it:
// both must answer what the client sent, the same way.

const app = new Hono().get('/echo', (c) =>
  c.json({
    host: requestHeader(c, 'host'),
    language: requestHeader(c, 'accept-language'),
    zone: requestHeader(c, 'x-time-zone'),
    missing: requestHeader(c, 'x-not-sent') ?? null,
  }),
);

describe('request headers', () => {
  let server: http.Server;
  let url = '';
  beforeAll(async () => {
    server = http.createServer(getRequestListener(app.fetch));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('behind the Node adapter, a header reads as the client sent it, in any case, and a missing one is absent', async () => {
    const res = await fetch(`${url}/echo`, { headers: { 'Accept-Language': 'ar, en;q=0.5', 'X-Time-Zone': 'Europe/Paris' } });
    expect(await res.json()).toEqual({ host: new URL(url).host, language: 'ar, en;q=0.5', zone: 'Europe/Paris', missing: null });
  });

  it('a header sent twice reads as one value, joined as Hono joins it', async () => {
    const got = await new Promise<string>((resolve, reject) => {
      const req = http.request(`${url}/echo`, { headers: { 'accept-language': ['fr', 'de'] } }, (res) => {
        let body = '';
        res.on('data', (d) => (body += d));
        res.on('end', () => resolve(body));
      });
      req.on('error', reject);
      req.end();
    });
    const direct = await app.request('/echo', {
      headers: [
        ['accept-language', 'fr'],
        ['accept-language', 'de'],
      ],
    });
    expect(JSON.parse(got).language).toBe(((await direct.json()) as { language: string }).language);
  });

  it("without the adapter (app.request) it is Hono's own reading", async () => {
    const res = await app.request('/echo', { headers: { host: 'example.test', 'accept-language': 'es' } });
    expect(await res.json()).toEqual({ host: 'example.test', language: 'es', zone: undefined, missing: null });
  });
});
