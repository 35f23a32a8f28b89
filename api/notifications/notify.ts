import { sql } from 'kysely';
import { formatUsage } from '../contract/wording';
import type { Trx } from '../db/index';
import { getApp } from '../contract/apps';
import { CREDIT_WARNING_RATIO } from '../contract/billing';
import { TRIAL_REMINDER_DAYS } from '../contract/plans';
import { accountDates } from '../account-dates';

export type NewNotification = {
  kind: string;
  title: string;
  body?: string;
  link?: string | null;
  /** set for notifications that must exist once per cause */
  dedupeKey?: string;
};

/** Adds a notification for the account's admins, in the transaction of its cause. */
export async function notify(trx: Trx, accountId: string, n: NewNotification): Promise<void> {
  await trx
    .insertInto('notifications')
    .values({
      account_id: accountId,
      kind: n.kind,
      title: n.title,
      body: n.body ?? '',
      link: n.link ?? null,
      dedupe_key: n.dedupeKey ?? null,
    })
    .onConflict((oc) => oc.columns(['account_id', 'dedupe_key']).where('dedupe_key', 'is not', null).doNothing())
    .execute();
}

const DAY_MS = 86_400_000;

/**
 * The reminder due for a trial ending at `ends`: 7 days before, then 1 day before, each once
 * (the dedupe key names the trial's end, so a new trial is reminded again). The billing job
 * (api/billing/jobs.ts) and reading the bell both call it, so either may be first.
 */
export async function remindTrialEnding(trx: Trx, accountId: string, app: string, ends: Date, now: Date): Promise<void> {
  const daysLeft = Math.ceil((ends.getTime() - now.getTime()) / DAY_MS);
  if (daysLeft <= 0) return;
  const due = [...TRIAL_REMINDER_DAYS].sort((a, b) => a - b).find((d) => daysLeft <= d);
  if (due === undefined) return;
  const title = getApp(app)?.title ?? app;
  await notify(trx, accountId, {
    kind: 'trial.ending',
    title: `${title} free trial ends ${due === 1 ? 'tomorrow' : 'soon'}`,
    body: `The free trial ends on ${(await accountDates(trx, accountId)).day(ends)}. Subscribe to keep using ${title}.`,
    link: `/${app}/pricing`,
    // the 7-day key is the one the bell has always used, so older notifications are not repeated
    dedupeKey: due === 7 ? `trial.ending:${app}:${ends.toISOString()}` : `trial.ending.${due}:${app}:${ends.toISOString()}`,
  });
}

/**
 * Notifications whose cause is the passing of time or usage (a trial near its end, credits past
 * the warning share) have no transaction of their own: they are created when the bell is read,
 * once per cause (the dedupe key names the trial's end or the free tier).
 */
export async function addTimeBasedNotifications(trx: Trx, accountId: string, now: Date): Promise<void> {
  const rows = await trx
    .selectFrom('app_billing')
    .select(['app', 'status', 'trial_ends_at', 'credits', 'free_tier'])
    .where('account_id', '=', accountId)
    .where('status', 'in', ['free-trial', 'subscription'])
    .execute();
  for (const r of rows) {
    const title = getApp(r.app)?.title ?? r.app;
    const settings = `/${r.app}/settings/billing`;
    if (r.status === 'free-trial' && r.trial_ends_at)
      await remindTrialEnding(trx, accountId, r.app, new Date(r.trial_ends_at), now);
    if (r.free_tier > 0 && r.credits >= r.free_tier * CREDIT_WARNING_RATIO) {
      await notify(trx, accountId, {
        kind: 'credits.high',
        title: `${title} has used ${Math.floor((r.credits / r.free_tier) * 100)}% of its credits`,
        body: `${formatUsage(r.credits, r.free_tier, 'en-US')} credits are used.`,
        link: settings,
        // once per billing month while the share stays past the warning line
        dedupeKey: `credits.high:${r.app}:${now.toISOString().slice(0, 7)}`,
      });
    }
  }
}

/** The unread count for one admin. */
export async function unreadCount(trx: Trx, accountId: string, adminId: string): Promise<number> {
  const row = await sql<{ n: number }>`select count(*)::int as n from notifications n
    where n.account_id = ${accountId}
      and not exists (select 1 from notification_reads r where r.notification_id = n.id and r.admin_id = ${adminId})`.execute(
    trx,
  );
  return row.rows[0]?.n ?? 0;
}
