import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import Stripe from 'stripe';
import { DATABASE_KINDS, useTestContext, type TestContext } from './helpers';
import { startStripePeer, type StripePeer } from '../support/stripe-peer';
import { addStripeConnect, type ConnectPeer } from '../support/stripe-connect-peer';
import { formatMinor } from '../../api/contract/money';
import { PAID_STATUSES, type Payment, type Product, type StripeConnection } from '../../api/contract/apps/payments';
import type { DashboardAnswer, TaskDetail } from '../../api/contract/platform';

const CLIENT_ID = 'ca_loopback_platform';
const CONNECT_SECRET = 'whsec_connect_loopback';
const OWNER = 'owner@globex.test';

/** The loopback Stripe with Connect, delivering events to this server's Connect webhook. */
function withConnectPeer() {
  const raw: Record<string, string> = {};
  const box: {
    peer?: StripePeer;
    connect?: ConnectPeer;
    ctx?: TestContext;
    held: { payload: string; signature: string }[] | null;
  } = { held: null };
  beforeAll(async () => {
    box.peer = await startStripePeer({ webhookSecret: 'whsec_billing_unused' });
    box.connect = addStripeConnect(box.peer, {
      clientId: CLIENT_ID,
      webhookSecret: CONNECT_SECRET,
      secretKey: 'sk_test_platform_loopback',
      deliver: async (payload, signature) => {
        if (box.held) return (box.held.push({ payload, signature }), 200);
        return (await webhook(box.ctx!, payload, signature)).status;
      },
    });
    Object.assign(raw, {
      STRIPE_CONNECT_CLIENT_ID: CLIENT_ID,
      STRIPE_CONNECT_SECRET_KEY: 'sk_test_platform_loopback',
      STRIPE_CONNECT_WEBHOOK_SECRET: CONNECT_SECRET,
      STRIPE_API_BASE: box.peer.url,
      STRIPE_CONNECT_AUTHORIZE_URL: `${box.peer.url}/oauth/authorize`,
    });
  });
  afterAll(async () => box.peer?.close());
  return { raw, box };
}

function webhook(t: TestContext, payload: string, signature: string) {
  return t.app.request('/api/payments/stripe/webhook', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'stripe-signature': signature },
    body: payload,
  });
}

async function v1(t: TestContext, key: string, method: string, path: string, body?: unknown) {
  return t.call(method, `/v1${path}`, { body, headers: { authorization: `Bearer ${key}` } });
}

async function startConnect(t: TestContext): Promise<{ url: URL; cookie: string }> {
  const res = await t.call('POST', '/payments/stripe/connect', { as: OWNER });
  expect(res.status).toBe(201);
  const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0]!;
  return { url: new URL(((await res.json()) as { url: string }).url), cookie };
}

const callback = (t: TestContext, body: Record<string, string>, cookie?: string) =>
  t.call('POST', '/payments/stripe/callback', { as: OWNER, body, headers: cookie ? { cookie } : {} });

const connection = async (t: TestContext) =>
  (await (await t.call('GET', '/payments/stripe', { as: OWNER })).json()) as StripeConnection;

