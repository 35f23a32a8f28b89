import Stripe from 'stripe';
import {
  NEXT,
  StripeError,
  isDeclinedCard,
  parseStripeForm,
  standInPage,
  testCardsHint,
  type PeerRequest,
  type StripeObject,
  type StripePeer,
} from './peer';
import { formatMinor } from '../contract/money';
import { escapeHtml } from '../http/escape-html';
import { shaped } from './shapes';

// Stripe Connect on the loopback Stripe (./peer.ts): the OAuth authorize page
// (which sends the browser back with a code, or with access_denied), the token exchange (a code
// works once), deauthorization, connected accounts, and — for requests carrying the
// Stripe-Account header — products, prices, Checkout Sessions in payment mode (a direct charge on
// that account), refunds, and the connected account's events, signed with the Connect endpoint's
// secret exactly as Stripe signs them.

export type ConnectOptions = {
  clientId: string;
  /** the Connect webhook endpoint's signing secret */
  webhookSecret: string;
  /** where Connect events go (our webhook); answers the status it got */
  deliver: (payload: string, signature: string) => Promise<number>;
  /** the business name the authorize page connects (default: Globex Care Payments) */
  accountName?: string;
  /** the platform's secret key (default: sk_test_<clientId>, as connectServerEnv sets it) */
  secretKey?: string;
};

export type ConnectEvent = { event: StripeObject; payload: string; signature: string; status: number };

export type ConnectPeer = {
  /** connected accounts by id */
  accounts: Map<string, StripeObject & { deauthorized?: boolean }>;
  /** objects of connected accounts by id (products, prices, sessions, intents, charges, refunds) */
  objects: Map<string, StripeObject>;
  /** the Stripe-Account header of each API request to a connected account */
  calls: { method: string; path: string; account: string | null; body: Record<string, unknown> }[];
  events: ConnectEvent[];
  /** the account the next authorize page connects */
  nextAccount: { name: string; country: string; currency: string };
  /** a code as the authorize page would give one (for API tests) */
  authorize(state: string): string;
  /** the customer pays on the hosted page: succeeded, declined (stays open), or pending (async method) */
  pay(sessionId: string, outcome?: 'succeeded' | 'declined' | 'pending'): Promise<void>;
  /** an async payment method settles */
  settle(sessionId: string, outcome: 'succeeded' | 'failed'): Promise<void>;
  /** the session reaches its expiry unpaid */
  expire(sessionId: string): Promise<void>;
  /** sends a signed event of a connected account (also used to resend stale objects) */
  emit(type: string, object: StripeObject, account: string): Promise<ConnectEvent>;
  replay(event: ConnectEvent): Promise<number>;
  /** the account revokes our access on Stripe */
  revoke(account: string): Promise<ConnectEvent>;
};

type Obj = StripeObject & Record<string, unknown>;

/** The server settings of a platform whose Connect calls (OAuth and API) go to this peer. */
export function connectServerEnv(
  peer: StripePeer,
  clientId: string,
  webhookSecret: string,
  secretKey = `sk_test_${clientId}`,
): Record<string, string> {
  return {
    STRIPE_CONNECT_CLIENT_ID: clientId,
    STRIPE_CONNECT_SECRET_KEY: secretKey,
    STRIPE_CONNECT_WEBHOOK_SECRET: webhookSecret,
    STRIPE_API_BASE: peer.url,
    STRIPE_CONNECT_AUTHORIZE_URL: `${peer.url}/oauth/authorize`,
  };
}

