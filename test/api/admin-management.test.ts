import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { DATABASE_KINDS, useTestContext, type TestContext } from './helpers';
import { resolveVerifiedEmail } from '../../api/identity/resolve';

type AdminItem = { id: string; firstName: string; lastName: string; email: string; role: string };
type Invitation = { id: string; email: string; role: string; expiresAt: string };

async function auditEvents(t: TestContext, key: 'acme' | 'globex') {
  return t.db.tenant(
    t.account(key).id,
    async (trx) =>
      (await sql<{ event: string; description: string }>`select event, description from audit_log order by id`.execute(trx)).rows,
  );
}

async function activeAdmins(t: TestContext, key: 'acme' | 'globex') {
  return t.db.tenant(t.account(key).id, (trx) =>
    trx.selectFrom('admins').select(['id', 'email', 'role']).where('archived_at', 'is', null).orderBy('email').execute(),
  );
}

describe.each(DATABASE_KINDS)('admin management (%s)', (kind) => {
  const t = useTestContext(kind);
  const idOf = (email: string) => {
    for (const a of t.accounts) if (a.adminIds[email]) return a.adminIds[email]!;
    throw new Error(email);
  };

  it('lists the active admins, the owner first', async () => {
    const res = await t.call('GET', '/admins', { as: 'admin@acme.test' });
    expect(res.status).toBe(200);
    const list = (await res.json()) as AdminItem[];
    expect(list.map((a) => [a.email, a.role])).toEqual([
      ['owner@acme.test', 'owner'],
      ['admin@acme.test', 'admin'],
      ['supervisor@acme.test', 'supervisor'],
    ]);
    expect(list[0]).toEqual({
      id: idOf('owner@acme.test'),
      firstName: 'Olivia',
      lastName: 'Owens',
      email: 'owner@acme.test',
      role: 'owner',
    });
  });

  it('a supervisor may not list or change admins (403)', async () => {
    expect((await t.call('GET', '/admins', { as: 'supervisor@acme.test' })).status).toBe(403);
    const res = await t.call('PUT', `/admins/${idOf('admin@acme.test')}/role`, {
      as: 'supervisor@acme.test',
      body: { role: 'supervisor' },
    });
    expect(res.status).toBe(403);
    expect((await activeAdmins(t, 'acme')).find((a) => a.email === 'admin@acme.test')?.role).toBe('admin');
  });

  it("another account's admin id answers 404 and changes nothing", async () => {
    const globexOwner = idOf('owner@globex.test');
    for (const [method, path, body] of [
      ['PUT', `/admins/${globexOwner}/role`, { role: 'admin' }],
      ['DELETE', `/admins/${globexOwner}`, undefined],
    ] as const) {
      const res = await t.call(method, path, { as: 'owner@acme.test', body });
      expect(res.status).toBe(404);
      expect(JSON.stringify(await res.json())).not.toMatch(/globex|Grace/i);
    }
    expect(await activeAdmins(t, 'globex')).toEqual([{ id: globexOwner, email: 'owner@globex.test', role: 'owner' }]);
  });

  it('a malformed id answers 404', async () => {
    expect((await t.call('DELETE', '/admins/not-a-uuid', { as: 'owner@acme.test' })).status).toBe(404);
  });

  it("the owner's role cannot be changed", async () => {
    const res = await t.call('PUT', `/admins/${idOf('owner@acme.test')}/role`, {
      as: 'admin@acme.test',
      body: { role: 'supervisor' },
    });
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({ code: 'OWNER_IMMUTABLE' });
  });

  it('nobody is made owner through a role change (400)', async () => {
    const res = await t.call('PUT', `/admins/${idOf('supervisor@acme.test')}/role`, {
      as: 'owner@acme.test',
      body: { role: 'owner' },
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
  });

  it('an admin cannot change their own role', async () => {
    const res = await t.call('PUT', `/admins/${idOf('admin@acme.test')}/role`, {
      as: 'admin@acme.test',
      body: { role: 'supervisor' },
    });
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({ code: 'CANNOT_CHANGE_OWN_ROLE' });
  });

  it('changing a supervisor to admin answers the updated admin and is audited', async () => {
    const res = await t.call('PUT', `/admins/${idOf('supervisor@acme.test')}/role`, {
      as: 'admin@acme.test',
      body: { role: 'admin' },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ email: 'supervisor@acme.test', role: 'admin' });
    const last = (await auditEvents(t, 'acme')).at(-1)!;
    expect(last).toEqual({
      event: 'admin.role-changed',
      description: 'Changed the role of Sam Silva (supervisor@acme.test) from supervisor to admin',
    });
  });

  it("a role change ends the admin's sessions at once: the next call answers 401 SESSION_REVOKED", async () => {
    const token = await t.tokenFor('supervisor@acme.test');
    expect((await t.call('GET', '/admins', { token })).status).toBe(200);
    await t.call('PUT', `/admins/${idOf('supervisor@acme.test')}/role`, { as: 'owner@acme.test', body: { role: 'supervisor' } });
    const res = await t.call('GET', '/admins/bootstrap', { token });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ code: 'SESSION_REVOKED' });
  });

  it('the owner cannot be archived', async () => {
    const res = await t.call('DELETE', `/admins/${idOf('owner@acme.test')}`, { as: 'admin@acme.test' });
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({ code: 'OWNER_IMMUTABLE' });
  });

  it('nobody can archive themselves', async () => {
    const res = await t.call('DELETE', `/admins/${idOf('admin@acme.test')}`, { as: 'admin@acme.test' });
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({ code: 'CANNOT_ARCHIVE_SELF' });
    expect((await activeAdmins(t, 'acme')).map((a) => a.email)).toContain('admin@acme.test');
  });

  it('archiving an admin removes them from the list, ends their access and is audited', async () => {
    const token = await t.tokenFor('supervisor@acme.test');
    const res = await t.call('DELETE', `/admins/${idOf('supervisor@acme.test')}`, { as: 'owner@acme.test' });
    expect(res.status).toBe(200);
    const list = (await (await t.call('GET', '/admins', { as: 'owner@acme.test' })).json()) as AdminItem[];
    expect(list.map((a) => a.email)).not.toContain('supervisor@acme.test');
    expect((await t.call('GET', '/admins/bootstrap', { token })).status).toBe(401);
    expect((await auditEvents(t, 'acme')).at(-1)).toMatchObject({ event: 'admin.archived' });
  });
});

