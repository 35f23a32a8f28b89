import http from 'node:http';
import crypto from 'node:crypto';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { escapeHtml } from '../http/escape-html';
import { shaped } from './shapes';
import { getApp } from '../contract/apps';

// A loopback Stripe: a real HTTP server playing the documented subset of the Stripe API the
// console uses (customers, Checkout sessions with a hosted page, subscriptions, invoices,
// billing portal sessions, billing meter events), sending events signed exactly as Stripe signs
// them (`stripe.webhooks.generateTestHeaderString`). It is generic: objects live in one store
// per resource path, and `route()` adds resources (Connect, OAuth, products, prices, refunds)
// for other areas without touching what is here.
//
// One implementation, two uses: the tests' Stripe (test/support re-exports it) and the
// development stand-in `npm start` runs when no Stripe is configured (api/dev-stripe/standin.ts,
// never in production). Every page it shows says it is the development stand-in.

export type StripeObject = Record<string, unknown> & { id: string; object: string };
export type SentEvent = { event: StripeObject; payload: string; signature: string; status: number };

type Handler = (req: PeerRequest) => unknown | Promise<unknown>;
export type PeerRequest = { method: string; path: string; params: Record<string, string>; body: Record<string, unknown>; query: URLSearchParams; headers: http.IncomingHttpHeaders };

export class StripeError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly type = 'invalid_request_error',
    /** the whole answer, for endpoints that do not answer Stripe's usual error shape (OAuth) */
    readonly body?: Record<string, unknown>,
  ) {
    super(message);
  }
}

/** A route handler answering NEXT leaves the request to the routes after it. */
export const NEXT = Symbol('next route');

/** A browser page of the peer (Stripe's hosted pages): status, headers and HTML. */
export type PageAnswer = { status: number; headers?: Record<string, string>; body?: string };
type PageHandler = (req: { method: string; params: Record<string, string>; query: URLSearchParams; body: Record<string, unknown> }) => PageAnswer | Promise<PageAnswer>;

/** Stripe's form encoding (`a[b][0][c]=1`) to nested objects and arrays. */
export function parseStripeForm(body: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const parts = key.replace(/\]/g, '').split('[');
    let node: Record<string, unknown> = out;
    parts.forEach((part, i) => {
      const last = i === parts.length - 1;
      if (last) node[part] = value;
      else {
        const nextIsIndex = /^\d+$/.test(parts[i + 1]);
        node[part] ??= nextIsIndex ? [] : {};
        node = node[part] as Record<string, unknown>;
      }
    });
  }
  return out;
}

export type StripePeerOptions = {
  /** the webhook signing secret events are signed with */
  webhookSecret: string;
  /** where events go; defaults to POSTing them to webhookUrl */
  deliver?: (payload: string, signature: string) => Promise<number>;
  webhookUrl?: string;
  /** the peer's clock (seconds are what Stripe objects carry) */
  now?: () => Date;
  /** where to listen: loopback and a free port unless told */
  host?: string;
  port?: number;
  /** a JSON file the peer's objects are kept in across restarts (the development stand-in) */
  store?: string;
  /**
   * the secret keys the peer accepts (the platform's, as configured on the server): any other
   * key answers 401 "Invalid API Key provided", as Stripe does; Connect adds its own
   */
  secretKeys?: string[];
};

/** What the pages of the stand-in say at the top: what it is, and that nothing real happens. */
export const STAND_IN_BANNER = 'Development Stripe stand-in: a test double of Stripe running on this machine. No card is charged and no money moves; it is never used in production.';


