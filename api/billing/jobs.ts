import { sql } from 'kysely';
import type { Deps } from '../deps';
import { audit } from '../audit';
import { getApp, isAppId } from '../contract/apps';
import { TRIAL_ENDING_DAYS } from '../contract/notifications';
import { notify, remindTrialEnding } from '../notifications/notify';
import type { Job } from '../jobs/runner';
import { stripeOf } from './stripe';

const DAY = 86_400_000;

/** Ends trials whose time is up (the app becomes inactive) and sends the reminders that are due. */
export async function settleTrials(deps: Deps, now: Date): Promise<void> {
  await deps.db.system(async (trx) => {
    const rows = await trx
      .selectFrom('app_billing')
      .select(['account_id', 'app', 'trial_ends_at'])
      .where('status', '=', 'free-trial')
      .where('trial_ends_at', 'is not', null)
      .where('trial_ends_at', '<=', new Date(now.getTime() + TRIAL_ENDING_DAYS * DAY))
      .forUpdate()
      .skipLocked()
      .execute();
    for (const r of rows) {
      const ends = new Date(r.trial_ends_at!);
      if (ends.getTime() > now.getTime()) {
        await remindTrialEnding(trx, r.account_id, r.app, ends, now);
        continue;
      }
      const title = getApp(r.app)?.title ?? r.app;
      await trx
        .updateTable('app_billing')
        .set({ status: 'inactive', updated_at: now })
        .where('account_id', '=', r.account_id)
        .where('app', '=', r.app)
        .where('status', '=', 'free-trial')
        .execute();
      await audit(trx, r.account_id, null, {
        namespace: isAppId(r.app) ? r.app : 'global',
        description: `The free trial of ${title} ended`,
        event: 'billing.trial-ended',
      });
      await notify(trx, r.account_id, {
        kind: 'trial.ended',
        title: `${title} free trial has ended`,
        body: `Subscribe to ${title} to keep using it; its history stays readable.`,
        link: `/${r.app}/pricing`,
        dedupeKey: `trial.ended:${r.app}:${ends.toISOString()}`,
      });
    }
  });
}

/**
 * Usage above a subscription's included credits, reported to Stripe's billing meter so it is on
 * the next invoice. Each new stretch of credits is written first as a report with its own
 * identifier ((account, app, period, from-to)); sending it again after a crash is harmless
 * because Stripe keeps one meter event per identifier.
 */
export async function reportOverage(deps: Deps, now: Date): Promise<number> {
  const configured = await stripeOf(deps.config);
  if (!configured) return 0;
  const { stripe, settings } = configured;
  await deps.db.system(async (trx) => {
    await sql`insert into meter_reports (account_id, app, period_start, from_credits, to_credits, identifier)
      select b.account_id, b.app, b.period_start, r.reported, b.credits,
        concat_ws(':', 'credits', b.account_id, b.app, extract(epoch from b.period_start)::bigint, r.reported, b.credits)
      from app_billing b
      cross join lateral (
        select coalesce(max(m.to_credits), b.free_tier) as reported from meter_reports m
        where m.account_id = b.account_id and m.app = b.app and m.period_start = b.period_start
      ) r
      where b.status = 'subscription' and b.stripe_subscription_id is not null and b.period_start is not null
        and b.credits > r.reported
      on conflict do nothing`.execute(trx);
  });
  const pending = await deps.db.system((trx) =>
    sql<{ id: number; identifier: string; units: number; created_at: Date; customer: string | null; app: string }>`
      select m.id, m.identifier, m.to_credits - m.from_credits as units, m.created_at, c.stripe_customer_id as customer, m.app
      from meter_reports m left join billing_customers c on c.account_id = m.account_id
      where m.reported_at is null order by m.id limit 500`.execute(trx),
  );
  let sent = 0;
  for (const p of pending.rows) {
    if (!p.customer) continue;
    let error: string | null = null;
    try {
      await stripe.billing.meterEvents.create(
        {
          event_name: settings.meterEvent,
          identifier: p.identifier,
          timestamp: Math.floor(new Date(p.created_at).getTime() / 1000),
          payload: { stripe_customer_id: p.customer, value: String(p.units), app: p.app },
        },
        { idempotencyKey: p.identifier },
      );
    } catch (err) {
      const code = (err as { code?: string }).code;
      // Stripe refuses an identifier it already has (within at least 24 h; the idempotency key
      // covers a resend with the same body): that report arrived before.
      if (code !== 'resource_already_exists') error = err instanceof Error ? err.message : String(err);
    }
    await deps.db.system((trx) =>
      error
        ? sql`update meter_reports set attempts = attempts + 1, last_error = ${error.slice(0, 500)} where id = ${p.id}`.execute(
            trx,
          )
        : sql`update meter_reports set attempts = attempts + 1, reported_at = ${now}, last_error = null where id = ${p.id}`.execute(
            trx,
          ),
    );
    if (!error) sent++;
  }
  return sent;
}

export const BILLING_JOBS: Job[] = [
  { name: 'billing.trials', intervalSeconds: 15 * 60, run: settleTrials },
  { name: 'billing.overage', intervalSeconds: 10 * 60, run: (deps, now) => reportOverage(deps, now).then(() => undefined) },
];
