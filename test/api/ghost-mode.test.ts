import { describe, expect, it } from 'vitest';
import { decodeJwt } from 'jose';
import { DATABASE_KINDS, useTestContext, type TestContext } from './helpers';

const STAFF = 'staff@provider.test';

async function startGhost(t: TestContext, accountId = t.account('acme').id) {
  const res = await t.call('POST', '/watch-tower/ghost-mode', { as: STAFF, body: { accountId } });
  expect(res.status).toBe(200);
  return ((await res.json()) as { token: string }).token;
}

const auditOf = (t: TestContext, accountId: string, event: string) =>
  t.db.tenant(accountId, (trx) =>
    trx.selectFrom('audit_log').selectAll().where('event', '=', event).orderBy('id', 'desc').execute(),
  );

describe.each(DATABASE_KINDS)('ghost mode (%s)', (kind) => {
  const t = useTestContext(kind);

  it("staff get a one-hour token for the account's owner, flagged ghost, carrying who they are", async () => {
    const acme = t.account('acme');
    const claims = decodeJwt(await startGhost(t));
    expect(claims).toMatchObject({
      sub: acme.adminIds['owner@acme.test'],
      acc: acme.id,
      role: 'owner',
      root: false,
      ghost: true,
      email: 'owner@acme.test',
      stf: t.account('provider').adminIds[STAFF],
    });
    expect(claims.exp! - claims.iat!).toBe(3600);
  });

  it('the ghost session sees the account as its owner, without staff rights', async () => {
    const res = await t.call('GET', '/admins/bootstrap', { token: await startGhost(t) });
    expect(await res.json()).toMatchObject({
      account: { name: 'Acme Support' },
      email: 'owner@acme.test',
      role: 'owner',
      ghost: true,
      isRoot: false,
    });
  });

  it('starting is audited on the account as made by the provider', async () => {
    const acme = t.account('acme');
    await startGhost(t);
    const [entry] = await auditOf(t, acme.id, 'ghost-mode.started');
    expect(entry).toMatchObject({ admin_id: null, admin_first_name: null, namespace: 'global' });
    expect(entry!.description).toContain(STAFF);
  });

  it("changes made in ghost mode carry no admin: the audit log shows them as the provider's", async () => {
    const token = await startGhost(t);
    const res = await t.call('POST', '/payments/billing/free-trial', { token, body: {} });
    expect(res.status).toBe(201);
    const [entry] = await auditOf(t, t.account('acme').id, 'billing.free-trial-started');
    expect(entry).toMatchObject({ admin_id: null, admin_first_name: null, admin_last_name: null });
  });

  it("a ghost session may not rotate the account's keys (403 GHOST_MODE) and nothing is rotated", async () => {
    const token = await startGhost(t);
    const before = await t.call('GET', '/accounts/developer', { as: 'owner@acme.test' });
    for (const key of ['secretKey', 'webhookSecret']) {
      const res = await t.call('POST', '/accounts/developer/rotate', { token, body: { key } });
      expect(res.status).toBe(403);
      expect(((await res.json()) as { code: string }).code).toBe('GHOST_MODE');
    }
    const after = await t.call('GET', '/accounts/developer', { as: 'owner@acme.test' });
    expect(await after.json()).toEqual(await before.json());
  });

  it("ending answers the staff member's own token and the account, and is audited", async () => {
    const acme = t.account('acme');
    const res = await t.call('DELETE', '/ghost-mode', { token: await startGhost(t) });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { token: string; accountId: string };
    expect(body.accountId).toBe(acme.id);
    expect(decodeJwt(body.token)).toMatchObject({
      sub: t.account('provider').adminIds[STAFF],
      acc: t.account('provider').id,
      root: true,
      ghost: false,
    });
    const boot = await t.call('GET', '/admins/bootstrap', { token: body.token });
    expect(await boot.json()).toMatchObject({ email: STAFF, isRoot: true, ghost: false });
    const [entry] = await auditOf(t, acme.id, 'ghost-mode.ended');
    expect(entry).toMatchObject({ admin_id: null });
  });

  it('a ghost token cannot start another ghost session (403)', async () => {
    const res = await t.call('POST', '/watch-tower/ghost-mode', {
      token: await startGhost(t),
      body: { accountId: t.account('globex').id },
    });
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ code: 'FORBIDDEN' });
  });

  it('ending ghost mode without being in it answers 409 NOT_IN_GHOST_MODE', async () => {
    for (const as of [STAFF, 'owner@acme.test']) {
      const res = await t.call('DELETE', '/ghost-mode', { as });
      expect(res.status).toBe(409);
      expect(await res.json()).toMatchObject({ code: 'NOT_IN_GHOST_MODE' });
    }
  });

  it('a ghost token expires after an hour', async () => {
    const token = await startGhost(t);
    const saved = t.clock.now;
    t.clock.now = new Date(saved.getTime() + 3601_000);
    try {
      const res = await t.call('GET', '/admins/bootstrap', { token });
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ code: 'JWT_EXPIRED' });
    } finally {
      t.clock.now = saved;
    }
  });

  it('an account without an owner answers 409 NO_OWNER; an unknown one 404; a bad id 400', async () => {
    const id = await t.db.system(
      async (trx) =>
        (
          await trx
            .insertInto('accounts')
            .values({ name: 'Ownerless', platform: 'zoom', email_domain: null })
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id,
    );
    const none = await t.call('POST', '/watch-tower/ghost-mode', { as: STAFF, body: { accountId: id } });
    expect(none.status).toBe(409);
    expect(await none.json()).toMatchObject({ code: 'NO_OWNER' });
    expect(
      (
        await t.call('POST', '/watch-tower/ghost-mode', {
          as: STAFF,
          body: { accountId: '00000000-0000-4000-8000-000000000000' },
        })
      ).status,
    ).toBe(404);
    expect((await t.call('POST', '/watch-tower/ghost-mode', { as: STAFF, body: { accountId: 'acme' } })).status).toBe(400);
  });

  it('ending fails once the staff member is no longer provider staff', async () => {
    const token = await startGhost(t);
    const staffId = t.account('provider').adminIds[STAFF]!;
    await t.db.system((trx) => trx.updateTable('admins').set({ is_root: false }).where('id', '=', staffId).execute());
    try {
      const res = await t.call('DELETE', '/ghost-mode', { token });
      expect(res.status).toBe(403);
    } finally {
      await t.db.system((trx) => trx.updateTable('admins').set({ is_root: true }).where('id', '=', staffId).execute());
    }
  });
});
