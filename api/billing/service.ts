import { sql } from 'kysely';
import type Stripe from 'stripe';
import type { Session } from '../auth/context';
import { audit, actorOf } from '../audit';
import { APPS, getApp, type AppId } from '../contract/apps';
import type { AppBillingDetail, BillingApp, BillingOverview, Invoice, SubscriptionPrice } from '../contract/billing';
import { estimateInvoiceCents, planOfStatus, plansOf } from '../contract/plans';
import type { Trx } from '../db/index';
import type { Deps } from '../deps';
import { ApiError } from '../http/errors';
import { usageOf } from './data';
import { creditsPerDay } from '../usage/credits';
import type { Config } from '../config';
import { notConfigured, requireStripe, stripeConfigured, stripeFailure, stripeOf, subscribable } from './stripe';
import { applySubscription, HANDLED_EVENTS, subscriptionIdOf } from './subscriptions';

// What the billing screens and Stripe's webhook do. Every Stripe call happens outside a
// database transaction (a slow Stripe never holds a row lock); what Stripe answers is then
// applied in one transaction with its audit entry.

const DAY = 86_400_000;
const iso = (d: Date | string | null | undefined) => (d ? new Date(d).toISOString() : null);

type BillingRow = {
  app: string;
  status: BillingApp['status'];
  trial_ends_at: Date | null;
  credits: number;
  free_tier: number;
  period_start: Date | null;
  period_end: Date | null;
  cancel_at_period_end: boolean;
  payment_failed_at: Date | null;
  stripe_subscription_id: string | null;
  checkout_session_id: string | null;
  checkout_url: string | null;
};

const COLUMNS = [
  'app',
  'status',
  'trial_ends_at',
  'credits',
  'free_tier',
  'period_start',
  'period_end',
  'cancel_at_period_end',
  'payment_failed_at',
  'stripe_subscription_id',
  'checkout_session_id',
  'checkout_url',
] as const;

function rowOf(trx: Trx, accountId: string, app: AppId, lock = false) {
  let q = trx.selectFrom('app_billing').select(COLUMNS).where('account_id', '=', accountId).where('app', '=', app);
  if (lock) q = q.forUpdate();
  return q.executeTakeFirst() as Promise<BillingRow | undefined>;
}

export function billingAppOf(config: Config, app: AppId, row: BillingRow | undefined): BillingApp {
  const status = row?.status ?? 'inactive';
  const plans = plansOf(app)!;
  const credits = row?.credits ?? 0;
  const freeTier = row && status !== 'inactive' ? row.free_tier : 0;
  const subscribed = status === 'subscription' && !!row?.period_end;
  return {
    app,
    status,
    plan: planOfStatus(status),
    trialEndsAt: status === 'free-trial' ? iso(row?.trial_ends_at) : null,
    periodStart: iso(row?.period_start),
    periodEnd: iso(row?.period_end),
    cancelAtPeriodEnd: !!row?.cancel_at_period_end && status === 'subscription',
    paymentFailed: !!row?.payment_failed_at && status === 'subscription',
    checkoutOpen: !!row?.checkout_session_id,
    subscribable: subscribable(config, app),
    usage: usageOf(credits, freeTier),
    nextInvoice: subscribed ? { date: iso(row!.period_end)!, amountCents: estimateInvoiceCents(plans, credits) } : null,
  };
}

const BILLABLE = APPS.filter((a) => a.billable);

export function assertBillable(app: AppId): void {
  if (!getApp(app)?.billable) throw new ApiError(404, 'APP_NOT_FOUND', `${getApp(app)?.title ?? 'This app'} has no billing.`);
}

export async function overview(deps: Deps, session: Session, apps: AppId[]): Promise<BillingOverview> {
  return deps.db.tenant(session.accountId, async (trx) => {
    const rows = (await trx
      .selectFrom('app_billing')
      .select(COLUMNS)
      .where('account_id', '=', session.accountId)
      .execute()) as BillingRow[];
    const byApp = new Map(rows.map((r) => [r.app, r]));
    const customer = await trx
      .selectFrom('billing_customers')
      .select(['stripe_customer_id', 'billing_email'])
      .where('account_id', '=', session.accountId)
      .executeTakeFirst();
    return {
      configured: stripeConfigured(deps.config),
      billingEmail: customer?.billing_email ?? null,
      hasCustomer: !!customer?.stripe_customer_id,
      apps: BILLABLE.filter((a) => apps.includes(a.id)).map((a) => billingAppOf(deps.config, a.id, byApp.get(a.id))),
    };
  });
}

