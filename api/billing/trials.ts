import type { Session } from '../auth/context';
import { hasRole } from '../auth/guards';
import { audit, actorOf } from '../audit';
import { getApp, type AppId } from '../contract/apps';
import type { AppBilling, AppStartAnswer, Usage } from '../contract/billing';
import { TRIAL_DAYS, plansOf } from '../contract/plans';
import type { Trx } from '../db/index';
import type { Deps } from '../deps';
import { ApiError } from '../http/errors';
import { billingOf } from './data';

// Free trials and the start of an app: an app is inactive until an admin starts its one trial.

function currentBilling(trx: Trx, accountId: string, app: AppId, lock = false) {
  let query = trx
    .selectFrom('app_billing')
    .select(['app', 'status', 'trial_ends_at', 'credits', 'free_tier'])
    .where('account_id', '=', accountId)
    .where('app', '=', app);
  if (lock) query = query.forUpdate();
  return query.executeTakeFirst();
}

/** Starts the free trial of an inactive app, audited in the caller's transaction. */
async function startTrial(trx: Trx, deps: Deps, session: Session, app: AppId): Promise<AppBilling> {
  const definition = getApp(app)!;
  if (!definition.billable) throw new ApiError(409, 'TRIAL_NOT_AVAILABLE', `${definition.title} has no free trial.`);
  const used = await trx
    .selectFrom('app_billing')
    .select('trial_ends_at')
    .where('account_id', '=', session.accountId)
    .where('app', '=', app)
    .executeTakeFirst();
  // One free trial per app: once it has ended, the way on is a subscription.
  if (used?.trial_ends_at)
    throw new ApiError(
      409,
      'TRIAL_NOT_AVAILABLE',
      `The free trial of ${definition.title} has ended. Subscribe to keep using it.`,
    );
  const now = deps.now();
  const trialEndsAt = new Date(now.getTime() + TRIAL_DAYS * 86_400_000);
  const freeTier = plansOf(app)!.trialCredits;
  // The trial is the app's first period: credits count from its start.
  const values = {
    status: 'free-trial' as const,
    trial_ends_at: trialEndsAt,
    credits: 0,
    free_tier: freeTier,
    period_start: now,
    period_end: trialEndsAt,
  };
  const row = await trx
    .insertInto('app_billing')
    .values({ account_id: session.accountId, app, ...values })
    .onConflict((oc) => oc.columns(['account_id', 'app']).doUpdateSet({ ...values, updated_at: now }))
    .returning(['app', 'status', 'trial_ends_at', 'credits', 'free_tier'])
    .executeTakeFirstOrThrow();
  await audit(trx, session.accountId, actorOf(session), {
    namespace: app,
    description: `Started a ${TRIAL_DAYS}-day free trial of ${definition.title}`,
    event: 'billing.free-trial-started',
  });
  return billingOf(row);
}

/** Settings > Billing's "Start free trial": only an inactive app has one to start. */
export async function startFreeTrial(deps: Deps, session: Session, app: AppId): Promise<AppBilling> {
  return deps.db.tenant(session.accountId, async (trx) => {
    const existing = await currentBilling(trx, session.accountId, app, true);
    if (existing && existing.status !== 'inactive') {
      throw new ApiError(409, 'TRIAL_NOT_AVAILABLE', `${getApp(app)!.title} is already active on this account.`);
    }
    return startTrial(trx, deps, session, app);
  });
}

/** Opening an app from the launcher: starts its trial if it never had one (admins only). */
export async function startApp(deps: Deps, session: Session, app: AppId): Promise<AppStartAnswer> {
  return deps.db.tenant(session.accountId, async (trx): Promise<AppStartAnswer> => {
    const existing = await currentBilling(trx, session.accountId, app, true);
    // an active app, or one whose trial has ended (the app then offers to subscribe), opens as it is
    if (existing && (existing.status !== 'inactive' || existing.trial_ends_at))
      return { app, billing: billingOf(existing), started: false };
    if (!hasRole(session.role, 'admin'))
      throw new ApiError(403, 'FORBIDDEN', 'Ask an administrator of your account to start this app.');
    return { app, billing: await startTrial(trx, deps, session, app), started: true };
  });
}

/** The app's credits this period against its free tier (every role: the header shows it). */
export async function appUsage(deps: Deps, session: Session, app: AppId): Promise<Usage> {
  const row = await deps.db.tenant(session.accountId, (trx) => currentBilling(trx, session.accountId, app));
  return billingOf(row).usage ?? { status: 'ok' as const, credits: 0, freeTier: 0 };
}
