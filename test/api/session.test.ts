import { describe, expect, it } from 'vitest';
import { BootstrapSchema } from '../../api/contract/session';
import * as v from 'valibot';
import { BOTH_DATABASE_KINDS, useTestContext } from './helpers';

describe.each(BOTH_DATABASE_KINDS)('session and bootstrap (%s)', (kind) => {
  const t = useTestContext(kind);

  it('bootstrap answers the signed-in admin with account, billing per app and branding', async () => {
    const res = await t.call('GET', '/admins/bootstrap', { as: 'owner@acme.test' });
    expect(res.status).toBe(200);
    const body = v.parse(BootstrapSchema, await res.json());
    expect(body.email).toBe('owner@acme.test');
    expect(body.role).toBe('owner');
    expect(body.account.name).toBe('Acme Support');
    expect(body.billing['one-time-passcode'].status).toBe('subscription');
    expect(body.billing['document-signature'].status).toBe('inactive');
    expect(body.billing.passkeys.usage).toEqual({ status: 'near-limit', credits: 86, freeTier: 100 });
    expect(body.branding.name).toBe('Acme Support');
  });

  it('identity verification is listed only for provider-domain users', async () => {
    const acme = (await (await t.call('GET', '/admins/bootstrap', { as: 'owner@acme.test' })).json()) as { apps: string[] };
    const staff = (await (await t.call('GET', '/admins/bootstrap', { as: 'staff@provider.test' })).json()) as {
      apps: string[];
      isRoot: boolean;
    };
    expect(acme.apps).not.toContain('identity-verification');
    expect(staff.apps).toContain('identity-verification');
    expect(staff.isRoot).toBe(true);
  });

  it('the token is also accepted as a token query parameter', async () => {
    const token = await t.tokenFor('admin@acme.test');
    const res = await t.app.request(`/api/admins/bootstrap?token=${token}`);
    expect(res.status).toBe(200);
  });

  it('no token answers 401 UNAUTHORIZED', async () => {
    const res = await t.call('GET', '/admins/bootstrap');
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('an expired token answers 401 JWT_EXPIRED', async () => {
    const token = await t.tokenFor('owner@acme.test');
    const saved = t.clock.now;
    t.clock.now = new Date(saved.getTime() + (t.config.sessionHours + 1) * 3600_000);
    try {
      const res = await t.call('GET', '/admins/bootstrap', { token });
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ code: 'JWT_EXPIRED' });
    } finally {
      t.clock.now = saved;
    }
  });

  it('a token signed with another secret answers 401 TOKEN_INVALID', async () => {
    const { tokenSigner } = await import('../../api/auth/token');
    const forged = await tokenSigner('another-secret-another-secret-another').sign(
      {
        sid: crypto.randomUUID(),
        sub: t.account('acme').adminIds['owner@acme.test'],
        acc: t.account('acme').id,
        role: 'owner',
        root: true,
        ghost: false,
        email: 'owner@acme.test',
      },
      3600,
    );
    const res = await t.call('GET', '/admins/bootstrap', { token: forged });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ code: 'TOKEN_INVALID' });
  });

  it('an archived admin loses access at once, before the token expires', async () => {
    const token = await t.tokenFor('supervisor@acme.test');
    const acme = t.account('acme');
    await t.db.tenant(acme.id, (trx) =>
      trx.updateTable('admins').set({ archived_at: new Date() }).where('email', '=', 'supervisor@acme.test').execute(),
    );
    try {
      const res = await t.call('GET', '/admins/bootstrap', { token });
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ code: 'ADMIN_NOT_FOUND' });
    } finally {
      await t.db.tenant(acme.id, (trx) =>
        trx.updateTable('admins').set({ archived_at: null }).where('email', '=', 'supervisor@acme.test').execute(),
      );
    }
  });

  it('an unknown API route answers 404 with a code', async () => {
    const res = await t.call('GET', '/no-such-thing', { as: 'owner@acme.test' });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ code: 'NOT_FOUND' });
  });
});
