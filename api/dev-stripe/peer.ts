import http from 'node:http';
import crypto from 'node:crypto';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { shaped } from './shapes';
import {
  parseStripeForm,
  StripeError,
  NEXT,
  type Handler,
  type PageHandler,
  type SentEvent,
  type StripeObject,
} from './protocol';
import type { HostedPage, PeerCore } from './routes/core';
import { customers } from './routes/customers';
import { prices } from './routes/prices';
import { invoices } from './routes/invoices';
import { checkoutSessions } from './routes/checkout-sessions';
import { subscriptions } from './routes/subscriptions';
import { billingPortal } from './routes/billing-portal';
import { meterEvents as meterEventRoutes } from './routes/meter-events';

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
//
// This file is the server: the store, routing, keys, idempotency and events. Each resource it
// plays is a module of ./routes/ given the peer's core (routes/core.ts).

export * from './protocol';
export * from './stand-in-page';

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

export async function startStripePeer(options: StripePeerOptions): Promise<StripePeer> {
  const now = () => Math.floor((options.now?.() ?? new Date()).getTime() / 1000);
  const objects = new Map<string, StripeObject>();
  const requests: StripePeer['requests'] = [];
  const events: SentEvent[] = [];
  const meterEvents: StripeObject[] = [];
  const meterIdentifiers = new Set<string>();
  const routes: { method: string; pattern: RegExp; keys: string[]; handler: Handler }[] = [];
  const pages: { method: string; pattern: RegExp; keys: string[]; handler: PageHandler }[] = [];
  // the hosted pages of the peer's own resources, tried after the pages areas add
  const hostedPages: { path: RegExp; page: HostedPage }[] = [];
  let started = false;
  const idempotent = new Map<string, unknown>();
  const signer = new Stripe('sk_test_peer');
  let url = '';
  const keys = new Set(options.secretKeys ?? []);
  let accountCheck: (account: string) => boolean = () => false;
  // a Checkout session's line items and subscription data (routes/checkout-sessions.ts)
  const sessionItems = new Map<string, StripeObject[]>();
  const subscriptionData = new Map<string, { metadata?: Record<string, string> }>();

  // ---- the store file (development): every area's state, written after each change
  const kept = new Map<string, { save(): unknown; load(data: unknown): void }>();
  const stored: Record<string, unknown> =
    options.store && fs.existsSync(options.store) ? JSON.parse(fs.readFileSync(options.store, 'utf8')) : {};
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
    save: () => ({
      objects: [...objects.values()],
      meterIdentifiers: [...meterIdentifiers],
      sessionItems: [...sessionItems],
      subscriptionData: [...subscriptionData],
    }),
    load: (data) => {
      const d = data as {
        objects: StripeObject[];
        meterIdentifiers: string[];
        sessionItems?: [string, StripeObject[]][];
        subscriptionData?: [string, { metadata?: Record<string, string> }][];
      };
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
          sessionItems.set(
            o.id,
            old.map((li) =>
              shaped({
                id: id('li'),
                object: 'item',
                price: objects.get(li.price) ?? shaped({ id: li.price, object: 'price' }),
                quantity: li.quantity ? Number(li.quantity) : 1,
              }),
            ),
          );
        }
        if (!subscriptionData.has(o.id) && o.subscription_data)
          subscriptionData.set(o.id, o.subscription_data as { metadata?: Record<string, string> });
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
    const res = await fetch(options.webhookUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': signature },
      body: payload,
    });
    await res.arrayBuffer();
    return res.status;
  }

  async function emit(type: string, object: StripeObject): Promise<SentEvent> {
    const event = shaped({
      id: id('evt'),
      object: 'event',
      api_version: '2026-01-28.clover',
      created: now(),
      livemode: false,
      pending_webhooks: 1,
      type,
      data: { object: structuredClone(object) },
    });
    const payload = JSON.stringify(event, null, 2);
    const signature = signer.webhooks.generateTestHeaderString({ payload, secret: options.webhookSecret });
    const sent: SentEvent = { event, payload, signature, status: 0 };
    events.push(sent);
    sent.status = await deliver(payload, signature);
    return sent;
  }

  const core: PeerCore = {
    objects,
    sessionItems,
    subscriptionData,
    meterIdentifiers,
    meterEvents,
    route,
    hosted: (path, page) => void hostedPages.push({ path, page }),
    put,
    get,
    list,
    paged,
    id,
    now,
    emit,
    url: () => url,
  };
  customers(core);
  prices(core);
  const invoicing = invoices(core);
  const { completeCheckout } = checkoutSessions(core, invoicing);
  const { renew, endSubscription } = subscriptions(core, invoicing);
  billingPortal(core);
  meterEventRoutes(core);

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
          const answer = await p.handler({
            method: p.method,
            params,
            query: u.searchParams,
            body: req.method === 'POST' ? parseStripeForm(raw) : {},
          });
          res.writeHead(answer.status, { 'content-type': 'text/html; charset=utf-8', ...(answer.headers ?? {}) });
          return res.end(answer.body ?? '');
        }
        // The hosted pages a browser sees.
        for (const { path, page } of hostedPages) {
          const m = u.pathname.match(path);
          if (!m) continue;
          const answer = await page(m, { method: req.method ?? 'GET', form: () => parseStripeForm(raw) });
          res.writeHead(answer.status, answer.headers ?? {});
          return res.end(answer.body ?? '');
        }
        // Stripe's API answers only its own keys: the platform's secret key (OAuth's token
        // exchange is made with it too), and for a connected account the same key with Stripe-Account
        const bearer = /^Bearer (.*)$/.exec(req.headers.authorization ?? '')?.[1];
        if (!bearer || !keys.has(bearer)) {
          const shown = bearer ? `${bearer.slice(0, 7)}${'*'.repeat(Math.max(0, bearer.length - 11))}${bearer.slice(-4)}` : '';
          throw new StripeError(
            401,
            'invalid_api_key',
            bearer ? `Invalid API Key provided: ${shown}` : 'You did not provide an API key.',
          );
        }
        const onBehalf = req.headers['stripe-account'];
        if (typeof onBehalf === 'string' && !accountCheck(onBehalf)) {
          throw new StripeError(
            403,
            'account_invalid',
            `The provided key '${bearer.slice(0, 7)}***${bearer.slice(-4)}' does not have access to account '${onBehalf}' (or that account does not exist). Application access may have been revoked.`,
          );
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
          const answer = await r.handler({
            method: r.method,
            path: u.pathname,
            params,
            body,
            query: u.searchParams,
            headers: req.headers,
          });
          if (answer === NEXT) continue;
          if (idemKey) idempotent.set(idemKey, answer);
          return send(200, answer);
        }
        throw new StripeError(404, 'resource_missing', `Unrecognized request URL (${req.method}: ${u.pathname}).`);
      } catch (err) {
        if (err instanceof StripeError)
          return send(err.status, err.body ?? { error: { type: err.type, code: err.code, message: err.message } });
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
