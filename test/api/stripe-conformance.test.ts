import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Stripe from 'stripe';
import { readConformance } from '../support/conformance';
import { startStripePeer, type StripePeer } from '../support/stripe-peer';
import { addStripeConnect, type ConnectPeer } from '../support/stripe-connect-peer';

// The development Stripe stand-in (api/dev-stripe: the tests' loopback Stripe too) measured
// against Stripe itself: driven by the official `stripe` package through every call the product
// makes, each object it answers must carry every top-level field of Stripe's own fixture for its
// type (stripe/openapi fixtures3.json, read from ../shared/conformance at test time), with a value
// of the same JSON type or null; where the fixture has null any value passes; an expandable field
// may be an id or the object. The nested objects the product reads are held to their own type's
// fixture. So code that works against the stand-in meets the same shapes on Stripe.

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type Fixtures = { resources: Record<string, Record<string, Json>> };
const fixtures = readConformance<Fixtures>('stripe/fixtures3.json');

// stripe-node decodes Stripe's decimal strings (`*_decimal`) into its Decimal: on the wire a string
const decimal = Object.getPrototypeOf(Stripe.Decimal.from('1')) as object;
const kind = (v: unknown) =>
  v === null
    ? 'null'
    : Array.isArray(v)
      ? 'array'
      : typeof v === 'object' && Object.getPrototypeOf(v) === decimal
        ? 'string'
        : typeof v;

/**
 * What an object lacks or has of the wrong type against Stripe's fixture `reference`; `nested`
 * names the fields held to another type's fixture (the objects the product reads inside).
 */
function divergences(value: Record<string, unknown>, reference: Record<string, Json>, at: string): string[] {
  const out: string[] = [];
  for (const [field, expected] of Object.entries(reference)) {
    const where = `${at}.${field}`;
    if (!(field in value)) {
      out.push(`${where}: missing`);
      continue;
    }
    const got = value[field];
    if (expected === null || got === null) continue;
    // expandable: Stripe answers the id, or the object when expanded
    const expandable = (x: unknown) =>
      typeof x === 'string' || (kind(x) === 'object' && typeof (x as { id?: unknown }).id === 'string');
    const isExpandable =
      (typeof expected === 'string' && /^[a-z]+_/.test(expected)) ||
      (kind(expected) === 'object' && 'id' in (expected as object));
    if (isExpandable && expandable(got)) continue;
    if (kind(got) !== kind(expected)) out.push(`${where}: ${kind(got)} where Stripe has ${kind(expected)}`);
  }
  return out;
}

/** The fields of a type held to other types' fixtures, and plain nested objects held field by field. */
const NESTED: Record<string, { typed?: Record<string, string>; plain?: string[] }> = {
  subscription: { typed: { 'items.data[]': 'subscription_item' } },
  subscription_item: { typed: { price: 'price' } },
  'checkout.session': { typed: { 'line_items.data[]': 'item', payment_intent: 'payment_intent' } },
  payment_intent: { typed: { latest_charge: 'charge' } },
  item: { typed: { price: 'price' } },
  product: { typed: { default_price: 'price' } },
  charge: { typed: { 'refunds.data[]': 'refund' } },
  account: { plain: ['business_profile', 'settings.dashboard'] },
  invoice: { plain: ['status_transitions'] },
};

const at = (o: unknown, path: string): unknown[] => {
  let nodes: unknown[] = [o];
  for (const part of path.split('.')) {
    const many = part.endsWith('[]');
    const key = many ? part.slice(0, -2) : part;
    nodes = nodes.flatMap((n) => {
      const v = n && typeof n === 'object' ? (n as Record<string, unknown>)[key] : undefined;
      return many ? (Array.isArray(v) ? v : []) : v === undefined ? [] : [v];
    });
  }
  return nodes;
};