describe.each(DATABASE_KINDS)('invitations (%s)', (kind) => {
  const t = useTestContext(kind, { invitationDays: 3 });

  it('inviting an e-mail answers 201 with an invitation that expires after the configured days', async () => {
    const res = await t.call('POST', '/invitations', { as: 'admin@acme.test', body: { email: ' New.Person@Acme.test ' } });
    expect(res.status).toBe(201);
    const inv = (await res.json()) as Invitation;
    expect(inv).toMatchObject({ email: 'new.person@acme.test', role: 'admin' });
    expect(new Date(inv.expiresAt).getTime() - t.clock.now.getTime()).toBe(3 * 86_400_000);
    const rows = await t.db.tenant(t.account('acme').id, (trx) =>
      trx.selectFrom('audit_log').select('description').where('event', '=', 'invitation.created').execute(),
    );
    expect(rows).toEqual([{ description: 'Invited new.person@acme.test as admin' }]);
  });

  it('lists the pending invitations', async () => {
    await t.call('POST', '/invitations', { as: 'admin@acme.test', body: { email: 'sup@acme.test', role: 'supervisor' } });
    const res = await t.call('GET', '/invitations', { as: 'admin@acme.test' });
    expect(res.status).toBe(200);
    const list = (await res.json()) as Invitation[];
    expect(list.map((i) => [i.email, i.role]).sort()).toEqual([
      ['new.person@acme.test', 'admin'],
      ['sup@acme.test', 'supervisor'],
    ]);
  });

  it('inviting the same e-mail again renews the invitation instead of duplicating it', async () => {
    t.clock.now = new Date(t.clock.now.getTime() + 86_400_000);
    const res = await t.call('POST', '/invitations', {
      as: 'admin@acme.test',
      body: { email: 'sup@acme.test', role: 'supervisor' },
    });
    expect(res.status).toBe(201);
    const list = (await (await t.call('GET', '/invitations', { as: 'admin@acme.test' })).json()) as Invitation[];
    const sup = list.filter((i) => i.email === 'sup@acme.test');
    expect(sup).toHaveLength(1);
    expect(new Date(sup[0]!.expiresAt).getTime()).toBe(t.clock.now.getTime() + 3 * 86_400_000);
  });

  it('an invalid e-mail is refused with 400 and nothing is created', async () => {
    const res = await t.call('POST', '/invitations', { as: 'admin@acme.test', body: { email: 'not-an-email' } });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 'VALIDATION_FAILED', fields: { email: expect.any(String) } });
    const list = (await (await t.call('GET', '/invitations', { as: 'admin@acme.test' })).json()) as Invitation[];
    expect(list).toHaveLength(2);
  });

  it('inviting someone who is already an admin here is refused', async () => {
    const here = await t.call('POST', '/invitations', { as: 'admin@acme.test', body: { email: 'owner@acme.test' } });
    expect(here.status).toBe(409);
    expect(await here.json()).toMatchObject({ code: 'ALREADY_ADMIN' });
  });

  it('inviting an admin of another account answers exactly as for an address nobody uses', async () => {
    const strip = async (res: Response) => {
      const { id: _id, email: _email, expiresAt: _at, ...rest } = (await res.json()) as Invitation;
      return { status: res.status, body: rest, keys: [...res.headers.keys()].sort() };
    };
    const elsewhere = await strip(
      await t.call('POST', '/invitations', { as: 'admin@acme.test', body: { email: 'owner@globex.test' } }),
    );
    const unknown = await strip(
      await t.call('POST', '/invitations', { as: 'admin@acme.test', body: { email: 'nobody-here@globex.test' } }),
    );
    expect(elsewhere).toEqual(unknown);
    expect(elsewhere.status).toBe(201);
    // leave the list as the tests after this one expect it
    await t.db.tenant(t.account('acme').id, (trx) =>
      trx.deleteFrom('invitations').where('email', 'in', ['owner@globex.test', 'nobody-here@globex.test']).execute(),
    );
  });

  it('a supervisor may not invite (403)', async () => {
    const res = await t.call('POST', '/invitations', { as: 'supervisor@acme.test', body: { email: 'x@acme.test' } });
    expect(res.status).toBe(403);
  });

  it("changing an invitation's role answers the updated invitation", async () => {
    const list = (await (await t.call('GET', '/invitations', { as: 'admin@acme.test' })).json()) as Invitation[];
    const inv = list.find((i) => i.email === 'sup@acme.test')!;
    const res = await t.call('PUT', `/invitations/${inv.id}/role`, { as: 'admin@acme.test', body: { role: 'admin' } });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ id: inv.id, role: 'admin' });
  });

  it('an invitation role other than admin or supervisor is refused (400)', async () => {
    const list = (await (await t.call('GET', '/invitations', { as: 'admin@acme.test' })).json()) as Invitation[];
    const res = await t.call('PUT', `/invitations/${list[0]!.id}/role`, { as: 'admin@acme.test', body: { role: 'owner' } });
    expect(res.status).toBe(400);
  });

  it("another account's invitation answers 404 and is left alone", async () => {
    const created = (await (
      await t.call('POST', '/invitations', { as: 'owner@globex.test', body: { email: 'agent@globex.test' } })
    ).json()) as Invitation;
    const res = await t.call('PUT', `/invitations/${created.id}/role`, { as: 'owner@acme.test', body: { role: 'supervisor' } });
    expect(res.status).toBe(404);
    const revoke = await t.call('DELETE', '/invitations', { as: 'owner@acme.test', body: { email: 'agent@globex.test' } });
    expect(revoke.status).toBe(404);
    const globex = (await (await t.call('GET', '/invitations', { as: 'owner@globex.test' })).json()) as Invitation[];
    expect(globex).toEqual([created]);
    const acme = (await (await t.call('GET', '/invitations', { as: 'owner@acme.test' })).json()) as Invitation[];
    expect(acme.map((i) => i.email)).not.toContain('agent@globex.test');
  });

  it('revoking an invitation by e-mail removes it and is audited', async () => {
    const res = await t.call('DELETE', '/invitations', { as: 'admin@acme.test', body: { email: 'sup@acme.test' } });
    expect(res.status).toBe(200);
    const list = (await (await t.call('GET', '/invitations', { as: 'admin@acme.test' })).json()) as Invitation[];
    expect(list.map((i) => i.email)).toEqual(['new.person@acme.test']);
    const rows = await t.db.tenant(t.account('acme').id, (trx) =>
      trx.selectFrom('audit_log').select('description').where('event', '=', 'invitation.revoked').execute(),
    );
    expect(rows).toEqual([{ description: 'Revoked the invitation of sup@acme.test' }]);
  });

  it('revoking an invitation that does not exist answers 404', async () => {
    const res = await t.call('DELETE', '/invitations', { as: 'admin@acme.test', body: { email: 'nobody@acme.test' } });
    expect(res.status).toBe(404);
  });

  it('the invited person joins the account with the invited role when they sign in', async () => {
    const { admin, outcome } = await resolveVerifiedEmail(t.deps, { email: 'new.person@acme.test', platform: 'google' });
    expect(outcome).toBe('invitation');
    expect(admin).toMatchObject({ account_id: t.account('acme').id, role: 'admin' });
  });

  it('an expired invitation no longer lets anyone in', async () => {
    await t.call('POST', '/invitations', { as: 'admin@acme.test', body: { email: 'late@example.org' } });
    t.clock.now = new Date(t.clock.now.getTime() + 4 * 86_400_000);
    const list = (await (await t.call('GET', '/invitations', { as: 'admin@acme.test' })).json()) as Invitation[];
    const late = list.find((i) => i.email === 'late@example.org')!;
    expect(new Date(late.expiresAt).getTime()).toBeLessThan(t.clock.now.getTime());
    const { outcome } = await resolveVerifiedEmail(t.deps, { email: 'late@example.org', platform: 'google' });
    expect(outcome).toBe('created');
  });
});