const utcDay = (d: Date) => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));

/** Every UTC day of [from, to) with the credits used on it (0 for days without any). */
function days(from: Date, to: Date, used: Map<string, number>): { date: string; count: number }[] {
  const out: { date: string; count: number }[] = [];
  const start = Date.UTC(from.getUTCFullYear(), from.getUTCMonth(), from.getUTCDate());
  for (let t = start; t < to.getTime() && out.length < 62; t += DAY) {
    const date = new Date(t).toISOString().slice(0, 10);
    out.push({ date, count: used.get(date) ?? 0 });
  }
  return out;
}

export async function detail(deps: Deps, session: Session, app: AppId): Promise<AppBillingDetail> {
  assertBillable(app);
  const now = deps.now();
  return deps.db.tenant(session.accountId, async (trx) => {
    const row = await rowOf(trx, session.accountId, app);
    const billing = billingAppOf(deps.config, app, row);
    const start = row?.period_start ? new Date(row.period_start) : new Date(now.getTime() - 30 * DAY);
    const end = row?.period_end && row.status !== 'inactive' && row.status !== 'cancelled' ? new Date(row.period_end) : now;
    const length = Math.max(DAY, end.getTime() - start.getTime());
    const previousStart = new Date(start.getTime() - length);
    const used = new Map((await creditsPerDay(trx, session.accountId, app, previousStart)).map((d) => [d.day, d.credits]));
    return {
      ...billing,
      configured: stripeConfigured(deps.config),
      // the previous period ends the day before the current one's first day: the day the period
      // starts on is the current series' first point, never the previous one's last as well
      // the current series ends today: its last point is today's (never tomorrow's 0, which read as
      // "This period 0" beside a line at 20)
      daily: {
        current: days(start, new Date(Math.min(end.getTime(), utcDay(now).getTime() + DAY)), used),
        previous: days(previousStart, utcDay(start), used),
      },
    };
  });
}

async function adminEmail(trx: Trx, session: Session): Promise<string> {
  const row = await trx.selectFrom('admins').select('email').where('id', '=', session.adminId).executeTakeFirst();
  return row?.email ?? session.email;
}

/** The account's Stripe customer, created once (an idempotency key makes a retried create the same customer). */
async function ensureCustomer(deps: Deps, stripe: Stripe, session: Session): Promise<string> {
  const existing = await deps.db.tenant(session.accountId, async (trx) => ({
    customer: await trx
      .selectFrom('billing_customers')
      .select(['stripe_customer_id', 'billing_email'])
      .where('account_id', '=', session.accountId)
      .executeTakeFirst(),
    email: await adminEmail(trx, session),
    name: (await trx.selectFrom('accounts').select('name').where('id', '=', session.accountId).executeTakeFirst())?.name,
  }));
  if (existing.customer?.stripe_customer_id) return existing.customer.stripe_customer_id;
  let customer: Stripe.Customer;
  try {
    customer = await stripe.customers.create(
      {
        email: existing.customer?.billing_email ?? existing.email,
        name: existing.name,
        metadata: { account_id: session.accountId },
      },
      { idempotencyKey: `switchboard-customer-${session.accountId}` },
    );
  } catch (err) {
    throw stripeFailure(err);
  }
  await deps.db.tenant(session.accountId, (trx) =>
    trx
      .insertInto('billing_customers')
      .values({
        account_id: session.accountId,
        stripe_customer_id: customer.id,
        billing_email: existing.customer?.billing_email ?? null,
      })
      .onConflict((oc) =>
        oc
          .column('account_id')
          .doUpdateSet({ stripe_customer_id: sql`coalesce(billing_customers.stripe_customer_id, excluded.stripe_customer_id)` }),
      )
      .execute(),
  );
  return customer.id;
}

function refuseSubscribe(app: AppId, row: BillingRow | undefined): void {
  const title = getApp(app)!.title;
  if (row?.status === 'enterprise')
    throw new ApiError(
      409,
      'ENTERPRISE_NOT_BILLED',
      `${title} is on an Enterprise contract: it is billed by contract, not through Stripe.`,
    );
  if (row?.status === 'subscription') throw new ApiError(409, 'ALREADY_SUBSCRIBED', `${title} already has a subscription.`);
}

