import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import Stripe from 'stripe';
import { DATABASE_KINDS, useTestContext, type TestContext } from './helpers';
import { startStripePeer, type StripePeer } from '../support/stripe-peer';
import { assertAppUsable, chargeCredits } from '../../api/usage/credits';
import { reportOverage } from '../../api/billing/jobs';
import { plansOf } from '../../api/contract/plans';
import type { AppBillingDetail, InvoicesAnswer, SubscriptionPricesAnswer } from '../../api/contract/billing';
import { STATE_MESSAGES } from '../../api/contract/stripe-states';

const WEBHOOK_SECRET = 'whsec_loopback_test_secret';
const ADMIN = 'admin@acme.test';

/** Server settings pointing at a loopback Stripe; filled in once the peer listens. */
function stripeEnv(peer: StripePeer): Record<string, string> {
  return {
    STRIPE_SECRET_KEY: 'sk_test_loopback',
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_API_BASE: peer.url,
    STRIPE_PRICE_DOCUMENT_SIGNATURE: 'price_docsig_monthly',
    STRIPE_PRICE_E_FORM: 'price_eform_monthly',
    STRIPE_PRICE_ONE_TIME_PASSCODE: 'price_otp_monthly',
    STRIPE_PRICE_PAYMENTS: 'price_payments_monthly',
    STRIPE_PRICE_PASSKEYS: 'price_passkeys_monthly',
  };
}

function withStripePeer(): { peer: () => StripePeer; t: (kind: Parameters<typeof useTestContext>[0]) => TestContext } {
  let peer: StripePeer;
  const raw: Record<string, string> = {};
  let ctx: TestContext;
  beforeAll(async () => {
    peer = await startStripePeer({
      webhookSecret: WEBHOOK_SECRET,
      secretKeys: ['sk_test_loopback'],
      deliver: async (payload, signature) =>
        (
          await ctx.app.request('/api/stripe/webhook', {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'stripe-signature': signature },
            body: payload,
          })
        ).status,
    });
    peer.objects.set('price_docsig_monthly', {
      id: 'price_docsig_monthly',
      object: 'price',
      unit_amount: plansOf('document-signature')!.monthlyPriceCents,
      currency: 'usd',
    });
    Object.assign(raw, stripeEnv(peer));
  });
  afterAll(async () => peer?.close());
  return {
    peer: () => peer,
    t: (kind) => (ctx = useTestContext(kind, { raw })),
  };
}

const detail = async (t: TestContext, app: string) =>
  (await (await t.call('GET', `/${app}/billing`, { as: ADMIN })).json()) as AppBillingDetail;
const sessionIdOf = (url: string) => url.split('/').pop()!;
const subscriptions = (peer: StripePeer) => [...peer.objects.values()].filter((o) => o.object === 'subscription');

