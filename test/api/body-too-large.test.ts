import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { DATABASE_KINDS, useTestContext } from './helpers';

// A body over the limit is refused 413 without reading it, so the connection is closed with the
// answer (Connection: close) rather than kept for a next request that would meet a reset socket;
// on /api/v1 the answer carries the RateLimit headers like every answer past the key check.
// Over a real connection: the Node adapter and the socket are what this is about.

describe.each(DATABASE_KINDS)('413 over a real connection (%s)', (kind) => {
  const t = useTestContext(kind);
  let server: http.Server;
  let port: number;
  let key: string;
  beforeAll(async () => {
    key = ((await (await t.call('GET', '/accounts/developer', { as: 'owner@acme.test' })).json()) as { secretKey: string })
      .secretKey;
    server = http.createServer(getRequestListener(t.app.fetch));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const send = (agent: http.Agent, path: string, body: string, headers: Record<string, string> = {}) =>
    new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
      const req = http.request(
        {
          host: '127.0.0.1',
          port,
          path,
          method: 'POST',
          agent,
          headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), ...headers },
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (d: string) => (text += d));
          res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text }));
        },
      );
      req.on('error', reject);
      req.end(body);
    });

  it('a 413 on /api/v1 closes the connection, carries the RateLimit headers, and the client’s next request on its keep-alive agent answers', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const big = JSON.stringify({ phoneNumber: '+12025550100', customerRef: 'x'.repeat(2 * 1024 * 1024) });
      const refused = await send(agent, '/api/v1/otp/send', big, { authorization: `Bearer ${key}` });
      expect(refused.status).toBe(413);
      expect(JSON.parse(refused.body)).toMatchObject({ code: 'BODY_TOO_LARGE' });
      expect(refused.headers.connection).toBe('close');
      expect(refused.headers.ratelimit).toMatch(/^"default";r=\d+;t=\d+$/);
      expect(refused.headers['ratelimit-policy']).toBeDefined();
      const next = await send(
        agent,
        '/api/v1/otp/check',
        JSON.stringify({ id: '00000000-0000-4000-8000-000000000000', code: '123456' }),
        { authorization: `Bearer ${key}` },
      );
      expect(next.status).toBe(404);
    } finally {
      agent.destroy();
    }
  });

  it('a 413 on a console route closes the connection too', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const refused = await send(
        agent,
        '/api/sms/guard',
        JSON.stringify({ allowedCountries: ['US'], pad: 'x'.repeat(2 * 1024 * 1024) }),
        { authorization: `Bearer ${await t.tokenFor('owner@acme.test')}` },
      );
      expect(refused.status).toBe(413);
      expect(refused.headers.connection).toBe('close');
    } finally {
      agent.destroy();
    }
  });
});
