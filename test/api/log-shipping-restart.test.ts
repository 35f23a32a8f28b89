import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPglite, type Database } from '../../api/db/index';
import { migrate } from '../../api/db/migrate';
import { seedDemo } from '../../api/seed';
import { testConfig } from '../../api/config';
import { tokenSigner } from '../../api/auth/token';
import { createApp } from '../../api/app';
import type { Deps } from '../../api/deps';
import { findActiveAdminByEmail, issueSessionToken } from '../../api/auth/sessions';
import { audit } from '../../api/audit';
import { startLogShipper } from '../../api/integrations/log-queue';
import { json, LOOPBACK_CERT, startPeer, type Peer } from './peers';

// The queue lives in the database: events survive the server stopping in the middle of a
// delivery, and the next process delivers every one of them.

describe('log shipping across a restart (pglite on disk)', () => {
  let dir: string;
  let receiver: Peer;
  let mode: 'hang' | 'ok' = 'hang';
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-logship-'));
    receiver = await startPeer((_req, res) => (mode === 'hang' ? undefined : json(res, 200, {})), { tls: true });
  });
  afterAll(async () => {
    await receiver.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const depsFor = (db: Database): Deps => {
    const config = testConfig({ outboundAllowHosts: [receiver.host], outboundCa: LOOPBACK_CERT });
    return { config, db, tokens: tokenSigner(config.sessionSecret), now: () => new Date(), log: () => {} };
  };

  it('events queued before and during a stopped delivery all arrive after the restart', async () => {
    // First run: connect Rapid7, produce events, and stop while a delivery hangs.
    let db = await openPglite(dir);
    await migrate(db);
    const [acme] = await seedDemo(db, depsFor(db).config.encryptionKey);
    let deps = depsFor(db);
    const app = createApp(deps);
    const token = await issueSessionToken(deps, (await findActiveAdminByEmail(db, 'admin@acme.test'))!);
    const res = await app.request('/api/logging', {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ destination: 'rapid7', rapid7: { webhookUrl: `${receiver.url}/v1/noformat/webhook/token` } }),
    });
    expect(res.status).toBe(200);
    for (let i = 0; i < 25; i++) {
      await db.tenant(acme.id, (trx) =>
        audit(trx, acme.id, null, { namespace: 'global', description: `Change ${i}`, event: 'test.change' }),
      );
    }
    const expected = (await db.tenant(acme.id, (trx) => trx.selectFrom('log_outbox').select('payload').execute())).map(
      (r) => (r.payload as { id: number }).id,
    );
    expect(expected).toHaveLength(26); // the connection itself and 25 changes

    const first = startLogShipper(deps, { pollMs: 20, batchSize: 10, leaseMs: 800 });
    // wait until a batch is leased and its delivery hangs at the destination
    for (const until = Date.now() + 30_000; !receiver.received.length; ) {
      if (Date.now() > until) throw new Error('the first worker never reached the destination');
      await new Promise((r) => setTimeout(r, 50));
    }
    await first.stop();
    await db.close();

    // Second run: the same data directory, a new worker, the destination answering again.
    mode = 'ok';
    receiver.received.length = 0;
    db = await openPglite(dir);
    await migrate(db);
    deps = depsFor(db);
    const second = startLogShipper(deps, { pollMs: 50, batchSize: 10, leaseMs: 800 });
    try {
      const deadline = Date.now() + 60_000;
      for (;;) {
        const left = await db.tenant(acme.id, (trx) => trx.selectFrom('log_outbox').select('id').execute());
        if (!left.length) break;
        if (Date.now() > deadline) throw new Error(`${left.length} events still queued`);
        await new Promise((r) => setTimeout(r, 100));
      }
    } finally {
      await second.stop();
    }
    const delivered = receiver.received.flatMap((r) => r.body.split('\n').map((line) => (JSON.parse(line) as { id: number }).id));
    expect(new Set(delivered)).toEqual(new Set(expected));
    await db.close();
  }, 120_000);
});