describe.each(DATABASE_KINDS)('billing through Stripe (%s)', (kind) => {
  const setup = withStripePeer();
  const t = setup.t(kind);
  const peer = () => setup.peer();
  let checkoutUrl = '';
  let firstSubscription = '';

  it("subscribing opens Stripe Checkout in subscription mode with the app's price", async () => {
    const res = await t.call('POST', '/document-signature/billing/checkout', { as: ADMIN });
    expect(res.status).toBe(201);
    checkoutUrl = ((await res.json()) as { url: string }).url;
    expect(checkoutUrl.startsWith(`${peer().url}/checkout/cs_test_`)).toBe(true);
    const created = peer().requests.find((r) => r.method === 'POST' && r.path === '/v1/checkout/sessions')!;
    expect(created.body).toMatchObject({
      mode: 'subscription',
      line_items: [{ price: 'price_docsig_monthly', quantity: '1' }],
      subscription_data: { metadata: { app: 'document-signature' } },
    });
  });

  it('asking to subscribe again while the checkout is open answers the same checkout', async () => {
    const res = await t.call('POST', '/document-signature/billing/checkout', { as: ADMIN });
    expect(((await res.json()) as { url: string }).url).toBe(checkoutUrl);
    expect(peer().requests.filter((r) => r.path === '/v1/checkout/sessions' && r.method === 'POST')).toHaveLength(1);
  });

  it('completing checkout puts the app on its subscription with the included credits and next invoice', async () => {
    await peer().completeCheckout(sessionIdOf(checkoutUrl));
    const billing = await detail(t, 'document-signature');
    expect(billing).toMatchObject({
      status: 'subscription',
      plan: 'subscription',
      paymentFailed: false,
      cancelAtPeriodEnd: false,
      checkoutOpen: false,
    });
    expect(billing.usage.freeTier).toBe(plansOf('document-signature')!.includedCredits);
    expect(billing.nextInvoice?.amountCents).toBe(plansOf('document-signature')!.monthlyPriceCents);
    expect(new Date(billing.periodEnd!).getTime()).toBeGreaterThan(Date.now() + 25 * 86_400_000);
    firstSubscription = subscriptions(peer())[0].id;
  });

  it('the return page confirms the checkout and no second subscription exists', async () => {
    const res = await t.call('POST', '/document-signature/billing/checkout/confirm', {
      as: ADMIN,
      body: { sessionId: sessionIdOf(checkoutUrl) },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: 'subscription' });
    expect(subscriptions(peer())).toHaveLength(1);
  });

  it('a subscribed app asked to subscribe again answers 409 ALREADY_SUBSCRIBED and opens no checkout', async () => {
    const before = peer().requests.length;
    const res = await t.call('POST', '/document-signature/billing/checkout', { as: ADMIN });
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({ code: 'ALREADY_SUBSCRIBED' });
    expect(
      peer()
        .requests.slice(before)
        .filter((r) => r.path === '/v1/checkout/sessions'),
    ).toHaveLength(0);
  });

  it('the prices beside Subscribe are the Stripe prices Checkout charges', async () => {
    const res = await t.call('GET', '/billing/prices', { as: ADMIN });
    expect(res.status).toBe(200);
    const { prices } = (await res.json()) as SubscriptionPricesAnswer;
    // only document signature's price exists on this Stripe: the others are left out, not guessed
    expect(prices).toEqual([
      {
        app: 'document-signature',
        amountCents: plansOf('document-signature')!.monthlyPriceCents,
        currency: 'usd',
        interval: null,
      },
    ]);
  });

  it('Checkout sends the admin back to the console page Subscribe was pressed on', async () => {
    const res = await t.call('POST', '/e-form/billing/checkout', { as: ADMIN, body: { returnTo: '/settings/billing' } });
    expect(res.status).toBe(201);
    const created = peer()
      .requests.filter((r) => r.method === 'POST' && r.path === '/v1/checkout/sessions')
      .at(-1)!;
    const body = created.body as { success_url: string; cancel_url: string };
    expect(new URL(body.success_url).pathname).toBe('/settings/billing');
    expect(new URL(body.success_url).searchParams.get('checkout_app')).toBe('e-form');
    expect(new URL(body.cancel_url).pathname).toBe('/settings/billing');
  });

  it('a return address outside the console is refused with 400 and opens no checkout', async () => {
    const before = peer().requests.length;
    for (const returnTo of ['//evil.example/x', 'https://evil.example/', '/settings/billing?next=x']) {
      const res = await t.call('POST', '/one-time-passcode/billing/checkout', { as: ADMIN, body: { returnTo } });
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
    }
    expect(
      peer()
        .requests.slice(before)
        .filter((r) => r.path === '/v1/checkout/sessions'),
    ).toHaveLength(0);
  });

  it('the invoices list shows the paid invoice with date, amount, status and PDF link', async () => {
    const res = await t.call('GET', '/billing/invoices', { as: ADMIN });
    expect(res.status).toBe(200);
    const { invoices } = (await res.json()) as InvoicesAnswer;
    expect(invoices).toHaveLength(1);
    expect(invoices[0]).toMatchObject({
      status: 'paid',
      amountCents: plansOf('document-signature')!.monthlyPriceCents,
      currency: 'usd',
    });
    expect(invoices[0].pdfUrl).toMatch(/\.pdf$/);
  });

  it('Manage payment method opens a Stripe Customer Portal session', async () => {
    const res = await t.call('POST', '/billing/portal', { as: ADMIN });
    expect(res.status).toBe(201);
    expect(((await res.json()) as { url: string }).url).toMatch(new RegExp(`^${peer().url}/portal/bps_`));
  });

  it('replayed events are answered as duplicates and change nothing', async () => {
    const acme = t.account('acme').id;
    const count = () =>
      t.db.tenant(
        acme,
        async (trx) =>
          (await sql<{ n: number }>`select count(*)::int as n from audit_log where event like 'billing.%'`.execute(trx)).rows[0]
            .n,
      );
    const before = await count();
    for (const event of peer().events) expect(await peer().replay(event)).toBe(200);
    expect(await count()).toBe(before);
    expect((await detail(t, 'document-signature')).status).toBe('subscription');
  });

  it('an event with a bad signature is refused with 400 and changes nothing', async () => {
    const sub = { ...peer().objects.get(firstSubscription)!, status: 'canceled' };
    const payload = JSON.stringify({
      id: 'evt_forged',
      object: 'event',
      type: 'customer.subscription.deleted',
      data: { object: sub },
    });
    const forged = new Stripe('sk_test_x').webhooks.generateTestHeaderString({ payload, secret: 'whsec_someone_else' });
    const res = await t.app.request('/api/stripe/webhook', {
      method: 'POST',
      headers: { 'stripe-signature': forged },
      body: payload,
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 'BAD_SIGNATURE' });
    const unsigned = await t.app.request('/api/stripe/webhook', { method: 'POST', body: payload });
    expect(unsigned.status).toBe(400);
    expect((await detail(t, 'document-signature')).status).toBe('subscription');
  });

  it('a body changed after Stripe signed it is refused', async () => {
    const sent = peer().events[0];
    const res = await t.app.request('/api/stripe/webhook', {
      method: 'POST',
      headers: { 'stripe-signature': sent.signature },
      body: sent.payload.replace('"livemode": false', '"livemode": true'),
    });
    expect(res.status).toBe(400);
  });

  it('a failed payment shows a banner and a notification while the app keeps working', async () => {
    await peer().renew(firstSubscription, 'failed');
    expect((await detail(t, 'document-signature')).paymentFailed).toBe(true);
    const acme = t.account('acme').id;
    await expect(t.db.tenant(acme, (trx) => assertAppUsable(trx, acme, 'document-signature'))).resolves.toBeUndefined();
    const boot = (await (await t.call('GET', '/admins/bootstrap', { as: ADMIN })).json()) as {
      billing: Record<string, { paymentFailed?: boolean }>;
    };
    expect(boot.billing['document-signature'].paymentFailed).toBe(true);
    const notes = await t.db.tenant(acme, (trx) =>
      trx.selectFrom('notifications').select('kind').where('kind', '=', 'billing.payment-failed').execute(),
    );
    expect(notes).toHaveLength(1);
  });

  it('a paid invoice after the failure clears the banner', async () => {
    await peer().renew(firstSubscription, 'paid');
    expect((await detail(t, 'document-signature')).paymentFailed).toBe(false);
  });

  it('overage above the included credits is reported to Stripe as a meter event, once', async () => {
    const acme = t.account('acme').id;
    const included = plansOf('document-signature')!.includedCredits;
    await t.db.tenant(acme, (trx) =>
      chargeCredits(trx, {
        accountId: acme,
        app: 'document-signature',
        taskId: 'big-batch',
        kind: 'signature',
        units: included + 7,
      }),
    );
    expect(await reportOverage(t.deps, t.clock.now)).toBe(1);
    expect(await reportOverage(t.deps, t.clock.now)).toBe(0);
    expect(peer().meterEvents).toHaveLength(1);
    expect(peer().meterEvents[0]).toMatchObject({ event_name: 'switchboard_credits', payload: { value: '7' } });
  });

  it('more overage later is reported as its own chunk with its own identifier', async () => {
    const acme = t.account('acme').id;
    await t.db.tenant(acme, (trx) =>
      chargeCredits(trx, { accountId: acme, app: 'document-signature', taskId: 'more', kind: 'signature', units: 3 }),
    );
    expect(await reportOverage(t.deps, t.clock.now)).toBe(1);
    expect(peer().meterEvents.map((e) => (e.payload as { value: string }).value)).toEqual(['7', '3']);
    expect(new Set(peer().meterEvents.map((e) => e.identifier)).size).toBe(2);
  });

  it('a meter report sent again after a lost answer is accepted as already there', async () => {
    const acme = t.account('acme').id;
    await sql`update meter_reports set reported_at = null where account_id = ${acme}`.execute(t.db.kysely);
    expect(await reportOverage(t.deps, t.clock.now)).toBe(2);
    expect(peer().meterEvents).toHaveLength(2);
  });

  it('cancel takes effect at the end of the period: the subscription stays until then', async () => {
    const res = await t.call('POST', '/document-signature/billing/cancel', { as: ADMIN });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: 'subscription', cancelAtPeriodEnd: true });
    expect(peer().objects.get(firstSubscription)).toMatchObject({ cancel_at_period_end: true });
  });

  it('keeping the subscription withdraws the cancellation', async () => {
    const res = await t.call('POST', '/document-signature/billing/resume', { as: ADMIN });
    expect(await res.json()).toMatchObject({ status: 'subscription', cancelAtPeriodEnd: false });
    expect(peer().objects.get(firstSubscription)).toMatchObject({ cancel_at_period_end: false });
    await t.call('POST', '/document-signature/billing/cancel', { as: ADMIN });
  });

  it('when Stripe ends the subscription the app is cancelled and its tasks answer 403 APP_NOT_ACTIVE', async () => {
    await peer().endSubscription(firstSubscription);
    expect((await detail(t, 'document-signature')).status).toBe('cancelled');
    const acme = t.account('acme').id;
    await expect(t.db.tenant(acme, (trx) => assertAppUsable(trx, acme, 'document-signature'))).rejects.toMatchObject({
      status: 403,
      code: 'APP_NOT_ACTIVE',
    });
  });

  it('a cancelled app can be subscribed again', async () => {
    const res = await t.call('POST', '/document-signature/billing/checkout', { as: ADMIN });
    expect(res.status).toBe(201);
    await peer().completeCheckout(sessionIdOf(((await res.json()) as { url: string }).url));
    const billing = await detail(t, 'document-signature');
    expect(billing).toMatchObject({ status: 'subscription', cancelAtPeriodEnd: false });
    expect(subscriptions(peer()).filter((s) => s.status === 'active')).toHaveLength(1);
  });

  it('a late event about the old subscription leaves the new one in place', async () => {
    await peer().emit('customer.subscription.deleted', peer().objects.get(firstSubscription)!);
    expect((await detail(t, 'document-signature')).status).toBe('subscription');
  });

  it('an enterprise app asked to subscribe answers 409 ENTERPRISE_NOT_BILLED and opens no checkout', async () => {
    const before = peer().requests.length;
    const res = await t.call('POST', '/one-time-passcode/billing/checkout', { as: 'owner@globex.test' });
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({ code: 'ENTERPRISE_NOT_BILLED' });
    expect(peer().requests.length).toBe(before);
  });

  it('an unknown app asked to subscribe answers 404 APP_NOT_FOUND', async () => {
    const res = await t.call('POST', '/no-such-app/billing/checkout', { as: ADMIN });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ code: 'APP_NOT_FOUND' });
  });

  it('identity verification has no billing to subscribe to (404)', async () => {
    const res = await t.call('POST', '/identity-verification/billing/checkout', { as: 'staff@provider.test' });
    expect(res.status).toBe(404);
  });

  it('a supervisor cannot subscribe (403)', async () => {
    const res = await t.call('POST', '/payments/billing/checkout', { as: 'supervisor@acme.test' });
    expect(res.status).toBe(403);
  });

  it('a malformed checkout session id on the return page answers 400', async () => {
    const res = await t.call('POST', '/document-signature/billing/checkout/confirm', {
      as: ADMIN,
      body: { sessionId: '../../etc' },
    });
    expect(res.status).toBe(400);
  });

  it('the billing e-mail is saved and given to the Stripe customer', async () => {
    const res = await t.call('PUT', '/billing/email', { as: ADMIN, body: { email: 'Accounts@Acme.test' } });
    expect(res.status).toBe(200);
    const overview = (await (await t.call('GET', '/billing', { as: ADMIN })).json()) as {
      billingEmail: string;
      hasCustomer: boolean;
    };
    expect(overview).toMatchObject({ billingEmail: 'accounts@acme.test', hasCustomer: true });
    const customer = [...peer().objects.values()].find((o) => o.object === 'customer')!;
    expect(customer.email).toBe('accounts@acme.test');
  });

  it('a malformed billing e-mail answers 400 and changes nothing', async () => {
    const res = await t.call('PUT', '/billing/email', { as: ADMIN, body: { email: 'not-an-email' } });
    expect(res.status).toBe(400);
    const overview = (await (await t.call('GET', '/billing', { as: ADMIN })).json()) as { billingEmail: string };
    expect(overview.billingEmail).toBe('accounts@acme.test');
  });

  it('converting a subscribed app to Enterprise ends its Stripe subscription and keeps it on Enterprise', async () => {
    const live = subscriptions(peer()).find((s) => s.status === 'active')!;
    const res = await t.call('PUT', `/watch-tower/accounts/${t.account('acme').id}/apps/document-signature/status`, {
      as: 'staff@provider.test',
      body: { status: 'enterprise' },
    });
    expect(res.status).toBe(200);
    expect(peer().objects.get(live.id)?.status).toBe('canceled');
    expect(peer().events.at(-1)?.event.type).toBe('customer.subscription.deleted');
    expect((await detail(t, 'document-signature')).status).toBe('enterprise');
  });
});

