import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { decryptSecret } from '../../api/crypto';
import { migrate } from '../../api/db/migrate';
import { MIGRATIONS } from '../../api/db/migrations/index';
import { resolveVerifiedEmail } from '../../api/identity/resolve';
import { DATABASE_KINDS, openTestDatabase, useTestContext } from './helpers';

type Keys = { widgetKey: string; secretKey: string; webhookSecret: string };

describe.each(DATABASE_KINDS)('developer keys (%s)', (kind) => {
  const t = useTestContext(kind);

  it('an account has prefixed keys with plenty of entropy', async () => {
    const res = await t.call('GET', '/accounts/developer', { as: 'admin@acme.test' });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const keys = (await res.json()) as Keys;
    expect(keys.widgetKey).toMatch(/^wk_[A-Za-z0-9_-]{43}$/);
    expect(keys.secretKey).toMatch(/^sk_[A-Za-z0-9_-]{43}$/);
    expect(keys.webhookSecret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
  });

  it('opening Developers writes nothing to the audit log: reads answer the same keys', async () => {
    const entries = () =>
      t.db.tenant(
        t.account('acme').id,
        async (trx) => (await sql<{ n: number }>`select count(*)::int as n from audit_log`.execute(trx)).rows[0]!.n,
      );
    const before = await entries();
    const a = (await (await t.call('GET', '/accounts/developer', { as: 'admin@acme.test' })).json()) as Keys;
    const b = (await (await t.call('GET', '/accounts/developer', { as: 'owner@acme.test' })).json()) as Keys;
    expect(a).toEqual(b);
    expect(await entries()).toBe(before);
  });

  it('an account made by a first sign-in has its keys from the start', async () => {
    const { admin } = await resolveVerifiedEmail(t.deps, {
      email: 'founder@keys-at-birth.test',
      firstName: 'Fay',
      lastName: 'Founder',
      platform: 'google',
    });
    const row = await t.db.tenant(admin.account_id, (trx) => trx.selectFrom('developer_keys').selectAll().executeTakeFirst());
    expect(row?.widget_key).toMatch(/^wk_/);
    const events = await t.db.tenant(admin.account_id, async (trx) =>
      (await sql<{ event: string }>`select event from audit_log`.execute(trx)).rows.map((r) => r.event),
    );
    expect(events).toEqual(['account.created']);
  });

  it('the secret key and webhook secret are stored encrypted, not as they are shown', async () => {
    const keys = (await (await t.call('GET', '/accounts/developer', { as: 'admin@acme.test' })).json()) as Keys;
    const row = await t.db.tenant(t.account('acme').id, (trx) =>
      trx.selectFrom('developer_keys').selectAll().executeTakeFirstOrThrow(),
    );
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

  it('two reads at once agree on one set of keys', async () => {
    const [a, b] = await Promise.all([
      t.call('GET', '/accounts/developer', { as: 'staff@provider.test' }),
      t.call('GET', '/accounts/developer', { as: 'staff@provider.test' }),
    ]);
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect(await a.json()).toEqual(await b.json());
  });

  const auditDescriptions = (event: string) =>
    t.db.tenant(t.account('acme').id, async (trx) =>
      (await sql<{ description: string }>`select description from audit_log where event = ${event}`.execute(trx)).rows.map(
        (r) => r.description,
      ),
    );

  it('rotating the secret key replaces it with a fresh one, keeps the others, and is audited', async () => {
    const before = (await (await t.call('GET', '/accounts/developer', { as: 'admin@acme.test' })).json()) as Keys;
    const res = await t.call('POST', '/accounts/developer/rotate', { as: 'admin@acme.test', body: { key: 'secretKey' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const after = (await res.json()) as Keys;
    expect(after.secretKey).toMatch(/^sk_[A-Za-z0-9_-]{43}$/);
    expect(after.secretKey).not.toBe(before.secretKey);
    expect(after.widgetKey).toBe(before.widgetKey);
    expect(after.webhookSecret).toBe(before.webhookSecret);
    // the old value is gone: reads answer the new one, and the stored row no longer decrypts to it
    expect(await (await t.call('GET', '/accounts/developer', { as: 'owner@acme.test' })).json()).toEqual(after);
    const row = await t.db.tenant(t.account('acme').id, (trx) =>
      trx.selectFrom('developer_keys').selectAll().executeTakeFirstOrThrow(),
    );
    expect(decryptSecret(row.secret_key_encrypted, t.config.encryptionKey)).toBe(after.secretKey);
    expect(JSON.stringify(row)).not.toContain(after.secretKey.slice(3));
    expect(await auditDescriptions('developer.secret-key-rotated')).toEqual(['Rotated the secret key']);
  });

  it('rotating the webhook secret replaces only the webhook secret, audited', async () => {
    const before = (await (await t.call('GET', '/accounts/developer', { as: 'admin@acme.test' })).json()) as Keys;
    const res = await t.call('POST', '/accounts/developer/rotate', { as: 'owner@acme.test', body: { key: 'webhookSecret' } });
    expect(res.status).toBe(200);
    const after = (await res.json()) as Keys;
    expect(after.webhookSecret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(after.webhookSecret).not.toBe(before.webhookSecret);
    expect({ ...after, webhookSecret: '' }).toEqual({ ...before, webhookSecret: '' });
    const row = await t.db.tenant(t.account('acme').id, (trx) =>
      trx.selectFrom('developer_keys').selectAll().executeTakeFirstOrThrow(),
    );
    expect(decryptSecret(row.webhook_secret_encrypted, t.config.encryptionKey)).toBe(after.webhookSecret);
    expect(await auditDescriptions('developer.webhook-secret-rotated')).toEqual(['Rotated the webhook secret']);
  });

  it('rotation only touches the caller’s account', async () => {
    const globex = (await (await t.call('GET', '/accounts/developer', { as: 'owner@globex.test' })).json()) as Keys;
    await t.call('POST', '/accounts/developer/rotate', { as: 'admin@acme.test', body: { key: 'secretKey' } });
    expect(await (await t.call('GET', '/accounts/developer', { as: 'owner@globex.test' })).json()).toEqual(globex);
  });

  it('a supervisor may not rotate a key (403) and nothing changes', async () => {
    const before = await (await t.call('GET', '/accounts/developer', { as: 'admin@acme.test' })).json();
    const res = await t.call('POST', '/accounts/developer/rotate', { as: 'supervisor@acme.test', body: { key: 'secretKey' } });
    expect(res.status).toBe(403);
    expect(JSON.stringify(await res.json())).not.toMatch(/sk_|whsec_/);
    expect(await (await t.call('GET', '/accounts/developer', { as: 'admin@acme.test' })).json()).toEqual(before);
  });

  it.each([{ key: 'widgetKey' }, { key: 'SECRETKEY' }, {}, { key: null }])(
    'rotating %j is refused with 400 and nothing changes',
    async (body) => {
      const before = await (await t.call('GET', '/accounts/developer', { as: 'admin@acme.test' })).json();
      const rotations =
        (await auditDescriptions('developer.secret-key-rotated')).length +
        (await auditDescriptions('developer.webhook-secret-rotated')).length;
      const res = await t.call('POST', '/accounts/developer/rotate', { as: 'admin@acme.test', body });
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ code: 'VALIDATION_FAILED', fields: { key: expect.any(String) } });
      expect(await (await t.call('GET', '/accounts/developer', { as: 'admin@acme.test' })).json()).toEqual(before);
      expect(
        (await auditDescriptions('developer.secret-key-rotated')).length +
          (await auditDescriptions('developer.webhook-secret-rotated')).length,
      ).toBe(rotations);
    },
  );
});

describe.each(DATABASE_KINDS)('developer keys of accounts made before keys came with the account (%s)', (kind) => {
  it('the migration gives each such account its keys, audited as done by the provider', async () => {
    const { db, drop } = await openTestDatabase(
      kind,
      MIGRATIONS.filter((m) => m.id < '0640'),
    );
    try {
      const { id } = await db.system((trx) =>
        trx
          .insertInto('accounts')
          .values({ name: 'Older Co', platform: 'google', email_domain: 'older.test' })
          .returning('id')
          .executeTakeFirstOrThrow(),
      );
      await migrate(db, MIGRATIONS, { encryptionKey: 'k'.repeat(40) });
      const row = await db.tenant(id, (trx) => trx.selectFrom('developer_keys').selectAll().executeTakeFirstOrThrow());
      expect(decryptSecret(row.secret_key_encrypted, 'k'.repeat(40))).toMatch(/^sk_/);
      const entries = await db.tenant(
        id,
        async (trx) =>
          (await sql<{ description: string; admin_id: string | null }>`select description, admin_id from audit_log`.execute(trx))
            .rows,
      );
      expect(entries).toEqual([{ description: 'Generated the developer keys', admin_id: null }]);
    } finally {
      await drop();
    }
    // a database of its own, migrated twice: slower than the shared suite database
  }, 120_000);
});

describe.each(DATABASE_KINDS)('developer keys in ghost mode (%s)', (kind) => {
  const t = useTestContext(kind);

  const ghostToken = async () => {
    const res = await t.call('POST', '/watch-tower/ghost-mode', {
      as: 'staff@provider.test',
      body: { accountId: t.account('acme').id },
    });
    return ((await res.json()) as { token: string }).token;
  };

  it('provider staff in ghost mode see the secret key and webhook secret masked, never their values', async () => {
    const real = (await (await t.call('GET', '/accounts/developer', { as: 'owner@acme.test' })).json()) as Keys;
    const res = await t.call('GET', '/accounts/developer', { token: await ghostToken() });
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).not.toContain(real.secretKey.slice(3));
    expect(text).not.toContain(real.webhookSecret.slice(6));
    expect(JSON.parse(text)).toEqual({
      widgetKey: real.widgetKey,
      secretKey: `sk_${'*'.repeat(43)}`,
      webhookSecret: '*'.repeat(32),
      revealed: false,
    });
  });

  it('a rotation in ghost mode is refused with GHOST_MODE and the keys stay as they were', async () => {
    const before = (await (await t.call('GET', '/accounts/developer', { as: 'owner@acme.test' })).json()) as Keys;
    const res = await t.call('POST', '/accounts/developer/rotate', { token: await ghostToken(), body: { key: 'webhookSecret' } });
    expect(res.status).toBe(403);
    expect(((await res.json()) as { code: string }).code).toBe('GHOST_MODE');
    const after = (await (await t.call('GET', '/accounts/developer', { as: 'owner@acme.test' })).json()) as Keys;
    expect(after.webhookSecret).toBe(before.webhookSecret);
    expect(after.webhookSecret).toMatch(/^whsec_/);
  });
});