// A Stripe price's amount, currency and interval can never change (Stripe makes a new price
// instead), so each is read once per process; a failed read is forgotten and tried again.
const priceReads = new Map<string, Promise<Stripe.Price>>();

/** What Checkout will charge for each subscribable app: the Stripe price it puts on the session. */
export async function subscriptionPrices(deps: Deps): Promise<SubscriptionPrice[]> {
  if (!stripeConfigured(deps.config)) return [];
  const { stripe, settings } = await requireStripe(deps.config);
  const out: SubscriptionPrice[] = [];
  for (const app of APPS) {
    const id = settings.prices[app.id];
    if (!id) continue;
    let read = priceReads.get(id);
    if (!read) {
      read = stripe.prices.retrieve(id);
      priceReads.set(id, read);
    }
    try {
      const price = await read;
      if (typeof price.unit_amount === 'number')
        out.push({
          app: app.id,
          amountCents: price.unit_amount,
          currency: price.currency,
          interval: price.recurring?.interval ?? null,
        });
    } catch (err) {
      // one price Stripe does not know (a wrong STRIPE_PRICE_<APP>) hides that price only; its
      // Checkout fails with Stripe's own words when pressed
      priceReads.delete(id);
      deps.log(`Could not read the Stripe price ${id} of ${app.id}`, err);
    }
  }
  return out;
}

