import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { NotificationListSchema } from '../../api/contract/notifications';
import { resolveVerifiedEmail } from '../../api/identity/resolve';
import { DATABASE_KINDS, useTestContext, type TestContext } from './helpers';

async function list(t: TestContext, as: string) {
  const res = await t.call('GET', '/notifications', { as });
  expect(res.status).toBe(200);
  return v.parse(NotificationListSchema, await res.json());
}

describe.each(DATABASE_KINDS)('notifications (%s)', (kind) => {
  const t = useTestContext(kind);

  it('credits past 80% of the free tier appear once, however often the bell is read', async () => {
    await list(t, 'owner@acme.test');
    const body = await list(t, 'owner@acme.test');
    const credits = body.notifications.filter((n) => n.kind === 'credits.high');
    // passkeys: 86 of 100; one-time passcode: 840 of the 1,000 its subscription includes (84%)
    expect(credits.map((n) => n.title).sort()).toEqual([
      'One-Time Passcode has used 84% of its credits',
      'Passkeys has used 86% of its credits',
    ]);
    expect(credits[0]!.link).toMatch(/\/settings\/billing$/);
  });

  it('a credits notification writes the amounts as the console does: 840 / 1,000', async () => {
    const body = await list(t, 'owner@acme.test');
    const otp = body.notifications.find((n) => n.kind === 'credits.high' && n.title.startsWith('One-Time Passcode'))!;
    expect(otp.body).toBe('840 / 1,000 credits are used.');
  });

  it('a free trial ending within 7 days is announced, opening the pricing page to subscribe from; one further off is not', async () => {
    const umbrella = await list(t, 'owner@umbrella.test');
    const trial = umbrella.notifications.find((n) => n.kind === 'trial.ending');
    // the same reminder as the billing job's (api/billing/jobs.ts), whichever comes first
    expect(trial?.link).toMatch(/^\/[a-z-]+\/pricing$/);
    expect(trial?.body).toMatch(/^The free trial ends on .+\. Subscribe to keep using .+\.$/);
    const acme = await list(t, 'owner@acme.test');
    expect(acme.notifications.map((n) => n.kind)).not.toContain('trial.ending');
  });

  it('an accepted invitation notifies the account in the same sign-in', async () => {
    const acme = t.account('acme');
    await t.db.tenant(acme.id, (trx) =>
      trx
        .insertInto('invitations')
        .values({
          account_id: acme.id,
          email: 'joiner@acme.test',
          role: 'admin',
          expires_at: new Date(t.clock.now.getTime() + 86_400_000),
          invited_by: null,
        })
        .execute(),
    );
    await resolveVerifiedEmail(t.deps, { email: 'joiner@acme.test', firstName: 'Jo', lastName: 'Iner', platform: 'google' });
    const body = await list(t, 'admin@acme.test');
    expect(body.notifications[0]).toMatchObject({
      kind: 'invitation.accepted',
      title: 'Jo Iner accepted the invitation',
      read: false,
      link: '/settings/admin-management',
    });
  });

  it('verifying the custom domain notifies the account', async () => {
    const globex = t.account('globex');
    await t.db.tenant(globex.id, (trx) =>
      trx.updateTable('branding').set({ domain: 'console.globex.test' }).where('account_id', '=', globex.id).execute(),
    );
    expect((await list(t, 'owner@globex.test')).notifications.map((n) => n.kind)).not.toContain('domain.verified');
    await t.db.tenant(globex.id, (trx) =>
      trx.updateTable('branding').set({ domain_is_verified: true }).where('account_id', '=', globex.id).execute(),
    );
    const body = await list(t, 'owner@globex.test');
    expect(body.notifications[0]).toMatchObject({
      kind: 'domain.verified',
      title: 'Custom domain verified',
      body: 'console.globex.test now points to your console.',
    });
  });

  it('an account sees only its own notifications', async () => {
    const globex = await list(t, 'owner@globex.test');
    expect(globex.notifications.map((n) => n.kind)).not.toContain('invitation.accepted');
    expect(globex.notifications.every((n) => !n.title.includes('Passkeys'))).toBe(true);
  });

  it("marking one as read lowers that admin's unread count only", async () => {
    const before = await list(t, 'owner@acme.test');
    const target = before.notifications.find((n) => !n.read)!;
    const res = await t.call('POST', '/notifications/read', { as: 'owner@acme.test', body: { id: target.id } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ unread: before.unread - 1 });
    const after = await list(t, 'owner@acme.test');
    expect(after.notifications.find((n) => n.id === target.id)!.read).toBe(true);
    const other = await list(t, 'admin@acme.test');
    expect(other.notifications.find((n) => n.id === target.id)!.read).toBe(false);
  });

  it('marking all as read leaves no unread', async () => {
    const res = await t.call('POST', '/notifications/read', { as: 'admin@acme.test', body: { all: true } });
    expect(await res.json()).toEqual({ unread: 0 });
    const body = await list(t, 'admin@acme.test');
    expect(body.unread).toBe(0);
    expect(body.notifications.every((n) => n.read)).toBe(true);
  });

  it("another account's notification or a malformed body cannot be marked (404, 400)", async () => {
    const acmeOne = (await list(t, 'owner@acme.test')).notifications[0]!;
    const res = await t.call('POST', '/notifications/read', { as: 'owner@globex.test', body: { id: acmeOne.id } });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ code: 'NOTIFICATION_NOT_FOUND' });
    expect((await t.call('POST', '/notifications/read', { as: 'owner@acme.test', body: { all: false } })).status).toBe(400);
    expect((await t.call('POST', '/notifications/read', { as: 'owner@acme.test', body: { id: 'x' } })).status).toBe(400);
  });

  it('the bell is for admins and owners: a supervisor gets 403', async () => {
    expect((await t.call('GET', '/notifications', { as: 'supervisor@acme.test' })).status).toBe(403);
  });

  it("staff in ghost mode cannot mark the account's notifications as read (409)", async () => {
    const start = await t.call('POST', '/watch-tower/ghost-mode', {
      as: 'staff@provider.test',
      body: { accountId: t.account('acme').id },
    });
    const { token } = (await start.json()) as { token: string };
    expect((await t.call('GET', '/notifications', { token })).status).toBe(200);
    const res = await t.call('POST', '/notifications/read', { token, body: { all: true } });
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({ code: 'GHOST_MODE' });
  });
});