describe.each(DATABASE_KINDS)('billing without Stripe settings (%s)', (kind) => {
  const t = useTestContext(kind);

  it('subscribing answers 503 BILLING_NOT_CONFIGURED saying who can set it up (the provider who runs the server)', async () => {
    const res = await t.call('POST', '/payments/billing/checkout', { as: ADMIN });
    expect(res.status).toBe(503);
    const body = (await res.json()) as { code: string; message: string };
    expect(body.code).toBe('BILLING_NOT_CONFIGURED');
    expect(body.message).toBe(STATE_MESSAGES.BILLING_NOT_CONFIGURED);
  });

  it('free trials and usage still work', async () => {
    expect((await t.call('POST', '/payments/billing/free-trial', { as: ADMIN, body: {} })).status).toBe(201);
    const overview = (await (await t.call('GET', '/billing', { as: ADMIN })).json()) as {
      configured: boolean;
      apps: { app: string; status: string }[];
    };
    expect(overview.configured).toBe(false);
    expect(overview.apps.find((a) => a.app === 'payments')?.status).toBe('free-trial');
  });

  it('the invoices list is empty rather than an error', async () => {
    const res = await t.call('GET', '/billing/invoices', { as: ADMIN });
    expect(await res.json()).toEqual({ invoices: [] });
  });
});
