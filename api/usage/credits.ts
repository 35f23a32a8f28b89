import { sql } from 'kysely';
import type { Trx } from '../db/index';
import type { AppId } from '../contract/apps';
import { getApp } from '../contract/apps';
import { ApiError } from '../http/errors';
import { metrics } from '../observability/metrics';

/**
 * The credit meter. A task is admitted by its app's billing row before anything is written
 * (`refuseUnusable`) and charged in the same transaction as the task (the SMS door does both for
 * every app's message), so usage shown anywhere (bootstrap, header, billing) is what tasks really
 * consumed.
 *
 * Periods: app_billing.credits is the running total of the current period only. A free trial's
 * period starts with the trial; a subscription's is Stripe's billing period, and when a new one
 * begins the total is re-based from the ledger (api/billing/subscriptions.ts), so a late or
 * repeated Stripe event can never lose or double a charge. free_tier is what the period includes:
 * the trial's free tier or the subscription's included credits (api/contract/plans.ts).
 * A subscription past its included credits keeps working; the extra is reported to Stripe's
 * meter (api/billing/jobs.ts). A subscription whose payment failed keeps working during Stripe's
 * retries; a cancelled or ended app is refused.
 */

type BillingRow = { status: string; credits: number; free_tier: number };
type Charge = { accountId: string; app: AppId; taskId: string; kind: string; units?: number; now?: Date };

/** The app's billing row, as `refuseUnusable` judges it. */
export function billingQuery(trx: Trx, accountId: string, app: AppId) {
  return trx
    .selectFrom('app_billing')
    .select(['status', 'credits', 'free_tier'])
    .where('account_id', '=', accountId)
    .where('app', '=', app);
}

/**
 * Refuses work for an app the account cannot use right now, with what to do about it. This is
 * the early answer (before anything is written); the credit itself is taken in the task's
 * transaction, checked again under the billing row's lock (see below).
 */
export async function assertAppUsable(trx: Trx, accountId: string, app: AppId, units = 1): Promise<void> {
  refuseUnusable(app, await billingQuery(trx, accountId, app).executeTakeFirst(), units);
}

export function refuseUnusable(app: AppId, row: BillingRow | undefined, units: number): void {
  const title = getApp(app)?.title ?? app;
  if (!row || row.status === 'inactive' || row.status === 'cancelled') {
    metrics?.creditRefusals.inc({ reason: 'APP_NOT_ACTIVE' });
    throw new ApiError(
      403,
      'APP_NOT_ACTIVE',
      `${title} is inactive on this account. Start a free trial or subscribe to it in the console.`,
    );
  }
  if (row.status === 'free-trial' && row.credits + units > row.free_tier) {
    metrics?.creditRefusals.inc({ reason: 'FREE_TIER_EXHAUSTED' });
    throw new ApiError(
      402,
      'FREE_TIER_EXHAUSTED',
      `The free trial of ${title} has used all ${new Intl.NumberFormat('en-US').format(row.free_tier)} of its credits. Subscribe to ${title} under Settings > Billing to continue.`,
    );
  }
}

/**
 * Charges `units` credits of `app` for one task and kind of unit, once: a retry of the same
 * charge (same task and kind) changes nothing and answers false.
 */
export async function chargeCredits(trx: Trx, charge: Charge): Promise<boolean> {
  return (await chargeStatement(charge).execute(trx)).rows.length > 0;
}

/** The ledger row and the running total, one statement (the total moves only if the row is new). */
export function chargeStatement(charge: Charge) {
  const units = charge.units ?? 1;
  return sql<{ charged: number }>`with charged as (
      insert into credit_ledger (account_id, app, task_id, kind, units, ts)
      values (${charge.accountId}, ${charge.app}, ${charge.taskId}, ${charge.kind}, ${units}, ${charge.now ?? sql`now()`})
      on conflict (account_id, app, task_id, kind) do nothing returning units
    ), counted as (
      update app_billing b set credits = b.credits + charged.units, updated_at = now() from charged
      where b.account_id = ${charge.accountId} and b.app = ${charge.app}
    )
    select units as charged from charged`;
}

/**
 * A task's credit is taken before its work is done (an SMS sent after the transaction) by the SMS
 * door (`sendAppSms` in ./sms.ts): the app_billing row locked (`lockBilling`), the free tier
 * checked again under the lock (`refuseUnusable`) and the charge written (`chargeStatement`) in
 * the send's transaction, so parallel tasks take turns and the last credit goes to one of them
 * (402 FREE_TIER_EXHAUSTED for the rest). If the message then is not sent, `releaseCredits` gives
 * the credit back.
 */

/** The app's billing row, locked until the transaction ends: parallel reservations take turns. */
export function lockBilling(accountId: string, app: AppId) {
  return sql<BillingRow>`select status, credits, free_tier from app_billing where account_id = ${accountId} and app = ${app} for update`;
}

/** Gives back a charge whose work failed (once; a charge never made gives nothing back). */
export async function releaseCredits(trx: Trx, charge: Omit<Charge, 'units'>): Promise<void> {
  const released = await sql<{
    units: number;
  }>`insert into credit_ledger (account_id, app, task_id, kind, units${charge.now ? sql`, ts` : sql``})
    select account_id, app, task_id, ${`${charge.kind}:released`}, -units${charge.now ? sql`, ${charge.now}` : sql``} from credit_ledger
    where account_id = ${charge.accountId} and app = ${charge.app} and task_id = ${charge.taskId} and kind = ${charge.kind}
    on conflict (account_id, app, task_id, kind) do nothing returning units`.execute(trx);
  const units = released.rows[0]?.units;
  if (units)
    await sql`update app_billing set credits = credits + ${units}, updated_at = now() where account_id = ${charge.accountId} and app = ${charge.app}`.execute(
      trx,
    );
}

/** Credits of `app` used per UTC day since `since` (for billing charts). */
export async function creditsPerDay(
  trx: Trx,
  accountId: string,
  app: AppId,
  since: Date,
): Promise<{ day: string; credits: number }[]> {
  const rows = await sql<{ day: string; credits: number }>`
    select to_char(date_trunc('day', ts at time zone 'UTC'), 'YYYY-MM-DD') as day, sum(units)::int as credits
    from credit_ledger where account_id = ${accountId} and app = ${app} and ts >= ${since}
    group by 1 order by 1`.execute(trx);
  return rows.rows;
}
