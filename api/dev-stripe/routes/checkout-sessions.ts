import { escapeHtml } from '../../http/escape-html';
import { getApp } from '../../contract/apps';
import { parseStripeForm, StripeError, type PeerRequest, type StripeObject } from '../protocol';
import { shaped } from '../shapes';
import { isDeclinedCard, standInPage, testCardsHint } from '../stand-in-page';
import { HTML, MONTH_S, type PeerCore } from './core';
import type { Invoices } from './invoices';

// Checkout sessions and their hosted page. A session's line items are not a field of the session
// on Stripe: they are read with expand[]=line_items or GET .../line_items.

export type CheckoutSessions = {
  /** plays the customer completing the hosted checkout page; answers where the browser goes next */
  completeCheckout(sessionId: string): Promise<string>;
};

export function checkoutSessions(core: PeerCore, { newInvoice }: Invoices): CheckoutSessions {
  const { route, hosted, objects, sessionItems, subscriptionData, put, get, list, paged, id, now, emit, url } = core;

  /** the session as answered: `expand` may ask for its line items (Stripe's list of `item`s) */
  const expandsOf = (req: PeerRequest): string[] => {
    const e = req.body.expand ?? parseStripeForm(req.query.toString()).expand ?? [];
    return Array.isArray(e) ? e.map(String) : [];
  };
  const sessionView = (session: StripeObject, expand: string[]) =>
    expand.includes('line_items')
      ? { ...session, line_items: list(sessionItems.get(session.id) ?? [], `/v1/checkout/sessions/${session.id}/line_items`) }
      : session;
  route('POST', '/v1/checkout/sessions', (req) => {
    const { body } = req;
    if (body.mode !== 'subscription' && body.mode !== 'payment')
      throw new StripeError(400, 'parameter_invalid', 'mode must be subscription or payment');
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
      const amount =
        Number(price.unit_amount ?? 0) *
        (price.recurring && (price.recurring as { usage_type?: string }).usage_type === 'metered' ? 0 : quantity);
      total += amount;
      currency = String(price.currency ?? currency);
      return shaped({
        id: id('li'),
        object: 'item',
        amount_subtotal: amount,
        amount_total: amount,
        currency: String(price.currency ?? 'usd'),
        description: String(price.nickname ?? price.id),
        price,
        quantity: li.quantity === undefined ? null : quantity,
      });
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
      url: `${url()}/checkout/${sid}`,
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
      .filter(
        (o) =>
          o.object === 'checkout.session' &&
          (!customer || o.customer === customer) &&
          (!status || o.status === status) &&
          (!subscription || o.subscription === subscription),
      )
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
    if (session.status !== 'open')
      throw new StripeError(
        400,
        'checkout_session_not_open',
        `Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of "${String(session.status)}".`,
      );
    return Object.assign(session, { status: 'expired', url: null });
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

  // the hosted page: shown, then paid with a test card (POST .../pay)
  hosted(/^\/checkout\/([^/]+)(\/pay)?$/, async (m, req) => {
    const session = get(m[1]!, 'checkout.session');
    if (req.method === 'POST' && m[2]) {
      if (isDeclinedCard(req.form().card))
        return {
          status: 402,
          headers: HTML,
          body: checkoutPage(session, 'Your card was declined. Try the test card 4242 4242 4242 4242.'),
        };
      return { status: 303, headers: { location: await completeCheckout(session.id) } };
    }
    return { status: 200, headers: HTML, body: checkoutPage(session) };
  });

  return { completeCheckout };
}