/** Every divergence of a Stripe object of `type` (and the objects inside it the product reads) from Stripe's fixtures. */
function checkAs(o: Record<string, unknown>, type: string, where: string): string[] {
  const reference = fixtures!.resources[type];
  if (!reference) return [`${where}: Stripe has no type ${type}`];
  const out = divergences(o, reference, `${where}(${type})`);
  if (type === 'event') out.push(...check((o.data as { object: unknown }).object, `${where}.data.object`));
  const nested = NESTED[type] ?? {};
  for (const [path, t] of Object.entries(nested.typed ?? {})) {
    // an expandable field not expanded is an id: only an object has fields to check
    for (const inner of at(o, path))
      if (inner && typeof inner === 'object') out.push(...checkAs(inner as Record<string, unknown>, t, `${where}.${path}`));
  }
  for (const path of nested.plain ?? []) {
    const ref = at(reference, path)[0];
    const inner = at(o, path)[0];
    if (inner === undefined) out.push(`${where}.${path}: missing`);
    else if (ref && typeof ref === 'object' && inner && typeof inner === 'object')
      out.push(...divergences(inner as Record<string, unknown>, ref as Record<string, Json>, `${where}.${path}`));
  }
  return out;
}

function check(value: unknown, where = 'answer'): string[] {
  const o = value as Record<string, unknown>;
  if (o.object === 'list') return (o.data as unknown[]).flatMap((d, i) => check(d, `${where}.data[${i}]`));
  return checkAs(o, String(o.object), where);
}

const PLATFORM_KEY = 'sk_test_conformance_platform';
const CLIENT_ID = 'ca_conformance';