/** A page of the stand-in (Checkout, Connect's authorize page, the portal): marked as development. */
export function standInPage(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)} (development Stripe stand-in)</title>
<style>body{font-family:system-ui,sans-serif;margin:0;color:#111827;background:#f6f7f9}main{max-width:30rem;margin:0 auto;padding:16px}
.standin{background:#fef3c7;color:#78350f;border-bottom:1px solid #f59e0b;padding:8px 16px;font-size:14px;margin:0}
label{display:block;margin:12px 0 4px;font-weight:600}input{font:inherit;padding:8px;width:100%;box-sizing:border-box;border:1px solid #9ca3af;border-radius:6px}
button,.button{font:inherit;margin-top:12px;padding:8px 16px;border-radius:6px;border:0;background:#4f46e5;color:#fff;cursor:pointer;text-decoration:none;display:inline-block}
.error{color:#b91c1c;font-weight:600}ul.cards{padding-left:18px;font-size:14px}code{font-size:13px}</style></head>
<body><p class="standin" role="note"><strong>Development</strong> · ${escapeHtml(STAND_IN_BANNER)}</p><main>${body}</main></body></html>`;
}

/** The test cards the stand-in knows, as Stripe's test mode documents them. */
export const TEST_CARDS = { succeeds: '4242424242424242', declined: '4000000000000002' } as const;
export const isDeclinedCard = (card: unknown) => String(card ?? '').replace(/\s/g, '') === TEST_CARDS.declined;
export const testCardsHint = () =>
  `<ul class="cards"><li><code>4242 4242 4242 4242</code>: the payment succeeds</li><li><code>4000 0000 0000 0002</code>: the card is declined</li></ul>`;

export type StripePeer = {
  url: string;
  host: string;
  port: number;
  /** every object by id */
  objects: Map<string, StripeObject>;
  /** API requests received: method and path */
  requests: { method: string; path: string; body: Record<string, unknown> }[];
  events: SentEvent[];
  meterEvents: StripeObject[];
  /**
   * adds a resource handler, e.g. route('POST', '/v1/refunds', handler); routes added here come
   * before the peer's own, and a handler answering NEXT passes the request on
   */
  route(method: string, pattern: string, handler: Handler): void;
  /** adds a browser page (e.g. Stripe's OAuth authorize page) */
  page(method: string, pattern: string, handler: PageHandler): void;
  /**
   * keeps an area's state in the store file across restarts (with `store`): `load` gets what
   * was saved (at once, if there is any), `save` is asked after every change
   */
  persist(name: string, state: { save(): unknown; load(data: unknown): void }): void;
  /** the peer's id generator: prefix_ and 24 hex characters */
  newId(prefix: string): string;
  /** accepts one more secret key (Connect's platform key) */
  acceptKey(key: string): void;
  /**
   * tells whether a Stripe-Account header names an account this key may act for (Connect's
   * accounts); without it no Stripe-Account is accepted
   */
  checkAccount(check: (account: string) => boolean): void;
  /** sends an event (signed); answers what the receiver answered */
  emit(type: string, object: StripeObject): Promise<SentEvent>;
  /** sends a stored event's exact bytes again (a replay, as Stripe retries do) */
  replay(event: SentEvent): Promise<number>;
  /** plays the customer completing the hosted checkout page */
  completeCheckout(sessionId: string): Promise<string>;
  /** the next period of a subscription begins and its invoice is paid (or fails) */
  renew(subscriptionId: string, outcome?: 'paid' | 'failed'): Promise<void>;
  /** Stripe ends the subscription (end of period after cancel, or retries exhausted) */
  endSubscription(subscriptionId: string): Promise<void>;
  close(): Promise<void>;
};

const MONTH_S = 30 * 86_400;

export async function startStripePeer(options: StripePeerOptions): Promise<StripePeer> {
  const now = () => Math.floor((options.now?.() ?? new Date()).getTime() / 1000);
  const objects = new Map<string, StripeObject>();
  const requests: StripePeer['requests'] = [];
  const events: SentEvent[] = [];
  const meterEvents: StripeObject[] = [];
  const meterIdentifiers = new Set<string>();
  const routes: { method: string; pattern: RegExp; keys: string[]; handler: Handler }[] = [];
  const pages: { method: string; pattern: RegExp; keys: string[]; handler: PageHandler }[] = [];
  let started = false;
  const idempotent = new Map<string, unknown>();
  const signer = new Stripe('sk_test_peer');
  let url = '';
  const keys = new Set(options.secretKeys ?? []);
  let accountCheck: (account: string) => boolean = () => false;
  // a session's line items are not a field of the session on Stripe: they are read with
  // expand[]=line_items or GET .../line_items
  const sessionItems = new Map<string, StripeObject[]>();
  const subscriptionData = new Map<string, { metadata?: Record<string, string> }>();

  // ---- the store file (development): every area's state, written after each change
  const kept = new Map<string, { save(): unknown; load(data: unknown): void }>();
  const stored: Record<string, unknown> = options.store && fs.existsSync(options.store) ? JSON.parse(fs.readFileSync(options.store, 'utf8')) : {};
  const persist: StripePeer['persist'] = (name, state) => {
    kept.set(name, state);
    if (stored[name] !== undefined) state.load(stored[name]);
  };
  const save = () => {
    if (!options.store) return;
    const data = Object.fromEntries([...kept].map(([name, state]) => [name, state.save()]));
    fs.writeFileSync(`${options.store}.tmp`, JSON.stringify(data));
    fs.renameSync(`${options.store}.tmp`, options.store);
  };

  const id = (prefix: string) => `${prefix}_${crypto.randomBytes(12).toString('hex')}`;
  const put = <T extends StripeObject>(object: T): T => {
    const full = shaped(object);
    objects.set(full.id, full);
    return full;
  };
  const get = (oid: string, kind: string) => {
    const o = objects.get(oid);
    if (!o || o.object !== kind) throw new StripeError(404, 'resource_missing', `No such ${kind}: '${oid}'`);
    return o;
  };
  const list = (data: StripeObject[], path: string) => ({ object: 'list', data, has_more: false, url: path });
  /** Stripe's list pagination: `limit` (default 10, at most 100), newest first, `starting_after` */
  const paged = (all: StripeObject[], path: string, query: URLSearchParams) => {
    const limit = Math.min(100, Math.max(1, Number(query.get('limit') ?? 10) || 10));
    const after = query.get('starting_after');
    const from = after ? all.findIndex((o) => o.id === after) + 1 : 0;
    const data = all.slice(from, from + limit);
    return { object: 'list', data, has_more: from + limit < all.length, url: path };
  };
  persist('core', {
    save: () => ({ objects: [...objects.values()], meterIdentifiers: [...meterIdentifiers], sessionItems: [...sessionItems], subscriptionData: [...subscriptionData] }),
    load: (data) => {
      const d = data as { objects: StripeObject[]; meterIdentifiers: string[]; sessionItems?: [string, StripeObject[]][]; subscriptionData?: [string, { metadata?: Record<string, string> }][] };
      // a store written before the whole shapes were kept is completed on load
      for (const o of d.objects) objects.set(o.id, shaped(o));
      for (const m of d.meterIdentifiers) meterIdentifiers.add(m);
      for (const [k, v] of d.sessionItems ?? []) sessionItems.set(k, v);
      for (const [k, v] of d.subscriptionData ?? []) subscriptionData.set(k, v);
      // sessions stored with their items in line_items_input (before items were kept apart)
      for (const o of objects.values()) {
        const old = o.line_items_input as { price: string; quantity?: string }[] | undefined;
        if (o.object !== 'checkout.session' || !old) continue;
        if (!sessionItems.has(o.id)) {
          sessionItems.set(o.id, old.map((li) => shaped({ id: id('li'), object: 'item', price: objects.get(li.price) ?? shaped({ id: li.price, object: 'price' }), quantity: li.quantity ? Number(li.quantity) : 1 })));
        }
        if (!subscriptionData.has(o.id) && o.subscription_data) subscriptionData.set(o.id, o.subscription_data as { metadata?: Record<string, string> });
        delete o.line_items_input;
        delete o.subscription_data;
      }
    },
  });
  const compile = (pattern: string) => {
    const keys: string[] = [];
    const re = new RegExp(`^${pattern.replace(/:(\w+)/g, (_m, k) => (keys.push(k), '([^/]+)'))}$`);
    return { re, keys };
  };
  const route = (method: string, pattern: string, handler: Handler) => {
    const { re, keys } = compile(pattern);
    const entry = { method, pattern: re, keys, handler };
    // added by an area after start: before the peer's own routes, which it may extend
    if (started) routes.unshift(entry);
    else routes.push(entry);
  };
  const page = (method: string, pattern: string, handler: PageHandler) => {
    const { re, keys } = compile(pattern);
    pages.push({ method, pattern: re, keys, handler });
  };

  async function deliver(payload: string, signature: string): Promise<number> {
    if (options.deliver) return options.deliver(payload, signature);
    if (!options.webhookUrl) return 0;
    const res = await fetch(options.webhookUrl, { method: 'POST', headers: { 'content-type': 'application/json', 'stripe-signature': signature }, body: payload });
    await res.arrayBuffer();
    return res.status;
  }

  async function emit(type: string, object: StripeObject): Promise<SentEvent> {
    const event = shaped({ id: id('evt'), object: 'event', api_version: '2026-01-28.clover', created: now(), livemode: false, pending_webhooks: 1, type, data: { object: structuredClone(object) } });
    const payload = JSON.stringify(event, null, 2);
    const signature = signer.webhooks.generateTestHeaderString({ payload, secret: options.webhookSecret });
    const sent: SentEvent = { event, payload, signature, status: 0 };
    events.push(sent);
    sent.status = await deliver(payload, signature);
    return sent;
  }

  function subscriptionOf(oid: string) {
    return get(oid, 'subscription') as StripeObject & { items: { data: Record<string, unknown>[] }; metadata: Record<string, string> };
  }

  function newInvoice(sub: StripeObject, status: 'paid' | 'open', start: number): StripeObject {
    const invoiceId = id('in');
    const price = objects.get(String((sub.items as { data: { price: { id: string } }[] }).data[0].price.id));
    const amount = Number(price?.unit_amount ?? 4900);
    return put({
      id: invoiceId,
      object: 'invoice',
      customer: sub.customer,
      created: start,
      currency: 'usd',
      amount_due: amount,
      amount_paid: status === 'paid' ? amount : 0,
      status,
      invoice_pdf: `${url}/invoices/${invoiceId}.pdf`,
      hosted_invoice_url: `${url}/invoices/${invoiceId}`,
      period_start: start,
      period_end: start + MONTH_S,
      parent: { type: 'subscription_details', quote_details: null, subscription_details: { subscription: sub.id, metadata: sub.metadata } },
    });
  }

  // ---- customers
  route('POST', '/v1/customers', ({ body }) => put({ id: id('cus'), object: 'customer', created: now(), email: body.email ?? null, name: body.name ?? null, metadata: body.metadata ?? {}, invoice_prefix: crypto.randomBytes(4).toString('hex').toUpperCase() }));
  route('GET', '/v1/customers/:id', ({ params }) => get(params.id, 'customer'));
  route('POST', '/v1/customers/:id', ({ params, body }) => Object.assign(get(params.id, 'customer'), body));

  // ---- prices (so invoices carry amounts; tests create the prices they configure)
  route('GET', '/v1/prices/:id', ({ params }) => get(params.id, 'price'));
  route('POST', '/v1/prices', ({ body }) => put({ id: String(body.id ?? id('price')), object: 'price', created: now(), unit_amount: Number(body.unit_amount ?? 0), currency: body.currency ?? 'usd', recurring: body.recurring ?? null }));

  // ---- checkout sessions and the hosted page
  /** the session as answered: `expand` may ask for its line items (Stripe's list of `item`s) */
  const expandsOf = (req: PeerRequest): string[] => {
    const e = req.body.expand ?? parseStripeForm(req.query.toString()).expand ?? [];
    return Array.isArray(e) ? e.map(String) : [];
  };
  const sessionView = (session: StripeObject, expand: string[]) =>
    expand.includes('line_items') ? { ...session, line_items: list(sessionItems.get(session.id) ?? [], `/v1/checkout/sessions/${session.id}/line_items`) } : session;
  route('POST', '/v1/checkout/sessions', (req) => {
    const { body } = req;
    if (body.mode !== 'subscription' && body.mode !== 'payment') throw new StripeError(400, 'parameter_invalid', 'mode must be subscription or payment');
    const items = (body.line_items as Record<string, unknown>[] | undefined) ?? [];
    if (!items.length) throw new StripeError(400, 'parameter_missing', 'line_items is required');
    if (body.customer) get(String(body.customer), 'customer');
    const sid = id('cs_test');
    let total = 0;
    let currency = 'usd';
    const lineItems = items.map((li) => {
      const price = objects.get(String(li.price)) ?? shaped({ id: String(li.price), object: 'price' });
      const quantity = li.quantity === undefined ? 1 : Number(li.quantity);
      // a metered price has no amount up front: it is billed by usage
      const amount = Number(price.unit_amount ?? 0) * (price.recurring && (price.recurring as { usage_type?: string }).usage_type === 'metered' ? 0 : quantity);
      total += amount;
      currency = String(price.currency ?? currency);
      return shaped({ id: id('li'), object: 'item', amount_subtotal: amount, amount_total: amount, currency: String(price.currency ?? 'usd'), description: String(price.nickname ?? price.id), price, quantity: li.quantity === undefined ? null : quantity });
    });
    sessionItems.set(sid, lineItems);
    const session = put({
      id: sid,
      object: 'checkout.session',
      mode: body.mode,
      status: 'open',
      payment_status: 'unpaid',
      amount_subtotal: total,
      amount_total: total,
      currency,
      customer: body.customer ?? null,
      customer_email: body.customer_email ?? null,
      client_reference_id: body.client_reference_id ?? null,
      metadata: body.metadata ?? {},
      subscription: null,
      success_url: body.success_url ?? null,
      cancel_url: body.cancel_url ?? null,
      url: `${url}/checkout/${sid}`,
      created: now(),
      expires_at: now() + 86_400,
    });
    // what subscription mode gives the subscription it makes (not a field of the session on Stripe)
    subscriptionData.set(sid, (body.subscription_data as { metadata?: Record<string, string> }) ?? {});
    return sessionView(session, expandsOf(req));
  });
  route('GET', '/v1/checkout/sessions', ({ query }) => {
    const customer = query.get('customer');
    const status = query.get('status');
    const subscription = query.get('subscription');
    const all = [...objects.values()]
      .filter((o) => o.object === 'checkout.session' && (!customer || o.customer === customer) && (!status || o.status === status) && (!subscription || o.subscription === subscription))
      .sort((a, b) => Number(b.created) - Number(a.created));
    return paged(all, '/v1/checkout/sessions', query);
  });
  route('GET', '/v1/checkout/sessions/:id', (req) => sessionView(get(req.params.id, 'checkout.session'), expandsOf(req)));
  route('GET', '/v1/checkout/sessions/:id/line_items', ({ params, query }) => {
    get(params.id, 'checkout.session');
    return paged(sessionItems.get(params.id) ?? [], `/v1/checkout/sessions/${params.id}/line_items`, query);
  });
  route('POST', '/v1/checkout/sessions/:id/expire', ({ params }) => {
    const session = get(params.id, 'checkout.session');
    if (session.status !== 'open') throw new StripeError(400, 'checkout_session_not_open', `Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of "${String(session.status)}".`);
    return Object.assign(session, { status: 'expired', url: null });
  });

  // ---- subscriptions
  route('GET', '/v1/subscriptions/:id', ({ params }) => subscriptionOf(params.id));
  route('POST', '/v1/subscriptions/:id', async ({ params, body }) => {
    const sub = subscriptionOf(params.id);
    if (sub.status === 'canceled') throw new StripeError(400, 'resource_missing', 'A canceled subscription can only update its cancellation_details and metadata.');
    if (body.cancel_at_period_end !== undefined) sub.cancel_at_period_end = body.cancel_at_period_end === 'true';
    if (body.metadata) sub.metadata = { ...sub.metadata, ...(body.metadata as Record<string, string>) };
    await emit('customer.subscription.updated', sub);
    return sub;
  });
  route('DELETE', '/v1/subscriptions/:id', async ({ params }) => {
    const sub = subscriptionOf(params.id);
    Object.assign(sub, { status: 'canceled', canceled_at: now(), ended_at: now(), cancel_at_period_end: false });
    await emit('customer.subscription.deleted', sub);
    return sub;
  });

  // ---- invoices
  route('GET', '/v1/invoices', ({ query }) => {
    const customer = query.get('customer');
    const data = [...objects.values()].filter((o) => o.object === 'invoice' && (!customer || o.customer === customer)).sort((a, b) => Number(b.created) - Number(a.created));
    return list(data, '/v1/invoices');
  });
  route('GET', '/v1/invoices/:id', ({ params }) => get(params.id, 'invoice'));

  // ---- billing portal
  route('POST', '/v1/billing_portal/sessions', ({ body }) => {
    get(String(body.customer), 'customer');
    const pid = id('bps');
    return put({ id: pid, object: 'billing_portal.session', customer: body.customer, return_url: body.return_url ?? null, url: `${url}/portal/${pid}`, created: now() });
  });

  // ---- billing meter events
  route('POST', '/v1/billing/meter_events', ({ body }) => {
    const identifier = String(body.identifier ?? id('mev'));
    if (!body.event_name) throw new StripeError(400, 'parameter_missing', 'event_name is required');
    if (meterIdentifiers.has(identifier)) throw new StripeError(400, 'resource_already_exists', `An event already exists with identifier ${identifier}.`);
    meterIdentifiers.add(identifier);
    const event = shaped({ id: identifier, object: 'billing.meter_event', identifier, event_name: body.event_name, payload: body.payload, timestamp: Number(body.timestamp ?? now()), created: now(), livemode: false });
    meterEvents.push(event);
    return event;
  });

  async function completeCheckout(sessionId: string): Promise<string> {
    const session = get(sessionId, 'checkout.session');
    if (session.status !== 'open') throw new StripeError(400, 'checkout_not_open', 'This checkout is no longer open.');
    const start = now();
    const subId = id('sub');
    const items = (sessionItems.get(sessionId) ?? []).map((li) =>
      shaped({
        id: id('si'),
        object: 'subscription_item',
        created: start,
        price: li.price,
        quantity: li.quantity ?? undefined,
        subscription: subId,
        current_period_start: start,
        current_period_end: start + MONTH_S,
      }),
    );
    const sub = put({
      id: subId,
      object: 'subscription',
      customer: session.customer,
      status: 'active',
      cancel_at_period_end: false,
      created: start,
      start_date: start,
      billing_cycle_anchor: start,
      currency: session.currency,
      metadata: subscriptionData.get(sessionId)?.metadata ?? {},
      items: { object: 'list', data: items, has_more: false, url: `/v1/subscription_items?subscription=${subId}` },
    });
    const invoice = newInvoice(sub, 'paid', start);
    Object.assign(session, { status: 'complete', payment_status: 'paid', subscription: sub.id, url: null });
    await emit('checkout.session.completed', session);
    await emit('invoice.paid', invoice);
    return String(session.success_url).replace('{CHECKOUT_SESSION_ID}', sessionId);
  }

  async function renew(subscriptionId: string, outcome: 'paid' | 'failed' = 'paid'): Promise<void> {
    const sub = subscriptionOf(subscriptionId);
    const items = sub.items.data as { current_period_start: number; current_period_end: number }[];
    const start = items[0].current_period_end;
    for (const item of items) Object.assign(item, { current_period_start: start, current_period_end: start + MONTH_S });
    sub.status = outcome === 'paid' ? 'active' : 'past_due';
    const invoice = newInvoice(sub, outcome === 'paid' ? 'paid' : 'open', start);
    await emit('customer.subscription.updated', sub);
    await emit(outcome === 'paid' ? 'invoice.paid' : 'invoice.payment_failed', invoice);
  }

  async function endSubscription(subscriptionId: string): Promise<void> {
    const sub = subscriptionOf(subscriptionId);
    Object.assign(sub, { status: 'canceled', ended_at: now(), canceled_at: now(), cancel_at_period_end: false });
    await emit('customer.subscription.deleted', sub);
  }

  /** What is bought, as Stripe's own page says it: the app's title, never its internal id. */
  function checkoutTitle(session: StripeObject): string {
    const app = getApp(String((session.metadata as Record<string, string>).app ?? ''));
    return app ? `Subscribe to ${app.title}` : 'A monthly subscription';
  }

  function checkoutPage(session: StripeObject, error = ''): string {
    const price = sessionItems.get(session.id)?.[0]?.price as StripeObject | undefined;
    const amount = price ? `$${(Number(price.unit_amount) / 100).toFixed(2)} a month` : 'a monthly subscription';
    return standInPage(
      'Checkout',
      `<h1>Subscribe</h1><p>${escapeHtml(checkoutTitle(session))}: ${escapeHtml(amount)}.</p>
${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ''}
<form method="post" action="/checkout/${escapeHtml(session.id)}/pay"><label for="card">Card number</label><input id="card" name="card" inputmode="numeric" autocomplete="off" value="4242 4242 4242 4242">
<button type="submit">Pay and subscribe</button></form>${testCardsHint()}
<p><a href="${escapeHtml(String(session.cancel_url))}">Back</a></p>`,
    );
  }

  function portalPage(portal: StripeObject): string {
    const invoices = [...objects.values()].filter((o) => o.object === 'invoice' && o.customer === portal.customer);
    const rows = invoices.map((i) => `<li>${new Date(Number(i.created) * 1000).toISOString().slice(0, 10)}: $${(Number(i.amount_due) / 100).toFixed(2)}, ${escapeHtml(String(i.status))}</li>`).join('');
    return standInPage(
      'Billing portal',
      `<h1>Payment method and invoices</h1><p>The card on file is the test card <code>4242 4242 4242 4242</code>.</p>
<h2>Invoices</h2>${rows ? `<ul>${rows}</ul>` : '<p>No invoices yet.</p>'}
${portal.return_url ? `<p><a class="button" href="${escapeHtml(String(portal.return_url))}">Back to Switchboard</a></p>` : ''}`,
    );
  }

  function invoicePage(invoice: StripeObject): string {
    return standInPage(
      'Invoice',
      `<h1>Invoice ${escapeHtml(invoice.id)}</h1><p>$${(Number(invoice.amount_due) / 100).toFixed(2)} ${escapeHtml(String(invoice.currency).toUpperCase())}, ${escapeHtml(String(invoice.status))}.</p>`,
    );
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const u = new URL(req.url ?? '/', 'http://peer');
      const raw = Buffer.concat(chunks).toString('utf8');
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json', 'request-id': id('req') });
        res.end(JSON.stringify(body));
      };
      try {
        for (const p of pages) {
          const m = p.method === req.method ? u.pathname.match(p.pattern) : null;
          if (!m) continue;
          const params = Object.fromEntries(p.keys.map((k, i) => [k, decodeURIComponent(m[i + 1])]));
          const answer = await p.handler({ method: p.method, params, query: u.searchParams, body: req.method === 'POST' ? parseStripeForm(raw) : {} });
          res.writeHead(answer.status, { 'content-type': 'text/html; charset=utf-8', ...(answer.headers ?? {}) });
          return res.end(answer.body ?? '');
        }
        // The hosted pages a browser sees.
        const page = u.pathname.match(/^\/checkout\/([^/]+)(\/pay)?$/);
        if (page) {
          const session = get(page[1], 'checkout.session');
          if (req.method === 'POST' && page[2]) {
            if (isDeclinedCard(parseStripeForm(raw).card)) {
              res.writeHead(402, { 'content-type': 'text/html; charset=utf-8' });
              return res.end(checkoutPage(session, 'Your card was declined. Try the test card 4242 4242 4242 4242.'));
            }
            const next = await completeCheckout(session.id);
            res.writeHead(303, { location: next });
            return res.end();
          }
          res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
          return res.end(checkoutPage(session));
        }
        const portal = u.pathname.match(/^\/portal\/([^/]+)$/);
        const invoice = u.pathname.match(/^\/invoices\/([^/.]+)(\.pdf)?$/);
        if (portal || invoice) {
          res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
          return res.end(portal ? portalPage(get(portal[1], 'billing_portal.session')) : invoicePage(get(invoice![1], 'invoice')));
        }
        // Stripe's API answers only its own keys: the platform's secret key (OAuth's token
        // exchange is made with it too), and for a connected account the same key with Stripe-Account
        const bearer = /^Bearer (.*)$/.exec(req.headers.authorization ?? '')?.[1];
        if (!bearer || !keys.has(bearer)) {
          const shown = bearer ? `${bearer.slice(0, 7)}${'*'.repeat(Math.max(0, bearer.length - 11))}${bearer.slice(-4)}` : '';
          throw new StripeError(401, 'invalid_api_key', bearer ? `Invalid API Key provided: ${shown}` : 'You did not provide an API key.');
        }
        const onBehalf = req.headers['stripe-account'];
        if (typeof onBehalf === 'string' && !accountCheck(onBehalf)) {
          throw new StripeError(403, 'account_invalid', `The provided key '${bearer.slice(0, 7)}***${bearer.slice(-4)}' does not have access to account '${onBehalf}' (or that account does not exist). Application access may have been revoked.`);
        }
        const body = req.method === 'GET' || req.method === 'DELETE' ? {} : parseStripeForm(raw);
        requests.push({ method: req.method ?? 'GET', path: u.pathname, body });
        const key = req.headers['idempotency-key'];
        const idemKey = typeof key === 'string' && req.method === 'POST' ? `${u.pathname}:${key}` : null;
        if (idemKey && idempotent.has(idemKey)) return send(200, idempotent.get(idemKey));
        for (const r of routes) {
          const m = r.method === req.method ? u.pathname.match(r.pattern) : null;
          if (!m) continue;
          const params = Object.fromEntries(r.keys.map((k, i) => [k, decodeURIComponent(m[i + 1])]));
          const answer = await r.handler({ method: r.method, path: u.pathname, params, body, query: u.searchParams, headers: req.headers });
          if (answer === NEXT) continue;
          if (idemKey) idempotent.set(idemKey, answer);
          return send(200, answer);
        }
        throw new StripeError(404, 'resource_missing', `Unrecognized request URL (${req.method}: ${u.pathname}).`);
      } catch (err) {
        if (err instanceof StripeError) return send(err.status, err.body ?? { error: { type: err.type, code: err.code, message: err.message } });
        send(500, { error: { type: 'api_error', message: String(err) } });
      } finally {
        if (req.method !== 'GET') save();
      }
    });
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, resolve);
  });
  const port = (server.address() as AddressInfo).port;
  url = `http://${host}:${port}`;
  started = true;
  return {
    url,
    host: `${host}:${port}`,
    port,
    objects,
    requests,
    events,
    meterEvents,
    route,
    page,
    persist,
    newId: id,
    acceptKey: (key) => void keys.add(key),
    checkAccount: (check) => void (accountCheck = check),
    emit,
    replay: async (event) => deliver(event.payload, event.signature),
    completeCheckout,
    renew,
    endSubscription,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
