import { describe, expect, it } from 'vitest';
import { resolveVerifiedEmail } from '../../api/identity/resolve';
import { DATABASE_KINDS, useTestContext } from './helpers';

describe.each(DATABASE_KINDS)('first sign-in rules (%s)', (kind) => {
  const t = useTestContext(kind);

  it('an existing admin signs in to their account', async () => {
    const r = await resolveVerifiedEmail(t.deps, { email: 'Admin@Acme.test', platform: 'google' });
    expect(r.outcome).toBe('existing');
    expect(r.admin.account_id).toBe(t.account('acme').id);
  });

  it('an e-mail with a pending invitation joins that account with the invited role', async () => {
    const acme = t.account('acme');
    await t.db.tenant(acme.id, (trx) =>
      trx
        .insertInto('invitations')
        .values({
          account_id: acme.id,
          email: 'new.person@acme.test',
          role: 'supervisor',
          expires_at: new Date(t.clock.now.getTime() + 86_400_000),
          invited_by: null,
        })
        .execute(),
    );
    const r = await resolveVerifiedEmail(t.deps, {
      email: 'new.person@acme.test',
      firstName: 'New',
      lastName: 'Person',
      platform: 'google',
    });
    expect(r).toMatchObject({ outcome: 'invitation', admin: { account_id: acme.id, role: 'supervisor' } });
    const left = await t.db.tenant(acme.id, (trx) =>
      trx.selectFrom('invitations').select('id').where('email', '=', 'new.person@acme.test').execute(),
    );
    expect(left).toHaveLength(0);
  });

  it('invited by two accounts, the person joins the invitation sent last; the other account sees it declined, not gone', async () => {
    const email = 'contractor@freelance-ops.test';
    const first = await t.call('POST', '/invitations', { as: 'owner@globex.test', body: { email, role: 'supervisor' } });
    expect(first.status).toBe(201);
    t.clock.now = new Date(t.clock.now.getTime() + 60_000);
    const second = await t.call('POST', '/invitations', { as: 'owner@acme.test', body: { email, role: 'admin' } });
    expect(second.status).toBe(201);
    const r = await resolveVerifiedEmail(t.deps, { email, platform: 'google' });
    expect(r).toMatchObject({ outcome: 'invitation', admin: { account_id: t.account('acme').id, role: 'admin' } });
    const acme = (await (await t.call('GET', '/invitations', { as: 'owner@acme.test' })).json()) as { email: string }[];
    expect(acme.map((i) => i.email)).not.toContain(email);
    const globex = (await (await t.call('GET', '/invitations', { as: 'owner@globex.test' })).json()) as {
      email: string;
      status: string;
    }[];
    expect(globex.find((i) => i.email === email)).toMatchObject({ status: 'accepted-elsewhere', role: 'supervisor' });
  });

  it('a declined invitation sent again is pending once more', async () => {
    const email = 'contractor@freelance-ops.test';
    const again = await t.call('POST', '/invitations', { as: 'owner@globex.test', body: { email, role: 'supervisor' } });
    expect(await again.json()).toMatchObject({ email, status: 'pending' });
  });

  it('an expired invitation does not admit anyone, and the company domain answers ACCOUNT_EXISTS', async () => {
    const acme = t.account('acme');
    await t.db.tenant(acme.id, (trx) =>
      trx
        .insertInto('invitations')
        .values({
          account_id: acme.id,
          email: 'late@acme.test',
          role: 'admin',
          expires_at: new Date(t.clock.now.getTime() - 1000),
          invited_by: null,
        })
        .execute(),
    );
    await expect(resolveVerifiedEmail(t.deps, { email: 'late@acme.test', platform: 'google' })).rejects.toMatchObject({
      status: 403,
      code: 'ACCOUNT_EXISTS',
    });
  });

  it('a new company gets a new account with the person as owner', async () => {
    const r = await resolveVerifiedEmail(t.deps, {
      email: 'founder@initech-support.test',
      firstName: 'Ina',
      lastName: 'Tech',
      platform: 'azure',
    });
    expect(r.outcome).toBe('created');
    expect(r.admin.role).toBe('owner');
    const account = await t.db.tenant(r.admin.account_id, (trx) =>
      trx.selectFrom('accounts').selectAll().executeTakeFirstOrThrow(),
    );
    expect(account).toMatchObject({ name: 'Initech Support', platform: 'azure', email_domain: 'initech-support.test' });
  });

  it('public mail domains never match a company: two gmail users get two accounts', async () => {
    const a = await resolveVerifiedEmail(t.deps, { email: 'one@gmail.com', platform: 'google' });
    const b = await resolveVerifiedEmail(t.deps, { email: 'two@gmail.com', platform: 'google' });
    expect(a.outcome).toBe('created');
    expect(b.outcome).toBe('created');
    expect(a.admin.account_id).not.toBe(b.admin.account_id);
  });
});