/** Starts (or picks up) a Stripe Checkout in subscription mode for the app; answers where to send the browser. */
export async function startCheckout(deps: Deps, session: Session, app: AppId, returnTo?: string): Promise<string> {
  assertBillable(app);
  const before = await deps.db.tenant(session.accountId, (trx) => rowOf(trx, session.accountId, app));
  refuseSubscribe(app, before);
  const { stripe, settings, price } = await requireStripe(deps.config, app);
  if (before?.checkout_session_id && before.checkout_url) {
    // One open checkout per app: asking again answers the same page, so a double click
    // (or two admins) cannot buy two subscriptions.
    try {
      const open = await stripe.checkout.sessions.retrieve(before.checkout_session_id);
      if (open.status === 'open' && open.url) return open.url;
    } catch (err) {
      throw stripeFailure(err);
    }
  }
  const customer = await ensureCustomer(deps, stripe, session);
  const base = deps.config.publicUrl;
  const metadata = { account_id: session.accountId, app };
  const overage = settings.overagePrices[app];
  let checkout: Stripe.Checkout.Session;
  try {
    checkout = await stripe.checkout.sessions.create({
      mode: 'subscription',
      customer,
      client_reference_id: `${session.accountId}:${app}`,
      line_items: [{ price, quantity: 1 }, ...(overage ? [{ price: overage }] : [])],
      metadata,
      subscription_data: { metadata },
      // back to the page Subscribe was pressed on; the console confirms the session there
      success_url: `${base}${returnTo ?? `/${app}/settings/billing`}?checkout=success&checkout_app=${app}&session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: `${base}${returnTo ?? `/${app}/pricing`}?checkout=cancelled&checkout_app=${app}`,
    });
  } catch (err) {
    throw stripeFailure(err);
  }
  if (!checkout.url) throw stripeFailure(new Error('the checkout session has no URL'));
  return deps.db.tenant(session.accountId, async (trx) => {
    const row = await rowOf(trx, session.accountId, app, true);
    refuseSubscribe(app, row);
    if (row?.checkout_session_id && row.checkout_url && row.checkout_session_id !== before?.checkout_session_id)
      return row.checkout_url;
    await trx
      .insertInto('app_billing')
      .values({ account_id: session.accountId, app, status: row?.status ?? 'inactive', trial_ends_at: null })
      .onConflict((oc) => oc.columns(['account_id', 'app']).doNothing())
      .execute();
    await trx
      .updateTable('app_billing')
      .set({ checkout_session_id: checkout.id, checkout_url: checkout.url })
      .where('account_id', '=', session.accountId)
      .where('app', '=', app)
      .execute();
    await audit(trx, session.accountId, actorOf(session), {
      namespace: app,
      description: `Started checkout for a ${getApp(app)!.title} subscription`,
      event: 'billing.checkout-started',
    });
    return checkout.url!;
  });
}

async function retrieveSubscription(stripe: Stripe, id: string): Promise<Stripe.Subscription> {
  try {
    return await stripe.subscriptions.retrieve(id);
  } catch (err) {
    throw stripeFailure(err);
  }
}

/** Cancels a subscription Stripe started that must not exist (a second one for the same app). */
async function cancelDuplicate(deps: Deps, stripe: Stripe, id: string): Promise<void> {
  try {
    await stripe.subscriptions.cancel(id);
  } catch (err) {
    deps.log(`Could not cancel the duplicate subscription ${id}`, err);
  }
}

/** The return from Checkout: the session is read back from Stripe (not trusted from the URL) and applied. */
export async function confirmCheckout(deps: Deps, session: Session, app: AppId, sessionId: string): Promise<BillingApp> {
  assertBillable(app);
  const { stripe } = await requireStripe(deps.config);
  let checkout: Stripe.Checkout.Session;
  try {
    checkout = await stripe.checkout.sessions.retrieve(sessionId);
  } catch {
    throw new ApiError(404, 'CHECKOUT_NOT_FOUND', 'There is no such checkout.');
  }
  if (checkout.metadata?.account_id !== session.accountId || checkout.metadata?.app !== app)
    throw new ApiError(404, 'CHECKOUT_NOT_FOUND', 'There is no such checkout.');
  const subId = typeof checkout.subscription === 'string' ? checkout.subscription : checkout.subscription?.id;
  if (checkout.status === 'complete' && subId) {
    const sub = await retrieveSubscription(stripe, subId);
    const outcome = await deps.db.system((trx) => applySubscription(trx, sub, deps.now()));
    if (outcome?.duplicateOf) await cancelDuplicate(deps, stripe, sub.id);
  }
  return deps.db.tenant(session.accountId, async (trx) =>
    billingAppOf(deps.config, app, await rowOf(trx, session.accountId, app)),
  );
}

async function subscribedRow(deps: Deps, session: Session, app: AppId): Promise<BillingRow & { stripe_subscription_id: string }> {
  assertBillable(app);
  const row = await deps.db.tenant(session.accountId, (trx) => rowOf(trx, session.accountId, app));
  if (row?.status === 'enterprise')
    throw new ApiError(
      409,
      'ENTERPRISE_NOT_BILLED',
      `${getApp(app)!.title} is on an Enterprise contract: change it with your account manager.`,
    );
  if (row?.status !== 'subscription' || !row.stripe_subscription_id)
    throw new ApiError(409, 'NOT_SUBSCRIBED', `${getApp(app)!.title} has no subscription.`);
  return row as BillingRow & { stripe_subscription_id: string };
}

/** Cancel at the period's end (or withdraw that): Stripe is told, and its answer is applied. */
export async function setCancelAtPeriodEnd(deps: Deps, session: Session, app: AppId, cancel: boolean): Promise<BillingApp> {
  const row = await subscribedRow(deps, session, app);
  const { stripe } = await requireStripe(deps.config);
  let sub: Stripe.Subscription;
  try {
    sub = await stripe.subscriptions.update(row.stripe_subscription_id, { cancel_at_period_end: cancel });
  } catch (err) {
    throw stripeFailure(err);
  }
  return deps.db.tenant(session.accountId, async (trx) => {
    await applySubscription(trx, sub, deps.now());
    await audit(trx, session.accountId, actorOf(session), {
      namespace: app,
      description: cancel
        ? `Asked to cancel ${getApp(app)!.title} at the end of the period`
        : `Kept the ${getApp(app)!.title} subscription`,
      event: cancel ? 'billing.cancel-requested' : 'billing.cancel-undone',
    });
    return billingAppOf(deps.config, app, await rowOf(trx, session.accountId, app));
  });
}

async function customerOf(deps: Deps, session: Session): Promise<string> {
  const row = await deps.db.tenant(session.accountId, (trx) =>
    trx
      .selectFrom('billing_customers')
      .select('stripe_customer_id')
      .where('account_id', '=', session.accountId)
      .executeTakeFirst(),
  );
  if (!row?.stripe_customer_id)
    throw new ApiError(409, 'NO_BILLING_ACCOUNT', 'There is nothing to manage yet: subscribe to an app first.');
  return row.stripe_customer_id;
}

export async function portalUrl(deps: Deps, session: Session): Promise<string> {
  const { stripe } = await requireStripe(deps.config);
  const customer = await customerOf(deps, session);
  try {
    const portal = await stripe.billingPortal.sessions.create({
      customer,
      return_url: `${deps.config.publicUrl}/settings/billing`,
    });
    return portal.url;
  } catch (err) {
    throw stripeFailure(err);
  }
}

export async function invoices(deps: Deps, session: Session): Promise<Invoice[]> {
  const configured = await stripeOf(deps.config);
  if (!configured) return [];
  const customer = await deps.db.tenant(session.accountId, (trx) =>
    trx
      .selectFrom('billing_customers')
      .select('stripe_customer_id')
      .where('account_id', '=', session.accountId)
      .executeTakeFirst(),
  );
  if (!customer?.stripe_customer_id) return [];
  try {
    const list = await configured.stripe.invoices.list({ customer: customer.stripe_customer_id, limit: 24 });
    return list.data.map((inv) => ({
      id: inv.id ?? '',
      date: new Date(inv.created * 1000).toISOString(),
      amountCents: inv.status === 'paid' ? inv.amount_paid : inv.amount_due,
      currency: inv.currency,
      status: inv.status ?? 'draft',
      pdfUrl: inv.invoice_pdf ?? null,
      hostedUrl: inv.hosted_invoice_url ?? null,
    }));
  } catch (err) {
    throw stripeFailure(err);
  }
}

export async function setBillingEmail(deps: Deps, session: Session, email: string): Promise<string> {
  const customer = await deps.db.tenant(session.accountId, async (trx) => {
    const row = await trx
      .insertInto('billing_customers')
      .values({ account_id: session.accountId, stripe_customer_id: null, billing_email: email })
      .onConflict((oc) => oc.column('account_id').doUpdateSet({ billing_email: email, updated_at: deps.now() }))
      .returning('stripe_customer_id')
      .executeTakeFirstOrThrow();
    await audit(trx, session.accountId, actorOf(session), {
      namespace: 'global',
      description: `Set the billing e-mail to ${email}`,
      event: 'billing.email-updated',
    });
    return row.stripe_customer_id;
  });
  // Stripe sends invoices and receipts to the customer's e-mail.
  const configured = await stripeOf(deps.config);
  if (customer && configured) {
    try {
      await configured.stripe.customers.update(customer, { email });
    } catch (err) {
      throw stripeFailure(err);
    }
  }
  return email;
}

/**
 * Stripe's webhook: verified on the raw body, processed once per event id. The subscription is
 * fetched fresh from Stripe before anything is recorded, so a Stripe failure leaves the event
 * for Stripe to send again.
 */
export async function handleStripeEvent(
  deps: Deps,
  rawBody: string,
  signature: string | undefined,
): Promise<'processed' | 'duplicate' | 'ignored'> {
  const configured = await stripeOf(deps.config);
  if (!configured) throw notConfigured();
  const { stripe, settings } = configured;
  if (!signature) throw new ApiError(400, 'BAD_SIGNATURE', 'The Stripe-Signature header is missing.');
  let event: Stripe.Event;
  try {
    event = stripe.webhooks.constructEvent(rawBody, signature, settings.webhookSecret);
  } catch {
    throw new ApiError(400, 'BAD_SIGNATURE', 'The Stripe signature does not match this body.');
  }
  const seen = await deps.db.system((trx) =>
    trx.selectFrom('stripe_events').select('id').where('id', '=', event.id).executeTakeFirst(),
  );
  if (seen) return 'duplicate';
  const subId = HANDLED_EVENTS.has(event.type) ? subscriptionIdOf(event) : null;
  const sub = subId ? await retrieveSubscription(stripe, subId) : null;
  const outcome = await deps.db.system(async (trx) => {
    const inserted = await trx
      .insertInto('stripe_events')
      .values({ id: event.id, type: event.type })
      .onConflict((oc) => oc.column('id').doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!inserted) return 'duplicate' as const;
    if (!sub) return 'ignored' as const;
    return (await applySubscription(trx, sub, deps.now())) ?? ('ignored' as const);
  });
  if (typeof outcome === 'string') return outcome;
  if (outcome.duplicateOf && sub) await cancelDuplicate(deps, stripe, sub.id);
  return 'processed';
}

/** Ends a Stripe subscription now (an app moved to an Enterprise contract); a failure is logged for staff. */
export async function endStripeSubscription(deps: Deps, subscriptionId: string): Promise<void> {
  const configured = await stripeOf(deps.config);
  if (!configured) return;
  try {
    await configured.stripe.subscriptions.cancel(subscriptionId);
  } catch (err) {
    deps.log(`Could not end the Stripe subscription ${subscriptionId} of an app moved to Enterprise`, err);
  }
}
