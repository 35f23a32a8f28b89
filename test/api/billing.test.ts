import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { DATABASE_KINDS, useTestContext } from './helpers';
import { plansOf } from '../../api/contract/plans';
import type { AppBillingDetail, BillingOverview } from '../../api/contract/billing';

describe.each(DATABASE_KINDS)('billing (%s)', (kind) => {
  const t = useTestContext(kind);

  it('starting a free trial on an inactive app answers 201 with the new billing', async () => {
    const res = await t.call('POST', '/document-signature/billing/free-trial', { as: 'admin@acme.test', body: {} });
    expect(res.status).toBe(201);
    const body = (await res.json()) as { status: string; trialEndsAt: string; usage: unknown };
    expect(body.status).toBe('free-trial');
    expect(new Date(body.trialEndsAt).getTime()).toBeGreaterThan(Date.now());
    expect(body.usage).toEqual({ status: 'ok', credits: 0, freeTier: 100 });
  });

  it('the free trial is written to the audit log in the same change', async () => {
    const acme = t.account('acme');
    const rows = await t.db.tenant(acme.id, (trx) =>
      trx.selectFrom('audit_log').selectAll().where('event', '=', 'billing.free-trial-started').execute(),
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ namespace: 'document-signature', admin_first_name: 'Adam' });
  });

  it('a second free trial of the same app is refused with 409 and changes nothing', async () => {
    const res = await t.call('POST', '/document-signature/billing/free-trial', { as: 'admin@acme.test', body: {} });
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({ code: 'TRIAL_NOT_AVAILABLE' });
    const n = await t.db.tenant(
      t.account('acme').id,
      async (trx) =>
        (
          await sql<{ n: number }>`select count(*)::int as n from audit_log where event = 'billing.free-trial-started'`.execute(
            trx,
          )
        ).rows[0].n,
    );
    expect(n).toBe(1);
  });

  it('a supervisor cannot start a free trial (403)', async () => {
    const res = await t.call('POST', '/payments/billing/free-trial', { as: 'supervisor@acme.test', body: {} });
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ code: 'FORBIDDEN' });
  });

  it('an unknown app answers 404', async () => {
    const res = await t.call('GET', '/no-such-app/billing/usage', { as: 'admin@acme.test' });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ code: 'APP_NOT_FOUND' });
  });

  it('a malformed JSON body answers 400, not 500', async () => {
    const res = await t.call('POST', '/payments/billing/free-trial', { as: 'admin@acme.test', body: '{not json' });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 'INVALID_BODY' });
  });

  it('usage reports credits against the free tier', async () => {
    const res = await t.call('GET', '/passkeys/billing/usage', { as: 'owner@acme.test' });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'near-limit', credits: 86, freeTier: 100 });
  });

  it("usage is the caller's own account's", async () => {
    const res = await t.call('GET', '/passkeys/billing/usage', { as: 'owner@globex.test' });
    expect(await res.json()).toEqual({ status: 'ok', credits: 0, freeTier: 0 });
  });

  it('app start on an inactive app starts its free trial and answers the billing', async () => {
    const res = await t.call('POST', '/apps/start', { as: 'owner@acme.test', body: { app: 'payments' } });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      app: 'payments',
      started: true,
      billing: { status: 'free-trial', usage: { credits: 0, freeTier: 100 } },
    });
  });

  it('app start on an active app leaves it as it is', async () => {
    const res = await t.call('POST', '/apps/start', { as: 'owner@acme.test', body: { app: 'one-time-passcode' } });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ app: 'one-time-passcode', started: false, billing: { status: 'subscription' } });
  });

  it('a supervisor may open an active app through app start but not start an inactive one', async () => {
    const active = await t.call('POST', '/apps/start', { as: 'supervisor@acme.test', body: { app: 'e-form' } });
    expect(active.status).toBe(200);
    expect(await active.json()).toMatchObject({ started: false, billing: { status: 'free-trial' } });
    const acme = t.account('acme').id;
    await t.db.tenant(acme, (trx) =>
      trx
        .updateTable('app_billing')
        .set({ status: 'inactive', trial_ends_at: null })
        .where('account_id', '=', acme)
        .where('app', '=', 'payments')
        .execute(),
    );
    const refused = await t.call('POST', '/apps/start', { as: 'supervisor@acme.test', body: { app: 'payments' } });
    expect(refused.status).toBe(403);
    const row = await t.db.tenant(acme, (trx) =>
      trx.selectFrom('app_billing').select('status').where('app', '=', 'payments').executeTakeFirstOrThrow(),
    );
    expect(row.status).toBe('inactive');
  });

  it('app start of an unknown app is a 400 naming the field, and changes nothing', async () => {
    const res = await t.call('POST', '/apps/start', { as: 'owner@acme.test', body: { app: 'nope' } });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 'VALIDATION_FAILED', fields: { app: 'There is no such app.' } });
  });

  it('an unreleased app does not exist for a customer account', async () => {
    const res = await t.call('POST', '/apps/start', { as: 'owner@acme.test', body: { app: 'identity-verification' } });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ code: 'APP_NOT_FOUND' });
  });
});

describe.each(DATABASE_KINDS)('one usage figure (%s)', (kind) => {
  const t = useTestContext(kind);

  it("the header, the app's billing page and its chart, Settings > Billing, Watch Tower and the plan agree on a subscription's usage and limit", async () => {
    const as = { as: 'owner@acme.test' };
    const header = (await (await t.call('GET', '/one-time-passcode/billing/usage', as)).json()) as {
      credits: number;
      freeTier: number;
    };
    const page = (await (await t.call('GET', '/one-time-passcode/billing', as)).json()) as AppBillingDetail;
    const overview = (await (await t.call('GET', '/billing', as)).json()) as BillingOverview;
    const tower = (await (
      await t.call('GET', `/watch-tower/accounts/${t.account('acme').id}`, { as: 'staff@provider.test' })
    ).json()) as { apps: { id: string; credits: number; freeTier: number }[] };
    const card = overview.apps.find((a) => a.app === 'one-time-passcode')!;
    const row = tower.apps.find((a) => a.id === 'one-time-passcode')!;
    expect(header.freeTier).toBe(plansOf('one-time-passcode')!.includedCredits);
    for (const usage of [page.usage, card.usage, { credits: row.credits, freeTier: row.freeTier }])
      expect([usage.credits, usage.freeTier]).toEqual([header.credits, header.freeTier]);
    // the daily chart adds up to the same figure
    expect(page.daily.current.reduce((sum, d) => sum + d.count, 0)).toBe(header.credits);
  });

  it("the billing chart's current period ends today, not tomorrow", async () => {
    const page = (await (
      await t.call('GET', '/one-time-passcode/billing', { as: 'owner@acme.test' })
    ).json()) as AppBillingDetail;
    expect(page.daily.current.at(-1)!.date).toBe(t.clock.now.toISOString().slice(0, 10));
  });

  it("the billing chart's last period ends the day before this period's first day: no day is in both", async () => {
    const page = (await (
      await t.call('GET', '/one-time-passcode/billing', { as: 'owner@acme.test' })
    ).json()) as AppBillingDetail;
    const current = page.daily.current.map((d) => d.date);
    const previous = page.daily.previous.map((d) => d.date);
    expect(previous.filter((d) => current.includes(d))).toEqual([]);
    const dayBefore = new Date(Date.parse(`${current[0]}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
    expect(previous.at(-1)).toBe(dayBefore);
  });
});
