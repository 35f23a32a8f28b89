import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { DATABASE_KINDS, useTestContext } from './helpers';
import { decryptSecret } from '../../api/crypto';

type Keys = { widgetKey: string; secretKey: string; webhookSecret: string };

describe.each(DATABASE_KINDS)('developer keys (%s)', (kind) => {
  const t = useTestContext(kind);

  it('the first read creates prefixed keys with plenty of entropy', async () => {
    const res = await t.call('GET', '/accounts/developer', { as: 'admin@acme.test' });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const keys = (await res.json()) as Keys;
    expect(keys.widgetKey).toMatch(/^wk_[A-Za-z0-9_-]{43}$/);
    expect(keys.secretKey).toMatch(/^sk_[A-Za-z0-9_-]{43}$/);
    expect(keys.webhookSecret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
  });

  it('later reads answer the same keys, and the creation is audited once', async () => {
    const a = (await (await t.call('GET', '/accounts/developer', { as: 'admin@acme.test' })).json()) as Keys;
    const b = (await (await t.call('GET', '/accounts/developer', { as: 'owner@acme.test' })).json()) as Keys;
    expect(a).toEqual(b);
    const n = await t.db.tenant(t.account('acme').id, async (trx) => (await sql<{ n: number }>`select count(*)::int as n from audit_log where event = 'developer.keys-created'`.execute(trx)).rows[0]!.n);
    expect(n).toBe(1);
  });

  it('the secret key and webhook secret are stored encrypted, not as they are shown', async () => {
    const keys = (await (await t.call('GET', '/accounts/developer', { as: 'admin@acme.test' })).json()) as Keys;
    const row = await t.db.tenant(t.account('acme').id, (trx) => trx.selectFrom('developer_keys').selectAll().executeTakeFirstOrThrow());
    const dump = JSON.stringify(row);
    expect(dump).not.toContain(keys.secretKey.slice(3));
    expect(dump).not.toContain(keys.webhookSecret.slice(6));
    expect(decryptSecret(row.secret_key_encrypted, t.config.encryptionKey)).toBe(keys.secretKey);
    expect(decryptSecret(row.webhook_secret_encrypted, t.config.encryptionKey)).toBe(keys.webhookSecret);
  });

  it('each account has its own keys', async () => {
    const acme = (await (await t.call('GET', '/accounts/developer', { as: 'admin@acme.test' })).json()) as Keys;
    const globex = (await (await t.call('GET', '/accounts/developer', { as: 'owner@globex.test' })).json()) as Keys;
    expect(globex.widgetKey).not.toBe(acme.widgetKey);
    expect(globex.secretKey).not.toBe(acme.secretKey);
    expect(globex.webhookSecret).not.toBe(acme.webhookSecret);
  });

  it('a supervisor may not see the keys (403)', async () => {
    const res = await t.call('GET', '/accounts/developer', { as: 'supervisor@acme.test' });
    expect(res.status).toBe(403);
    expect(JSON.stringify(await res.json())).not.toMatch(/sk_|whsec_/);
  });

  it('two first reads at once agree on one set of keys', async () => {
    const [a, b] = await Promise.all([
      t.call('GET', '/accounts/developer', { as: 'staff@provider.test' }),
      t.call('GET', '/accounts/developer', { as: 'staff@provider.test' }),
    ]);
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect(await a.json()).toEqual(await b.json());
  });
});