describe.skipIf(!fixtures)("the development Stripe stand-in answers in Stripe's shapes", () => {
  let peer: StripePeer;
  let connect: ConnectPeer;
  let stripe: Stripe;
  let account = '';
  /** every object the stand-in answered or sent, by the call that gave it */
  const answers: { call: string; value: unknown }[] = [];
  const keep = <T>(call: string, value: T): T => (answers.push({ call, value }), value);

  beforeAll(async () => {
    peer = await startStripePeer({ webhookSecret: 'whsec_conformance', deliver: async () => 200, secretKeys: [PLATFORM_KEY] });
    connect = addStripeConnect(peer, {
      clientId: CLIENT_ID,
      webhookSecret: 'whsec_conformance_connect',
      deliver: async () => 200,
      secretKey: PLATFORM_KEY,
    });
    stripe = new Stripe(PLATFORM_KEY, { host: '127.0.0.1', port: peer.port, protocol: 'http', maxNetworkRetries: 0 });
  });
  afterAll(() => peer?.close());

  it('billing: customers, subscription Checkout, subscriptions, the portal, invoices and meter events carry every field Stripe gives', async () => {
    await stripe.prices
      .create({ currency: 'usd', unit_amount: 4900, recurring: { interval: 'month' } })
      .then((p) => keep('prices.create', p));
    const price = answers.at(-1)!.value as Stripe.Price;
    const customer = keep(
      'customers.create',
      await stripe.customers.create(
        { email: 'billing@example.test', name: 'Acme', metadata: { account_id: 'a1' } },
        { idempotencyKey: 'conf-customer' },
      ),
    );
    keep('customers.update', await stripe.customers.update(customer.id, { email: 'finance@example.test' }));
    const session = keep(
      'checkout.sessions.create (subscription, expand line_items)',
      await stripe.checkout.sessions.create({
        mode: 'subscription',
        customer: customer.id,
        client_reference_id: 'a1:app',
        line_items: [{ price: price.id, quantity: 1 }],
        subscription_data: { metadata: { app: 'payments' } },
        success_url: 'http://127.0.0.1/ok?s={CHECKOUT_SESSION_ID}',
        cancel_url: 'http://127.0.0.1/no',
        expand: ['line_items'],
      }),
    );
    expect(session).toMatchObject({ payment_status: 'unpaid', amount_total: 4900, currency: 'usd', livemode: false });
    expect(session).not.toHaveProperty('line_items_input');
    expect(session.line_items?.data[0]).toMatchObject({
      object: 'item',
      amount_total: 4900,
      quantity: 1,
      price: { id: price.id },
    });
    keep('checkout.sessions.retrieve', await stripe.checkout.sessions.retrieve(session.id));
    const expanded = keep(
      'checkout.sessions.retrieve (expand line_items)',
      await stripe.checkout.sessions.retrieve(session.id, { expand: ['line_items'] }),
    );
    expect(expanded.line_items?.data).toHaveLength(1);
    const items = keep('checkout.sessions.listLineItems', await stripe.checkout.sessions.listLineItems(session.id));
    expect(items.data.map((i) => i.price?.id)).toEqual([price.id]);
    const listed = keep('checkout.sessions.list', await stripe.checkout.sessions.list({ customer: customer.id, limit: 3 }));
    expect(listed.data.map((s) => s.id)).toEqual([session.id]);
    await peer.completeCheckout(session.id);
    const done = keep('checkout.sessions.retrieve (complete)', await stripe.checkout.sessions.retrieve(session.id));
    expect(done).toMatchObject({ status: 'complete', payment_status: 'paid' });
    const sub = keep('subscriptions.retrieve', await stripe.subscriptions.retrieve(String(done.subscription)));
    expect(sub.metadata).toEqual({ app: 'payments' });
    keep('subscriptions.update', await stripe.subscriptions.update(sub.id, { cancel_at_period_end: true }));
    keep(
      'billingPortal.sessions.create',
      await stripe.billingPortal.sessions.create({ customer: customer.id, return_url: 'http://127.0.0.1/settings/billing' }),
    );
    keep('invoices.list', await stripe.invoices.list({ customer: customer.id, limit: 24 }));
    keep(
      'billing.meterEvents.create',
      await stripe.billing.meterEvents.create({
        event_name: 'sms',
        payload: { stripe_customer_id: customer.id, value: '3' },
        identifier: 'conf-1',
      }),
    );
    keep('subscriptions.cancel', await stripe.subscriptions.cancel(sub.id));
    const other = await stripe.checkout.sessions.create({
      mode: 'subscription',
      customer: customer.id,
      line_items: [{ price: price.id, quantity: 1 }],
      success_url: 'http://127.0.0.1/ok',
      cancel_url: 'http://127.0.0.1/no',
    });
    keep('checkout.sessions.expire', await stripe.checkout.sessions.expire(other.id));
    for (const sent of peer.events) keep(`event ${sent.event.type}`, JSON.parse(sent.payload));
    expect(answers.flatMap((a) => check(a.value, a.call))).toEqual([]);
  });

  it('a session that is no longer open cannot be expired again: 400, as Stripe answers', async () => {
    const price = await stripe.prices.create({ currency: 'usd', unit_amount: 100, recurring: { interval: 'month' } });
    const s = await stripe.checkout.sessions.create({
      mode: 'subscription',
      line_items: [{ price: price.id, quantity: 1 }],
      success_url: 'http://127.0.0.1/ok',
      cancel_url: 'http://127.0.0.1/no',
    });
    await stripe.checkout.sessions.expire(s.id);
    const err = await stripe.checkout.sessions.expire(s.id).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect((err as Stripe.errors.StripeError).statusCode).toBe(400);
  });

  it('Connect: OAuth, the account, products and prices, payment Checkout, refunds and their events carry every field Stripe gives', async () => {
    const start = answers.length;
    const token = await stripe.oauth.token({ grant_type: 'authorization_code', code: connect.authorize('st') });
    account = String(token.stripe_user_id);
    const on = { stripeAccount: account };
    keep('accounts.retrieve', await stripe.accounts.retrieve(account));
    const product = keep(
      'products.create',
      await stripe.products.create(
        { name: 'Consultation', default_price_data: { currency: 'usd', unit_amount: 2000 }, expand: ['default_price'] },
        on,
      ),
    );
    keep('products.list', await stripe.products.list({ limit: 100, expand: ['data.default_price'] }, on));
    keep('products.retrieve', await stripe.products.retrieve(product.id, { expand: ['default_price'] }, on));
    const price = keep(
      'prices.create',
      await stripe.prices.create({ product: product.id, currency: 'usd', unit_amount: 2500 }, on),
    );
    keep('products.update', await stripe.products.update(product.id, { default_price: price.id, expand: ['default_price'] }, on));
    keep('prices.update', await stripe.prices.update((product.default_price as Stripe.Price).id, { active: false }, on));
    const session = keep(
      'checkout.sessions.create (payment)',
      await stripe.checkout.sessions.create(
        {
          mode: 'payment',
          line_items: [{ price: price.id, quantity: 1 }],
          payment_intent_data: { metadata: { payment_id: 'p1' } },
          success_url: 'http://127.0.0.1/ok',
          cancel_url: 'http://127.0.0.1/no',
        },
        on,
      ),
    );
    expect(session).toMatchObject({ livemode: false, amount_total: 2500, currency: 'usd', payment_status: 'unpaid' });
    keep('checkout.sessions.listLineItems (connected)', await stripe.checkout.sessions.listLineItems(session.id, {}, on));
    keep('checkout.sessions.list (connected)', await stripe.checkout.sessions.list({ limit: 5 }, on));
    await connect.pay(session.id);
    const paid = keep(
      'checkout.sessions.retrieve (expand payment_intent.latest_charge)',
      await stripe.checkout.sessions.retrieve(session.id, { expand: ['payment_intent.latest_charge', 'line_items'] }, on),
    );
    const pi = paid.payment_intent as Stripe.PaymentIntent;
    const charge = pi.latest_charge as Stripe.Charge;
    const partial = keep(
      'refunds.create (payment_intent)',
      await stripe.refunds.create(
        { payment_intent: pi.id, amount: 700, reason: 'requested_by_customer', metadata: { payment_id: 'p1' } },
        { ...on, idempotencyKey: 'conf-refund-1' },
      ),
    );
    expect(partial).toMatchObject({ amount: 700, reason: 'requested_by_customer', charge: charge.id, payment_intent: pi.id });
    expect(partial.balance_transaction).toMatch(/^txn_/);
    const rest = keep('refunds.create (charge)', await stripe.refunds.create({ charge: charge.id }, on));
    expect(rest).toMatchObject({ amount: 1800, charge: charge.id, payment_intent: pi.id, reason: null });
    expect(keep('refunds.retrieve', await stripe.refunds.retrieve(partial.id, {}, on))).toMatchObject({
      id: partial.id,
      amount: 700,
    });
    const open = await stripe.checkout.sessions.create(
      {
        mode: 'payment',
        line_items: [{ price_data: { currency: 'usd', unit_amount: 900, product_data: { name: 'Tip' } }, quantity: 1 }],
        success_url: 'http://127.0.0.1/ok',
        cancel_url: 'http://127.0.0.1/no',
      },
      on,
    );
    keep('checkout.sessions.expire (connected)', await stripe.checkout.sessions.expire(open.id, {}, on));
    for (const sent of connect.events) keep(`event ${sent.event.type}`, JSON.parse(sent.payload));
    expect(answers.slice(start).flatMap((a) => check(a.value, a.call))).toEqual([]);
  });

  it('every event carries request and livemode, and the object inside carries livemode', () => {
    const events = [...peer.events, ...connect.events].map(
      (e) =>
        JSON.parse(e.payload) as {
          request?: unknown;
          livemode?: unknown;
          data: { object: { livemode?: unknown; object: string } };
        },
    );
    expect(events.length).toBeGreaterThan(3);
    for (const e of events) {
      expect(e.request).toEqual({ id: null, idempotency_key: null });
      expect(e.livemode).toBe(false);
      if (fixtures!.resources[e.data.object.object] && 'livemode' in fixtures!.resources[e.data.object.object])
        expect(e.data.object.livemode).toBe(false);
    }
  });

  it('a key the stand-in did not issue is refused: 401 "Invalid API Key provided", StripeAuthenticationError', async () => {
    const stranger = new Stripe('sk_test_someone_else_entirely', {
      host: '127.0.0.1',
      port: peer.port,
      protocol: 'http',
      maxNetworkRetries: 0,
    });
    for (const call of [
      () => stranger.customers.create({ email: 'x@example.test' }),
      () => stranger.checkout.sessions.list(),
      () => stranger.products.list({}, { stripeAccount: account }),
    ]) {
      const err = await call().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(Stripe.errors.StripeAuthenticationError);
      expect((err as Stripe.errors.StripeError).statusCode).toBe(401);
      expect((err as Error).message).toMatch(/^Invalid API Key provided/);
    }
  });

  it('the platform key acts for a connected account it issued, not for any other account', async () => {
    expect((await stripe.products.list({}, { stripeAccount: account })).object).toBe('list');
    const err = await stripe.products.list({}, { stripeAccount: 'acct_notissuedhere1' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Stripe.errors.StripePermissionError);
  });

  it("deauthorizing a connected account (as the product disconnects) ends the key's access to it: 403, StripePermissionError", async () => {
    expect(await stripe.oauth.deauthorize({ client_id: CLIENT_ID, stripe_user_id: account })).toMatchObject({
      stripe_user_id: account,
    });
    const err = await stripe.products.list({}, { stripeAccount: account }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Stripe.errors.StripePermissionError);
    expect(connect.events.at(-1)?.event.type).toBe('account.application.deauthorized');
  });

  it("a store the stand-in kept before (a session with line_items_input) is read back in Stripe's shapes", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-stripe-store-'));
    const store = path.join(dir, 'dev-stripe.json');
    const price = { id: 'price_old', object: 'price', unit_amount: 4900, currency: 'usd', recurring: { interval: 'month' } };
    const session = {
      id: 'cs_test_old',
      object: 'checkout.session',
      mode: 'subscription',
      status: 'open',
      customer: null,
      line_items_input: [{ price: 'price_old', quantity: '1' }],
      subscription_data: { metadata: { app: 'payments' } },
      metadata: {},
      success_url: 'http://127.0.0.1/ok',
      cancel_url: 'http://127.0.0.1/no',
      url: 'http://127.0.0.1/checkout/cs_test_old',
      created: 1,
      expires_at: 2,
    };
    fs.writeFileSync(store, JSON.stringify({ core: { objects: [price, session], meterIdentifiers: [] } }));
    const old = await startStripePeer({
      webhookSecret: 'whsec_old',
      deliver: async () => 200,
      secretKeys: [PLATFORM_KEY],
      store,
    });
    try {
      const client = new Stripe(PLATFORM_KEY, { host: '127.0.0.1', port: old.port, protocol: 'http', maxNetworkRetries: 0 });
      const read = await client.checkout.sessions.retrieve('cs_test_old', { expand: ['line_items'] });
      expect(read).not.toHaveProperty('line_items_input');
      expect(read.line_items?.data.map((i) => i.price?.id)).toEqual(['price_old']);
      expect(check(read, 'stored session')).toEqual([]);
      await old.completeCheckout('cs_test_old');
      const sub = await client.subscriptions.retrieve(
        String((await client.checkout.sessions.retrieve('cs_test_old')).subscription),
      );
      expect(sub.metadata).toEqual({ app: 'payments' });
      expect(sub.items.data.map((i) => i.price.id)).toEqual(['price_old']);
    } finally {
      await old.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
