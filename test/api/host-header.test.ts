import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { DATABASE_KINDS, useTestContext } from './helpers';
import { createLinkToken } from '../../api/customer-pages/links';
import { nodeListener } from '../../api/http/node-listener';

// A Host header in upper case and with a port reaches the app's own host normalisation through
// the Node adapter (which answered such a header with an empty 400 before it could run). Over a
// real connection, with the listener the server uses.

describe.each(DATABASE_KINDS)('Host headers through the Node adapter (%s)', (kind) => {
  const t = useTestContext(kind);
  let server: http.Server;
  let port: number;
  beforeAll(async () => {
    server = http.createServer(nodeListener(t.app.fetch));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
    await t.db.system((trx) =>
      sql`update branding set domain = 'verify.globex.test', domain_is_verified = true where account_id = ${t.account('globex').id}`.execute(
        trx,
      ),
    );
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  const get = (path: string, host: string) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      http
        .get({ host: '127.0.0.1', port, path, headers: { host } }, (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (d: string) => (body += d));
          res.on('end', () => resolve({ status: res.statusCode!, body }));
        })
        .on('error', reject);
    });

  it.each(['VERIFY.GLOBEX.TEST:8443', 'Verify.Globex.Test', 'verify.globex.test:8443'])(
    '%s is Globex’s domain: its own link opens, Acme’s does not',
    async (host) => {
      const globex = t.account('globex').id;
      const acme = t.account('acme').id;
      const own = await t.db.tenant(globex, (trx) =>
        createLinkToken(trx, globex, { app: 'one-time-passcode', purpose: 'preview', ttlMs: 60_000, now: t.clock.now }),
      );
      const other = await t.db.tenant(acme, (trx) =>
        createLinkToken(trx, acme, { app: 'one-time-passcode', purpose: 'preview', ttlMs: 60_000, now: t.clock.now }),
      );
      expect((await get(`/c/${own.token}`, host)).status).toBe(200);
      const refused = await get(`/c/${other.token}`, host);
      expect(refused.status).toBe(404);
      expect(refused.body.length).toBeGreaterThan(0);
    },
  );

  it('a Host that is not a host is still refused', async () => {
    expect((await get('/api/health', 'a b')).status).toBe(400);
  });
});