describe.each(DATABASE_KINDS)('Payments with Stripe Connect (%s)', (kind) => {
  const { raw, box } = withConnectPeer();
  const t = useTestContext(kind, { raw } as never);
  box.ctx = t;
  const connect = () => box.connect!;
  let key = '';
  let acmeKey = '';
  let productId = '';

  const payment = async (id: string) => (await (await v1(t, key, 'GET', `/payments/${id}`)).json()) as Payment;
  const detail = async (id: string) => (await (await t.call('GET', `/payments/tasks/${id}`, { as: OWNER })).json()) as TaskDetail;
  const lastSms = async (to: string) => {
    const list = (await (await t.call('GET', '/dev/sms-outbox', { as: OWNER })).json()) as { to: string; body: string }[];
    return list.find((m) => m.to === to)!.body;
  };
  const counts = () =>
    t.db.system(async (trx) => ({
      events: Number(
        (await sql<{ n: number }>`select count(*)::int as n from task_events where app = 'payments'`.execute(trx)).rows[0]!.n,
      ),
      webhooks: Number(
        (await sql<{ n: number }>`select count(*)::int as n from webhook_events where app = 'payments'`.execute(trx)).rows[0]!.n,
      ),
      payments: (
        await sql<{
          id: string;
          status: string;
          refunded_amount: number;
        }>`select id, status, refunded_amount from payments order by id`.execute(trx)
      ).rows,
    }));
  let phone = 0;
  const freshPhone = () => `+1415556${String(1000 + phone++).padStart(4, '0')}`;
  const request = async (body: Record<string, unknown>) => {
    const res = await v1(t, key, 'POST', '/payments', {
      phoneNumber: freshPhone(),
      customerRef: 'CUST-77',
      agent: 'maya@globex.test',
      ...body,
    });
    expect(res.status, await res.clone().text()).toBe(201);
    return (await res.json()) as Payment;
  };

  beforeAll(async () => {
    for (const owner of [OWNER, 'owner@acme.test'])
      expect((await t.call('POST', '/sms', { as: owner, body: { provider: 'dev-outbox' } })).status).toBe(200);
    key = ((await (await t.call('GET', '/accounts/developer', { as: OWNER })).json()) as { secretKey: string }).secretKey;
    acmeKey = ((await (await t.call('GET', '/accounts/developer', { as: 'owner@acme.test' })).json()) as { secretKey: string })
      .secretKey;
  });

  it('without a connected account the catalog and requests say how to connect', async () => {
    expect(await connection(t)).toMatchObject({ connected: false, configured: true, accountId: null });
    const list = await t.call('GET', '/payments/products', { as: OWNER });
    expect(list.status).toBe(409);
    expect(((await list.json()) as { code: string }).code).toBe('STRIPE_NOT_CONNECTED');
    const res = await v1(t, key, 'POST', '/payments', {
      phoneNumber: freshPhone(),
      amount: 1000,
      currency: 'usd',
      description: 'Deposit',
    });
    expect(res.status).toBe(409);
  });

  it('Connect with Stripe sends the admin to the authorize page with our client id, read_write, our callback and a state', async () => {
    const { url, cookie } = await startConnect(t);
    expect(`${url.origin}${url.pathname}`).toBe(`${box.peer!.url}/oauth/authorize`);
    expect(url.searchParams.get('client_id')).toBe(CLIENT_ID);
    expect(url.searchParams.get('scope')).toBe('read_write');
    expect(url.searchParams.get('response_type')).toBe('code');
    expect(url.searchParams.get('redirect_uri')).toBe(
      `${t.config.publicUrl.replace(/\/$/, '')}/payments/settings/stripe/callback`,
    );
    expect(url.searchParams.get('state')).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(cookie).toMatch(/^sb_stripe_connect=/);
    // the peer's authorize page sends the browser back with a code and the same state
    const page = await (await fetch(url)).text();
    const allow = new URL(page.match(/href="([^"]+code=[^"]+)"/)![1]!.replace(/&amp;/g, '&'));
    expect(allow.searchParams.get('state')).toBe(url.searchParams.get('state'));
  });

  it('a wrong state, a state from another browser or a declined authorization connect nothing', async () => {
    const { url, cookie } = await startConnect(t);
    const state = url.searchParams.get('state')!;
    const code = connect().authorize(state);
    const forged = await callback(t, { state: 'A'.repeat(32), code }, cookie);
    expect(forged.status).toBe(400);
    expect(((await forged.json()) as { code: string }).code).toBe('STATE_INVALID');
    const otherBrowser = await callback(t, { state, code });
    expect(otherBrowser.status).toBe(400);
    const denied = await callback(t, { state, error: 'access_denied', errorDescription: 'The user denied your request' }, cookie);
    expect(denied.status).toBe(400);
    expect(((await denied.json()) as { code: string; message: string }).message).toMatch(/declined/);
    // the state is spent: the code that came with it cannot be used with it any more
    const again = await callback(t, { state, code }, cookie);
    expect(((await again.json()) as { code: string }).code).toBe('STATE_INVALID');
    expect((await connection(t)).connected).toBe(false);
  });

  it('the callback exchanges the code and keeps only the connected account id; a used code changes nothing', async () => {
    const { url, cookie } = await startConnect(t);
    const state = url.searchParams.get('state')!;
    const code = connect().authorize(state);
    const res = await callback(t, { state, code }, cookie);
    expect(res.status, await res.clone().text()).toBe(200);
    const connected = (await res.json()) as StripeConnection;
    expect(connected).toMatchObject({
      connected: true,
      name: 'Globex Care Payments',
      country: 'US',
      defaultCurrency: 'usd',
      chargesEnabled: true,
    });
    expect(connected.accountId).toMatch(/^acct_/);
    const stored = await t.db.system((trx) => sql<Record<string, unknown>>`select * from stripe_connections`.execute(trx));
    expect(Object.keys(stored.rows[0]!).sort()).toEqual([
      'account_id',
      'charges_enabled',
      'connected_at',
      'country',
      'default_currency',
      'name',
      'stripe_account_id',
    ]);
    // the same code again, with a fresh state: Stripe refuses it and the connection stays
    const second = await startConnect(t);
    const reused = await callback(t, { state: second.url.searchParams.get('state')!, code }, second.cookie);
    expect(reused.status).toBe(400);
    expect(((await reused.json()) as { code: string }).code).toBe('STRIPE_CODE_INVALID');
    expect((await connection(t)).accountId).toBe(connected.accountId);
    const audit = await t.db.system((trx) =>
      sql<{
        event: string;
      }>`select event from audit_log where namespace = 'payments' and event = 'payments.stripe-connected'`.execute(trx),
    );
    expect(audit.rows).toHaveLength(1);
  });

  it('the catalog: products and prices are created, found, repriced and archived on the connected account', async () => {
    const account = (await connection(t)).accountId!;
    const created = await t.call('POST', '/payments/products', {
      as: OWNER,
      body: { name: 'Annual membership', description: 'One year', unitAmount: 12_500, currency: 'USD' },
    });
    expect(created.status).toBe(201);
    const product = (await created.json()) as Product;
    expect(product).toMatchObject({ name: 'Annual membership', unitAmount: 12_500, currency: 'usd', active: true });
    productId = product.id;
    expect(connect().calls.find((c) => c.method === 'POST' && c.path === '/v1/products')!.account).toBe(account);
    await t.call('POST', '/payments/products', { as: OWNER, body: { name: 'Late fee', unitAmount: 1500, currency: 'usd' } });
    const found = (await (await t.call('GET', '/payments/products?q=annual', { as: OWNER })).json()) as Product[];
    expect(found.map((p) => p.name)).toEqual(['Annual membership']);
    const oldPrice = product.priceId!;
    const repriced = (await (
      await t.call('PUT', `/payments/products/${productId}`, { as: OWNER, body: { name: 'Annual plan', unitAmount: 9900 } })
    ).json()) as Product;
    expect(repriced).toMatchObject({ name: 'Annual plan', unitAmount: 9900, currency: 'usd' });
    expect(repriced.priceId).not.toBe(oldPrice);
    expect(connect().objects.get(oldPrice)!.active).toBe(false);
    const late = found.length
      ? ((await (await t.call('GET', '/payments/products?q=late', { as: OWNER })).json()) as Product[])
      : [];
    const archived = (await (
      await t.call('PUT', `/payments/products/${late[0]!.id}`, { as: OWNER, body: { active: false } })
    ).json()) as Product;
    expect(archived.active).toBe(false);
    const bad = await t.call('POST', '/payments/products', {
      as: OWNER,
      body: { name: '', unitAmount: 12.5, currency: 'dollars' },
    });
    expect(bad.status).toBe(400);
    const archivedRequest = await v1(t, key, 'POST', '/payments', { phoneNumber: freshPhone(), productId: late[0]!.id });
    expect(archivedRequest.status).toBe(400);
  });

  it('a request for a product is a Checkout Session on the connected account, its link sent by SMS; paying it succeeds', async () => {
    const before = await t.db.system((trx) =>
      sql<{
        credits: number;
      }>`select credits from app_billing where app = 'payments' and account_id = ${t.account('globex').id}`.execute(trx),
    );
    const p = await request({ productId });
    expect(p).toMatchObject({
      status: 'requested',
      amount: 9900,
      currency: 'usd',
      description: 'Annual plan',
      productId,
      refundedAmount: 0,
    });
    expect(new Date(p.expiresAt).getTime() - new Date(p.createdAt).getTime()).toBe(60 * 60_000);
    const session = connect().objects.get(p.checkoutSessionId!)!;
    expect(session).toMatchObject({ mode: 'payment', amount_total: 9900, currency: 'usd', client_reference_id: p.id });
    expect(connect().calls.find((c) => c.path === '/v1/checkout/sessions' && c.method === 'POST')!.account).toBe(
      (await connection(t)).accountId,
    );
    const sms = await lastSms(`+1415556${p.phoneNumber.slice(-4)}`);
    const token = sms.match(/\/c\/([A-Za-z0-9_-]{43})/)![1]!;
    // the customer opens the link: the amount in the account's branding and a way to Stripe
    const page = await (await t.app.request(`/c/${token}`)).text();
    expect(page).toContain(formatMinor(9900, 'usd', 'en-US'));
    expect(page).toContain(String(session.url));
    expect((await payment(p.id)).status).toBe('opened');
    await connect().pay(p.checkoutSessionId!);
    const paid = await payment(p.id);
    expect(paid.status).toBe('succeeded');
    expect(paid.paymentIntentId).toMatch(/^pi_/);
    expect(paid.paidAt).not.toBeNull();
    expect((await t.app.request(`/c/${token}`)).status).toBe(200);
    expect(await (await t.app.request(`/c/${token}`)).text()).toContain('Payment received');
    const types = await t.db.system((trx) =>
      sql<{ type: string }>`select type from webhook_events where app = 'payments' order by created_at, type`.execute(trx),
    );
    expect(types.rows.map((r) => r.type)).toEqual(expect.arrayContaining(['payment.requested', 'payment.succeeded']));
    const after = await t.db.system((trx) =>
      sql<{
        credits: number;
      }>`select credits from app_billing where app = 'payments' and account_id = ${t.account('globex').id}`.execute(trx),
    );
    expect(after.rows[0]!.credits).toBe(before.rows[0]!.credits + 1);
    const timeline = (await detail(p.id)).events.map((e) => e.type);
    expect(timeline).toEqual(['requested', 'language', 'opened', 'succeeded']);
  });

  it('a replayed event and an event with a bad signature change nothing', async () => {
    const completed = connect()
      .events.filter((e) => e.event.type === 'checkout.session.completed')
      .at(-1)!;
    const before = await counts();
    expect(await connect().replay(completed)).toBe(200);
    const tampered = completed.payload.replace('"paid"', '"unpaid"');
    expect((await webhook(t, tampered, completed.signature)).status).toBe(400);
    const forged = new Stripe('sk_test_x').webhooks.generateTestHeaderString({
      payload: completed.payload,
      secret: 'whsec_someone_else',
    });
    expect((await webhook(t, completed.payload, forged)).status).toBe(400);
    expect((await webhook(t, completed.payload, '')).status).toBe(400);
    expect(await counts()).toEqual(before);
  });

  it('a declined card fails the payment; paying again with another card succeeds', async () => {
    const p = await request({ amount: 4200, currency: 'eur', description: 'Repair invoice 88' });
    await connect().pay(p.checkoutSessionId!, 'declined');
    const failed = await payment(p.id);
    expect(failed).toMatchObject({ status: 'failed', failureReason: 'Your card was declined.' });
    await connect().pay(p.checkoutSessionId!);
    expect((await payment(p.id)).status).toBe('succeeded');
  });

  it('a bank debit that is returned fails the payment; an unpaid link expires', async () => {
    const p = await request({ amount: 3000, currency: 'usd', description: 'Deposit' });
    await connect().pay(p.checkoutSessionId!, 'pending');
    expect((await payment(p.id)).status).toBe('requested');
    await connect().settle(p.checkoutSessionId!, 'failed');
    expect(await payment(p.id)).toMatchObject({ status: 'failed', failureReason: 'The bank debit was returned.' });
    const q = await request({ amount: 3000, currency: 'usd', description: 'Deposit', expiresInMinutes: 30 });
    expect(new Date(q.expiresAt).getTime() - new Date(q.createdAt).getTime()).toBe(30 * 60_000);
    await connect().expire(q.checkoutSessionId!);
    expect((await payment(q.id)).status).toBe('expired');
    const types = (await detail(q.id)).events.map((e) => e.type);
    expect(types).toEqual(['requested', 'language', 'expired']);
  });

  it('refunds: partial then the rest, audited; more than is left is refused', async () => {
    const p = await request({ amount: 1250, currency: 'usd', description: 'Consultation' });
    await connect().pay(p.checkoutSessionId!);
    const partial = await t.call('POST', `/payments/tasks/${p.id}/refund`, { as: OWNER, body: { amount: 500 } });
    expect(partial.status, await partial.clone().text()).toBe(200);
    expect((await partial.json()) as Payment).toMatchObject({ status: 'partially_refunded', refundedAmount: 500 });
    const tooMuch = await t.call('POST', `/payments/tasks/${p.id}/refund`, { as: OWNER, body: { amount: 800 } });
    expect(tooMuch.status).toBe(400);
    const rest = (await (await t.call('POST', `/payments/tasks/${p.id}/refund`, { as: OWNER, body: {} })).json()) as Payment;
    expect(rest).toMatchObject({ status: 'refunded', refundedAmount: 1250 });
    const again = await t.call('POST', `/payments/tasks/${p.id}/refund`, { as: OWNER, body: {} });
    expect(again.status).toBe(409);
    const refundEvents = (await detail(p.id)).events.filter((e) => e.type === 'refunded');
    expect(refundEvents).toHaveLength(2);
    const audit = await t.db.system((trx) =>
      sql<{ n: number }>`select count(*)::int as n from audit_log where event = 'payment.refunded'`.execute(trx),
    );
    expect(audit.rows[0]!.n).toBe(2);
    const notPaid = await request({ amount: 100, currency: 'usd', description: 'x' });
    expect((await t.call('POST', `/payments/tasks/${notPaid.id}/refund`, { as: OWNER, body: {} })).status).toBe(409);
  });

  it('events out of order end in the right state', async () => {
    const p = await request({ amount: 2000, currency: 'usd', description: 'Order 1' });
    box.held = [];
    await connect().pay(p.checkoutSessionId!);
    const account = (await connection(t)).accountId!;
    const pi = connect().objects.get(p.checkoutSessionId!)!.payment_intent as string;
    const stripe = new Stripe('sk_test_platform_loopback', {
      host: '127.0.0.1',
      port: box.peer!.port,
      protocol: 'http',
      maxNetworkRetries: 0,
    });
    await stripe.refunds.create({ payment_intent: pi, amount: 700 }, { stripeAccount: account });
    const held = box.held;
    box.held = null;
    expect(held.map((h) => (JSON.parse(h.payload) as { type: string }).type)).toEqual([
      'checkout.session.completed',
      'charge.refunded',
    ]);
    for (const h of [...held].reverse()) expect((await webhook(t, h.payload, h.signature)).status).toBe(200);
    expect(await payment(p.id)).toMatchObject({ status: 'partially_refunded', refundedAmount: 700 });
    expect((await detail(p.id)).events.map((e) => e.type)).toEqual(['requested', 'language', 'succeeded', 'refunded']);
  });

  it('zero-decimal currencies: 500 JPY is 500 yen, in the session, the list and the agent action', async () => {
    const p = await request({ amount: 500, currency: 'JPY', description: 'Parking' });
    expect(p).toMatchObject({ amount: 500, currency: 'jpy' });
    expect(connect().objects.get(p.checkoutSessionId!)!.amount_total).toBe(500);
    const action = await t.call('POST', '/payments/actions/request', {
      as: OWNER,
      body: { input: { phoneNumber: freshPhone(), amount: '1500', currency: 'jpy', description: 'Parking' } },
    });
    expect(action.status, await action.clone().text()).toBe(201);
    const task = ((await action.json()) as { task: Payment }).task;
    expect(task).toMatchObject({ amount: 1500, currency: 'jpy' });
    expect(formatMinor(1500, 'jpy', 'en-US')).toBe('¥1,500');
    const decimals = await t.call('POST', '/payments/actions/request', {
      as: OWNER,
      body: { input: { phoneNumber: freshPhone(), amount: '15.5', currency: 'jpy', description: 'Parking' } },
    });
    expect(decimals.status).toBe(400);
    const usd = await t.call('POST', '/payments/actions/request', {
      as: OWNER,
      body: { input: { phoneNumber: freshPhone(), amount: '12.50', description: 'Tip' } },
    });
    expect(((await usd.json()) as { task: Payment }).task).toMatchObject({ amount: 1250, currency: 'usd' });
  });

  it('bad requests are refused with what to fix', async () => {
    const both = await v1(t, key, 'POST', '/payments', {
      phoneNumber: freshPhone(),
      productId,
      amount: 100,
      currency: 'usd',
      description: 'x',
    });
    expect(both.status).toBe(400);
    const short = await v1(t, key, 'POST', '/payments', {
      phoneNumber: freshPhone(),
      amount: 100,
      description: 'x',
      expiresInMinutes: 10,
    });
    expect(short.status).toBe(400);
    const fractional = await v1(t, key, 'POST', '/payments', { phoneNumber: freshPhone(), amount: 12.5, description: 'x' });
    expect(fractional.status).toBe(400);
    // a key the pattern admits but no instant or id is: refused before the database, list and export
    const fake = encodeURIComponent('0000-00-00T00:00:00.000000Z_0-e-ca-e-00-00b-0c0000f0-cb0c-b--0-b');
    expect((await t.call('GET', `/payments/tasks?lastKey=${fake}`, { as: OWNER })).status).toBe(400);
    expect((await t.call('GET', `/payments/tasks/export?lastKey=${fake}`, { as: OWNER })).status).toBe(400);
  });

  it("another account's payment is not found", async () => {
    const p = await request({ amount: 900, currency: 'usd', description: 'Mine' });
    expect((await v1(t, acmeKey, 'GET', `/payments/${p.id}`)).status).toBe(404);
    expect((await t.call('GET', `/payments/tasks/${p.id}`, { as: 'owner@acme.test' })).status).toBe(404);
    expect((await t.call('POST', `/payments/tasks/${p.id}/refund`, { as: 'owner@acme.test', body: {} })).status).toBe(404);
  });

  it('the dashboard and list show volume, success rate, requests and refunds', async () => {
    const dash = (await (await t.call('GET', '/payments/dashboard?days=7', { as: OWNER })).json()) as DashboardAnswer;
    const tile = (k: string) => dash.tiles.find((x) => x.key === k)!;
    const rows = (await counts()).payments;
    expect(tile('requests').value).toBe(rows.length);
    // the success rate is of the requests that ended: one still open (requested, opened) has not failed
    const ended = rows.filter((r) => r.status !== 'requested' && r.status !== 'opened');
    const paid = rows.filter((r) => (PAID_STATUSES as readonly string[]).includes(r.status));
    expect(rows.length).toBeGreaterThan(ended.length);
    expect(tile('success').value).toBe(Math.round((paid.length / ended.length) * 1000) / 10);
    expect(tile('net')).toMatchObject({ format: 'money', currency: 'usd', label: 'Net volume after refunds (USD)' });
    // USD paid: 9900 + 1250 + 2000 (the EUR and JPY payments are not summed in USD), less its refunds, named beside it
    expect(tile('net').value).toBe(9900 + 1250 + 2000 - (1250 + 700));
    expect(tile('refunded').value).toBe(1250 + 700);
    // the chart's line sums to the tile
    expect(dash.series[0]!.points.reduce((s, p) => s + p.value, 0)).toBe(tile('net').value);
    const list = await t.call('GET', '/payments/tasks?status=succeeded', { as: OWNER });
    expect(list.status).toBe(200);
    const csv = await (await t.call('GET', '/payments/tasks/export', { as: OWNER })).text();
    expect(csv.split('\n')[0]).toContain('Amount');
  });

  it('six parallel refunds of 700 on a 2,000 payment: two reach Stripe, four are refused, and the total never passes the payment', async () => {
    const p = await request({ amount: 2000, currency: 'usd', description: 'Parallel refunds' });
    await connect().pay(p.checkoutSessionId!);
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => t.call('POST', `/payments/tasks/${p.id}/refund`, { as: OWNER, body: { amount: 700 } })),
    );
    expect(answers.map((r) => r.status).sort()).toEqual([200, 200, 400, 400, 400, 400]);
    const refunds = [...connect().objects.values()].filter(
      (o) => o.object === 'refund' && (o.metadata as Record<string, string>)?.payment_id === p.id,
    );
    expect(refunds.map((r) => r.amount)).toEqual([700, 700]);
    expect(await payment(p.id)).toMatchObject({ status: 'partially_refunded', refundedAmount: 1400 });
  });

  it('Disconnect deauthorizes on Stripe and is audited; a deauthorization on Stripe disconnects too', async () => {
    const account = (await connection(t)).accountId!;
    const res = await t.call('DELETE', '/payments/stripe', { as: OWNER });
    expect(res.status).toBe(200);
    expect(((await res.json()) as StripeConnection).connected).toBe(false);
    expect(connect().accounts.get(account)!.deauthorized).toBe(true);
    // connect again, then the account revokes us on Stripe
    const { url, cookie } = await startConnect(t);
    const code = connect().authorize(url.searchParams.get('state')!);
    expect((await callback(t, { state: url.searchParams.get('state')!, code }, cookie)).status).toBe(200);
    const second = (await connection(t)).accountId!;
    const sent = await connect().revoke(second);
    expect(sent.status).toBe(200);
    expect((await connection(t)).connected).toBe(false);
    const events = await t.db.system((trx) =>
      sql<{
        event: string;
      }>`select event from audit_log where namespace = 'payments' and event like 'payments.stripe-%' order by ts`.execute(trx),
    );
    expect(events.rows.map((r) => r.event)).toEqual([
      'payments.stripe-connected',
      'payments.stripe-disconnected',
      'payments.stripe-connected',
      'payments.stripe-deauthorized',
    ]);
  });
});
