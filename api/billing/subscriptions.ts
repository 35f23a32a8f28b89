import { sql } from 'kysely';
import type Stripe from 'stripe';
import type { Trx } from '../db/index';
import { audit } from '../audit';
import { getApp, isAppId, type AppId } from '../contract/apps';
import { plansOf } from '../contract/plans';
import { notify } from '../notifications/notify';
import { accountDates } from '../account-dates';

// Subscription state is always taken from Stripe's current subscription object (fetched when an
// event arrives), never from the event's own snapshot, so events may come late, twice or in any
// order and the app still ends up where Stripe says it is.

type Outcome = { accountId: string; app: AppId; change: 'none' | 'subscribed' | 'cancelled' | 'updated'; duplicateOf?: string };

/** The account and app a subscription was bought for (set as metadata at checkout). */
export function ownerOf(sub: Pick<Stripe.Subscription, 'metadata'>): { accountId: string; app: AppId } | null {
  const accountId = sub.metadata?.account_id;
  const app = sub.metadata?.app;
  if (!accountId || !app || !isAppId(app) || !/^[0-9a-f-]{36}$/i.test(accountId)) return null;
  return { accountId, app };
}

function periodOf(sub: Stripe.Subscription): { start: Date | null; end: Date | null } {
  const item = sub.items?.data?.[0];
  return {
    start: item?.current_period_start ? new Date(item.current_period_start * 1000) : null,
    end: item?.current_period_end ? new Date(item.current_period_end * 1000) : null,
  };
}

const LIVE = new Set(['active', 'trialing', 'past_due']);
const ENDED = new Set(['canceled', 'unpaid', 'incomplete_expired']);

/** Credits used since the period began, from the ledger (the running total's new base). */
export async function creditsSince(trx: Trx, accountId: string, app: AppId, since: Date): Promise<number> {
  const r = await sql<{ n: number }>`select coalesce(sum(units), 0)::int as n from credit_ledger
    where account_id = ${accountId} and app = ${app} and ts >= ${since}`.execute(trx);
  return r.rows[0]?.n ?? 0;
}

/** Brings the app's billing to what Stripe's subscription says, in the caller's transaction. */
export async function applySubscription(trx: Trx, sub: Stripe.Subscription, now: Date): Promise<Outcome | null> {
  const owner = ownerOf(sub);
  if (!owner) return null;
  const { accountId, app } = owner;
  const title = getApp(app)?.title ?? app;
  const row = await trx
    .selectFrom('app_billing')
    .select(['status', 'stripe_subscription_id', 'period_start', 'cancel_at_period_end', 'payment_failed_at'])
    .where('account_id', '=', accountId)
    .where('app', '=', app)
    .forUpdate()
    .executeTakeFirst();
  const result: Outcome = { accountId, app, change: 'none' };
  // Enterprise is by contract, never billed through Stripe.
  if (row?.status === 'enterprise') return result;
  const current = row?.stripe_subscription_id ?? null;
  if (current && current !== sub.id) {
    // An older subscription ending, or a second one bought in parallel: the current one wins.
    if (ENDED.has(sub.status) || sub.status === 'incomplete') return result;
    if (row?.status === 'subscription') return { ...result, duplicateOf: current };
  }
  if (LIVE.has(sub.status)) {
    const plans = plansOf(app)!;
    const period = periodOf(sub);
    const newPeriod = !!period.start && (!row?.period_start || new Date(row.period_start).getTime() !== period.start.getTime());
    const failed = sub.status === 'past_due';
    const credits = newPeriod && period.start ? await creditsSince(trx, accountId, app, period.start) : undefined;
    await trx
      .insertInto('app_billing')
      .values({
        account_id: accountId,
        app,
        status: 'subscription',
        trial_ends_at: null,
        free_tier: plans.includedCredits,
        credits: credits ?? 0,
      })
      .onConflict((oc) =>
        oc.columns(['account_id', 'app']).doUpdateSet({
          status: 'subscription',
          trial_ends_at: null,
          free_tier: plans.includedCredits,
          ...(credits !== undefined ? { credits } : {}),
          updated_at: now,
        }),
      )
      .execute();
    await trx
      .updateTable('app_billing')
      .set({
        stripe_subscription_id: sub.id,
        period_start: period.start,
        period_end: period.end,
        cancel_at_period_end: !!sub.cancel_at_period_end,
        payment_failed_at: failed ? (row?.payment_failed_at ?? now) : null,
        checkout_session_id: null,
        checkout_url: null,
      })
      .where('account_id', '=', accountId)
      .where('app', '=', app)
      .execute();
    if (row?.status !== 'subscription') {
      result.change = 'subscribed';
      await audit(trx, accountId, null, { namespace: app, description: `Subscribed to ${title}`, event: 'billing.subscribed' });
    } else if (!!sub.cancel_at_period_end !== row.cancel_at_period_end) {
      result.change = 'updated';
      await audit(trx, accountId, null, {
        namespace: app,
        description: sub.cancel_at_period_end
          ? `${title} subscription set to end on ${period.end ? (await accountDates(trx, accountId)).day(period.end) : 'the end of the period'}`
          : `${title} subscription renewed: it no longer ends at the period's end`,
        event: sub.cancel_at_period_end ? 'billing.cancel-scheduled' : 'billing.cancel-withdrawn',
      });
    }
    if (failed && !row?.payment_failed_at) {
      await notify(trx, accountId, {
        kind: 'billing.payment-failed',
        title: `Payment for ${title} failed`,
        body: `Stripe could not charge the payment method. ${title} keeps working while Stripe retries; update the payment method under Settings > Billing.`,
        link: '/settings/billing',
        dedupeKey: `billing.payment-failed:${sub.id}:${period.start?.toISOString() ?? ''}`,
      });
    }
    return result;
  }
  if (ENDED.has(sub.status) && row && (current === sub.id || current === null) && row.status === 'subscription') {
    await trx
      .updateTable('app_billing')
      .set({ status: 'cancelled', cancel_at_period_end: false, payment_failed_at: null, updated_at: now })
      .where('account_id', '=', accountId)
      .where('app', '=', app)
      .execute();
    await audit(trx, accountId, null, { namespace: app, description: `${title} subscription ended`, event: 'billing.cancelled' });
    await notify(trx, accountId, {
      kind: 'billing.cancelled',
      title: `${title} subscription ended`,
      body: `${title} is cancelled: its history stays readable. Subscribe again to use it.`,
      link: `/${app}/pricing`,
      dedupeKey: `billing.cancelled:${sub.id}`,
    });
    return { ...result, change: 'cancelled' };
  }
  return result;
}

/** The subscription an event is about, if any. */
export function subscriptionIdOf(event: Stripe.Event): string | null {
  const object = event.data.object as unknown as Record<string, unknown>;
  const idOf = (value: unknown) =>
    typeof value === 'string'
      ? value
      : value && typeof value === 'object' && 'id' in value
        ? String((value as { id: unknown }).id)
        : null;
  switch (event.type) {
    case 'checkout.session.completed':
      return idOf(object.subscription);
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted':
      return idOf(object.id);
    case 'invoice.paid':
    case 'invoice.payment_failed': {
      const parent = object.parent as { subscription_details?: { subscription?: unknown } } | null | undefined;
      return idOf(parent?.subscription_details?.subscription) ?? idOf(object.subscription);
    }
    default:
      return null;
  }
}

export const HANDLED_EVENTS = new Set([
  'checkout.session.completed',
  'customer.subscription.updated',
  'customer.subscription.deleted',
  'invoice.paid',
  'invoice.payment_failed',
]);