export function addStripeConnect(peer: StripePeer, options: ConnectOptions): ConnectPeer {
  const now = () => Math.floor(Date.now() / 1000);
  const accounts: ConnectPeer['accounts'] = new Map();
  const objects = new Map<string, Obj>();
  const owner = new Map<string, string>();
  const codes = new Map<string, { account: string; used: boolean }>();
  const calls: ConnectPeer['calls'] = [];
  const events: ConnectEvent[] = [];
  const signer = new Stripe('sk_test_peer');
  const lineItems = new Map<string, Obj[]>();
  // the platform's key, and with it (by Stripe-Account) the accounts it connected and still may use
  peer.acceptKey(options.secretKey ?? `sk_test_${options.clientId}`);
  peer.checkAccount((id) => {
    const acct = accounts.get(id);
    return !!acct && !acct.deauthorized;
  });
  const state = { nextAccount: { name: options.accountName ?? 'Globex Care Payments', country: 'US', currency: 'usd' } };
  peer.persist('connect', {
    save: () => ({
      accounts: [...accounts.values()],
      objects: [...objects.values()],
      owner: [...owner],
      codes: [...codes],
      lineItems: [...lineItems],
    }),
    load: (data) => {
      const d = data as {
        accounts: (StripeObject & { deauthorized?: boolean })[];
        objects: Obj[];
        owner: [string, string][];
        codes: [string, { account: string; used: boolean }][];
        lineItems?: [string, Obj[]][];
      };
      // a store written before the whole shapes were kept is completed on load
      for (const a of d.accounts) accounts.set(a.id, shaped(a));
      for (const o of d.objects) objects.set(o.id, shaped(o));
      for (const [k, v] of d.lineItems ?? []) lineItems.set(k, v);
      for (const [k, v] of d.owner) owner.set(k, v);
      for (const [k, v] of d.codes) codes.set(k, v);
    },
  });

  const accountOf = (req: PeerRequest): string | null => {
    const h = req.headers['stripe-account'];
    return typeof h === 'string' ? h : null;
  };
  const scoped = (req: PeerRequest): string => {
    const account = accountOf(req)!;
    const acct = accounts.get(account);
    if (!acct || acct.deauthorized)
      throw new StripeError(
        403,
        'account_invalid',
        `The provided key does not have access to account '${account}' (or that account does not exist).`,
        'invalid_request_error',
      );
    calls.push({ method: req.method, path: req.path, account, body: req.body });
    return account;
  };
  const get = (id: string, kind: string, account: string): Obj => {
    const o = objects.get(id);
    if (!o || o.object !== kind || owner.get(id) !== account)
      throw new StripeError(404, 'resource_missing', `No such ${kind.replace('.', '_')}: '${id}'`);
    return o;
  };
  const put = (fields: Obj, account: string): Obj => {
    const o = shaped(fields);
    objects.set(o.id, o);
    owner.set(o.id, account);
    return o;
  };
  const expands = (req: PeerRequest): string[] => {
    const fromQuery = parseStripeForm(req.query.toString()).expand;
    const e = (req.body.expand ?? fromQuery ?? []) as string[];
    return Array.isArray(e) ? e : [];
  };
  const productView = (p: Obj, expand: string[]) =>
    expand.some((e) => e.endsWith('default_price')) && typeof p.default_price === 'string'
      ? { ...p, default_price: objects.get(p.default_price) ?? p.default_price }
      : { ...p };
  const sessionView = (s: Obj, expand: string[]) => {
    const view: Obj = expand.includes('line_items')
      ? {
          ...s,
          line_items: {
            object: 'list',
            data: lineItems.get(s.id) ?? [],
            has_more: false,
            url: `/v1/checkout/sessions/${s.id}/line_items`,
          },
        }
      : { ...s };
    if (!expand.some((e) => e.startsWith('payment_intent')) || typeof s.payment_intent !== 'string') return view;
    const pi = { ...objects.get(s.payment_intent)! };
    if (expand.includes('payment_intent.latest_charge') && typeof pi.latest_charge === 'string')
      pi.latest_charge = { ...objects.get(pi.latest_charge)! };
    return { ...view, payment_intent: pi };
  };

  async function emit(type: string, object: StripeObject, account: string): Promise<ConnectEvent> {
    const event = shaped({
      id: peer.newId('evt'),
      object: 'event',
      account,
      api_version: '2026-01-28.clover',
      created: now(),
      livemode: false,
      pending_webhooks: 1,
      type,
      data: { object: structuredClone(object) },
    });
    const payload = JSON.stringify(event, null, 2);
    const signature = signer.webhooks.generateTestHeaderString({ payload, secret: options.webhookSecret });
    const sent: ConnectEvent = { event, payload, signature, status: 0 };
    events.push(sent);
    sent.status = await options.deliver(payload, signature);
    return sent;
  }

  function newAccount(): string {
    const id = peer.newId('acct').slice(0, 21);
    const a = state.nextAccount;
    const blank = shaped({ id, object: 'account' });
    accounts.set(
      id,
      shaped({
        id,
        object: 'account',
        type: 'standard',
        created: now(),
        country: a.country,
        default_currency: a.currency,
        charges_enabled: true,
        email: 'finance@example.test',
        business_profile: { ...(blank.business_profile as object), name: a.name },
        settings: { ...(blank.settings as object), dashboard: { display_name: a.name, timezone: 'Etc/UTC' } },
      }),
    );
    return id;
  }

  function authorize(st: string): string {
    const code = peer.newId('ac');
    codes.set(code, { account: newAccount(), used: false });
    void st;
    return code;
  }

  // ---- OAuth: the authorize page, token exchange and deauthorization
  peer.page('GET', '/oauth/authorize', ({ query }) => {
    if (
      query.get('client_id') !== options.clientId ||
      query.get('response_type') !== 'code' ||
      query.get('scope') !== 'read_write' ||
      !query.get('redirect_uri')
    ) {
      return {
        status: 400,
        body: '<!doctype html><html lang="en"><head><title>Bad request</title></head><body><main><h1>Invalid authorize request</h1></main></body></html>',
      };
    }
    const back = new URL(query.get('redirect_uri')!);
    back.searchParams.set('state', query.get('state') ?? '');
    const allow = new URL(back);
    allow.searchParams.set('code', authorize(query.get('state') ?? ''));
    allow.searchParams.set('scope', 'read_write');
    const deny = new URL(back);
    deny.searchParams.set('error', 'access_denied');
    deny.searchParams.set('error_description', 'The user denied your request');
    return {
      status: 200,
      body: standInPage(
        'Connect with Stripe',
        `<h1>Connect ${escapeHtml(state.nextAccount.name)} to the platform</h1>
<p>On Stripe this is where the business signs in (or opens an account) and approves the connection. Here a test account is made for it.</p>
<p><a class="button" href="${escapeHtml(allow.toString())}">Connect my Stripe account</a></p><p><a href="${escapeHtml(deny.toString())}">Deny</a></p>`,
      ),
    };
  });

  const oauthError = (error: string, description: string) =>
    new StripeError(400, error, description, error, { error, error_description: description });
  peer.route('POST', '/oauth/token', ({ body }) => {
    if (body.grant_type !== 'authorization_code')
      throw oauthError('unsupported_grant_type', 'Only authorization_code is supported here');
    const entry = codes.get(String(body.code ?? ''));
    if (!entry) throw oauthError('invalid_grant', `Authorization code does not exist: ${String(body.code)}`);
    if (entry.used) throw oauthError('invalid_grant', `Authorization code already used: ${String(body.code)}`);
    entry.used = true;
    return {
      access_token: 'sk_test_connected_unused',
      livemode: false,
      refresh_token: 'rt_unused',
      token_type: 'bearer',
      stripe_publishable_key: 'pk_test_unused',
      stripe_user_id: entry.account,
      scope: 'read_write',
    };
  });
  peer.route('POST', '/oauth/deauthorize', async ({ body }) => {
    if (body.client_id !== options.clientId) throw oauthError('invalid_client', 'No such application');
    const acct = accounts.get(String(body.stripe_user_id));
    if (!acct || acct.deauthorized) throw oauthError('invalid_client', `No such user: ${String(body.stripe_user_id)}`);
    acct.deauthorized = true;
    await emit('account.application.deauthorized', { id: 'ca_app', object: 'application', name: 'Switchboard' }, acct.id);
    return { stripe_user_id: acct.id };
  });
  peer.route('GET', '/v1/accounts/:id', ({ params }) => {
    const acct = accounts.get(params.id);
    if (!acct || acct.deauthorized)
      throw new StripeError(403, 'account_invalid', 'The provided key does not have access to this account.');
    return acct;
  });

  // ---- products and prices of a connected account
  peer.route('POST', '/v1/products', (req) => {
    if (!accountOf(req)) return NEXT;
    const account = scoped(req);
    const { body } = req;
    if (!body.name) throw new StripeError(400, 'parameter_missing', 'Missing required param: name.');
    const product = put(
      {
        id: peer.newId('prod'),
        object: 'product',
        name: body.name,
        description: body.description ?? null,
        active: true,
        default_price: null,
        created: now(),
        updated: now(),
        metadata: {},
      },
      account,
    );
    const pd = body.default_price_data as { currency?: string; unit_amount?: string } | undefined;
    if (pd) {
      const price = put(
        {
          id: peer.newId('price'),
          object: 'price',
          product: product.id,
          currency: pd.currency,
          unit_amount: Number(pd.unit_amount),
          active: true,
          type: 'one_time',
          created: now(),
        },
        account,
      );
      product.default_price = price.id;
    }
    return productView(product, expands(req));
  });
  peer.route('GET', '/v1/products', (req) => {
    if (!accountOf(req)) return NEXT;
    const account = scoped(req);
    const data = [...objects.values()]
      .filter((o) => o.object === 'product' && owner.get(o.id) === account)
      .sort((a, b) => Number(b.created) - Number(a.created));
    return { object: 'list', data: data.map((p) => productView(p, expands(req))), has_more: false, url: '/v1/products' };
  });
  peer.route('GET', '/v1/products/:id', (req) => productView(get(req.params.id, 'product', scoped(req)), expands(req)));
  peer.route('POST', '/v1/products/:id', (req) => {
    const product = get(req.params.id, 'product', scoped(req));
    const { body } = req;
    if (body.name !== undefined) product.name = body.name;
    if (body.description !== undefined) product.description = body.description || null;
    if (body.active !== undefined) product.active = body.active === 'true';
    if (body.default_price !== undefined)
      product.default_price = get(String(body.default_price), 'price', owner.get(product.id)!).id;
    product.updated = now();
    return productView(product, expands(req));
  });
  peer.route('POST', '/v1/prices', (req) => {
    if (!accountOf(req)) return NEXT;
    const account = scoped(req);
    const product = get(String(req.body.product), 'product', account);
    return put(
      {
        id: peer.newId('price'),
        object: 'price',
        product: product.id,
        currency: req.body.currency,
        unit_amount: Number(req.body.unit_amount),
        active: true,
        type: 'one_time',
        created: now(),
      },
      account,
    );
  });
  peer.route('POST', '/v1/prices/:id', (req) => {
    const price = get(req.params.id, 'price', scoped(req));
    if (req.body.active !== undefined) price.active = req.body.active === 'true';
    return price;
  });

  // ---- Checkout Sessions in payment mode on a connected account
  peer.route('POST', '/v1/checkout/sessions', (req) => {
    if (!accountOf(req)) return NEXT;
    const account = scoped(req);
    const { body } = req;
    if (body.mode !== 'payment')
      throw new StripeError(400, 'parameter_invalid', 'Only payment mode is played for connected accounts');
    const items =
      (body.line_items as
        | {
            price?: string;
            quantity?: string;
            price_data?: { currency: string; unit_amount: string; product_data: { name: string } };
          }[]
        | undefined) ?? [];
    if (!items.length) throw new StripeError(400, 'parameter_missing', 'line_items is required');
    let amount = 0;
    let currency = '';
    const sid = peer.newId('cs_test');
    const made: Obj[] = [];
    for (const li of items) {
      const quantity = Number(li.quantity ?? 1);
      let price: Obj;
      let description = '';
      if (li.price) {
        price = get(li.price, 'price', account);
        if (!price.active) throw new StripeError(400, 'price_inactive', 'The price is not active');
        description = String(objects.get(String(price.product))?.name ?? '');
      } else if (li.price_data) {
        // price_data makes a price of its own, as Stripe does (not listed in the catalog)
        price = shaped({
          id: peer.newId('price'),
          object: 'price',
          active: false,
          currency: li.price_data.currency,
          unit_amount: Number(li.price_data.unit_amount),
          created: now(),
          product: peer.newId('prod'),
        });
        description = li.price_data.product_data.name;
      } else throw new StripeError(400, 'parameter_missing', 'line_items[0][price] or line_items[0][price_data] is required');
      const line = Number(price.unit_amount) * quantity;
      amount += line;
      currency = String(price.currency);
      made.push(
        shaped({
          id: peer.newId('li'),
          object: 'item',
          amount_subtotal: line,
          amount_total: line,
          currency,
          description,
          price,
          quantity,
        }),
      );
    }
    const expiresAt = Number(body.expires_at ?? now() + 86_400);
    if (expiresAt < now() + 30 * 60 - 5 || expiresAt > now() + 86_400 + 5)
      throw new StripeError(400, 'parameter_invalid', 'expires_at must be between 30 minutes and 24 hours from now');
    lineItems.set(sid, made);
    const session = put(
      {
        id: sid,
        object: 'checkout.session',
        mode: 'payment',
        status: 'open',
        payment_status: 'unpaid',
        amount_subtotal: amount,
        amount_total: amount,
        currency,
        client_reference_id: body.client_reference_id ?? null,
        metadata: body.metadata ?? {},
        payment_intent: null,
        payment_intent_data: body.payment_intent_data ?? {},
        success_url: body.success_url,
        cancel_url: body.cancel_url,
        url: `${peer.url}/pay/${sid}`,
        created: now(),
        expires_at: expiresAt,
      },
      account,
    );
    return sessionView(session, expands(req));
  });
  peer.route('GET', '/v1/checkout/sessions', (req) => {
    if (!accountOf(req)) return NEXT;
    const account = scoped(req);
    const pi = req.query.get('payment_intent');
    const all = [...objects.values()]
      .filter((o) => o.object === 'checkout.session' && owner.get(o.id) === account && (!pi || o.payment_intent === pi))
      .sort((a, b) => Number(b.created) - Number(a.created));
    const limit = Math.min(100, Math.max(1, Number(req.query.get('limit') ?? 10) || 10));
    return {
      object: 'list',
      data: all.slice(0, limit).map((o) => sessionView(o, expands(req))),
      has_more: all.length > limit,
      url: '/v1/checkout/sessions',
    };
  });
  peer.route('GET', '/v1/checkout/sessions/:id/line_items', (req) => {
    if (!accountOf(req)) return NEXT;
    const session = get(req.params.id, 'checkout.session', scoped(req));
    return {
      object: 'list',
      data: lineItems.get(session.id) ?? [],
      has_more: false,
      url: `/v1/checkout/sessions/${session.id}/line_items`,
    };
  });
  peer.route('GET', '/v1/checkout/sessions/:id', (req) => {
    if (!accountOf(req)) return NEXT;
    return sessionView(get(req.params.id, 'checkout.session', scoped(req)), expands(req));
  });
  peer.route('POST', '/v1/checkout/sessions/:id/expire', async (req) => {
    if (!accountOf(req)) return NEXT;
    const account = scoped(req);
    const session = get(req.params.id, 'checkout.session', account);
    if (session.status !== 'open') throw new StripeError(400, 'checkout_session_not_open', 'Only open sessions can be expired');
    Object.assign(session, { status: 'expired', url: null });
    await emit('checkout.session.expired', session, account);
    return session;
  });

  // ---- refunds
  peer.route('POST', '/v1/refunds', async (req) => {
    if (!accountOf(req)) return NEXT;
    const account = scoped(req);
    // by the payment (payment_intent) or by its charge (charge), as Stripe takes either
    if (!req.body.payment_intent && !req.body.charge)
      throw new StripeError(
        400,
        'parameter_missing',
        'One of the following params should be provided for this request: payment_intent or charge.',
      );
    const reason = req.body.reason === undefined ? null : String(req.body.reason);
    if (reason !== null && !['duplicate', 'fraudulent', 'requested_by_customer'].includes(reason))
      throw new StripeError(
        400,
        'parameter_invalid_string',
        `Invalid reason: must be one of duplicate, fraudulent, or requested_by_customer`,
      );
    const charge = req.body.charge
      ? get(String(req.body.charge), 'charge', account)
      : get(String(get(String(req.body.payment_intent), 'payment_intent', account).latest_charge), 'charge', account);
    const pi = get(String(charge.payment_intent), 'payment_intent', account);
    const left = Number(charge.amount) - Number(charge.amount_refunded);
    const amount = req.body.amount ? Number(req.body.amount) : left;
    if (amount > left)
      throw new StripeError(
        400,
        'amount_too_large',
        `Refund amount (${amount}) is greater than unrefunded amount on charge (${left})`,
      );
    const refund = put(
      {
        id: peer.newId('re'),
        object: 'refund',
        amount,
        balance_transaction: peer.newId('txn'),
        charge: charge.id,
        payment_intent: pi.id,
        currency: charge.currency,
        reason,
        status: 'succeeded',
        created: now(),
        metadata: req.body.metadata ?? {},
      },
      account,
    );
    charge.amount_refunded = Number(charge.amount_refunded) + amount;
    charge.refunded = charge.amount_refunded === charge.amount;
    const refunds = charge.refunds as { data: Obj[] };
    refunds.data = [refund, ...refunds.data];
    await emit('charge.refunded', charge, account);
    return refund;
  });

  peer.route('GET', '/v1/refunds/:id', (req) => {
    if (!accountOf(req)) throw new StripeError(404, 'resource_missing', `No such refund: '${req.params.id}'`);
    return get(req.params.id, 'refund', scoped(req));
  });

  // ---- what a customer does on the hosted page
  function paymentIntentOf(session: Obj, account: string): Obj {
    if (typeof session.payment_intent === 'string') return objects.get(session.payment_intent)!;
    const pi = put(
      {
        id: peer.newId('pi'),
        object: 'payment_intent',
        amount: session.amount_total,
        currency: session.currency,
        status: 'requires_payment_method',
        latest_charge: null,
        last_payment_error: null,
        metadata: (session.payment_intent_data as { metadata?: unknown }).metadata ?? {},
        created: now(),
      },
      account,
    );
    session.payment_intent = pi.id;
    return pi;
  }
  function charge(pi: Obj, account: string): Obj {
    const ch = put(
      {
        id: peer.newId('ch'),
        object: 'charge',
        amount: pi.amount,
        amount_captured: pi.amount,
        amount_refunded: 0,
        refunded: false,
        currency: pi.currency,
        payment_intent: pi.id,
        balance_transaction: peer.newId('txn'),
        status: 'succeeded',
        paid: true,
        created: now(),
        metadata: pi.metadata,
      },
      account,
    );
    Object.assign(pi, { status: 'succeeded', latest_charge: ch.id, last_payment_error: null, amount_received: pi.amount });
    return ch;
  }

  async function pay(sessionId: string, outcome: 'succeeded' | 'declined' | 'pending' = 'succeeded'): Promise<void> {
    const session = objects.get(sessionId)!;
    const account = owner.get(sessionId)!;
    if (session.status !== 'open') throw new StripeError(400, 'checkout_not_open', 'This checkout is no longer open.');
    const pi = paymentIntentOf(session, account);
    if (outcome === 'declined') {
      pi.last_payment_error = {
        type: 'card_error',
        code: 'card_declined',
        decline_code: 'generic_decline',
        message: 'Your card was declined.',
      };
      await emit('payment_intent.payment_failed', pi, account);
      return;
    }
    if (outcome === 'pending') {
      Object.assign(pi, { status: 'processing' });
      Object.assign(session, { status: 'complete', payment_status: 'unpaid', url: null });
      await emit('checkout.session.completed', session, account);
      return;
    }
    charge(pi, account);
    Object.assign(session, { status: 'complete', payment_status: 'paid', url: null });
    await emit('checkout.session.completed', session, account);
  }

  async function settle(sessionId: string, outcome: 'succeeded' | 'failed'): Promise<void> {
    const session = objects.get(sessionId)!;
    const account = owner.get(sessionId)!;
    const pi = paymentIntentOf(session, account);
    if (outcome === 'succeeded') {
      charge(pi, account);
      session.payment_status = 'paid';
      await emit('checkout.session.async_payment_succeeded', session, account);
    } else {
      Object.assign(pi, {
        status: 'requires_payment_method',
        last_payment_error: {
          type: 'invalid_request_error',
          code: 'payment_method_not_available',
          message: 'The bank debit was returned.',
        },
      });
      await emit('checkout.session.async_payment_failed', session, account);
    }
  }

  async function expire(sessionId: string): Promise<void> {
    const session = objects.get(sessionId)!;
    Object.assign(session, { status: 'expired', url: null });
    await emit('checkout.session.expired', session, owner.get(sessionId)!);
  }

  // the hosted payment page a browser sees (e2e): pay with the test card
  peer.page('GET', '/pay/:id', ({ params }) => {
    const session = objects.get(params.id);
    if (!session || session.object !== 'checkout.session')
      return { status: 404, body: '<!doctype html><title>Not found</title>' };
    const declined = !!(
      session.payment_intent &&
      (objects.get(String(session.payment_intent))?.last_payment_error as { message?: string } | null)?.message
    );
    return {
      status: 200,
      body: standInPage(
        'Pay',
        `<h1>Pay ${escapeHtml(formatMinor(Number(session.amount_total), String(session.currency), 'en-US'))}</h1>
${declined ? '<p class="error" role="alert">Your card was declined. Try the test card 4242 4242 4242 4242.</p>' : ''}
<form method="post" action="/pay/${escapeHtml(session.id)}"><label for="card">Card number</label><input id="card" name="card" inputmode="numeric" autocomplete="off" value="4242 4242 4242 4242"><button type="submit">Pay</button></form>${testCardsHint()}`,
      ),
    };
  });
  peer.page('POST', '/pay/:id', async ({ params, body }) => {
    const declined = isDeclinedCard(body.card);
    await pay(params.id, declined ? 'declined' : 'succeeded');
    const session = objects.get(params.id)!;
    return declined
      ? { status: 303, headers: { location: `/pay/${params.id}` } }
      : { status: 303, headers: { location: String(session.success_url) } };
  });

  return {
    accounts,
    objects,
    calls,
    events,
    get nextAccount() {
      return state.nextAccount;
    },
    set nextAccount(value) {
      state.nextAccount = value;
    },
    authorize,
    pay,
    settle,
    expire,
    emit,
    replay: (event) => options.deliver(event.payload, event.signature),
    revoke: async (account) => {
      const acct = accounts.get(account)!;
      acct.deauthorized = true;
      return emit('account.application.deauthorized', { id: 'ca_app', object: 'application', name: 'Switchboard' }, account);
    },
  };
}
