import { sql } from 'kysely';
import type { Session } from '../auth/context';
import type { Deps } from '../deps';
import { endStripeSubscription } from '../billing/service';
import { heldRangesByAccount } from '../sms-guard/service';
import { apiRateLimitOf, setApiRateLimit } from '../usage/api-limits';
import type { ApiRateLimitBody } from '../contract/api-limits';
import { audit } from '../audit';
import { APP_IDS, getApp, isAppId, type AppId } from '../contract/apps';
import type { BillingStatus, Platform, Role } from '../contract/common';
import {
  ACTIVE_STATUSES,
  MOVING_AVERAGE_DAYS,
  PAID_STATUSES,
  STATISTICS_DAYS,
  type AccountDetail,
  type AccountSearchQuery,
  type AccountStatisticsQuery,
  type AppStatusBody,
  type AccountList,
  type DailyPoint,
  type Statistics,
  type Summary,
  type SummaryQuery,
  type WatchTowerAccount,
} from '../contract/watch-tower';
import type { Trx } from '../db/index';
import { ApiError } from '../http/errors';
import { addDays, cumulative, fillDays, taskSeries, toDay } from './series';
import { GHOST_SECONDS, issueSessionToken } from '../auth/sessions';

// Provider staff's cross-account area (its routes are behind requireRoot()): every read goes
// through db.system(); changes are audited on the affected account with no admin (made by the provider).

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function accountNotFound() {
  return new ApiError(404, 'ACCOUNT_NOT_FOUND', 'There is no such account.');
}

type AdminRow = {
  id: string;
  account_id: string;
  first_name: string;
  last_name: string;
  email: string;
  role: Role;
  photo: string | null;
  time_zone: string | null;
};

async function adminsOf(trx: Trx, accountIds: string[]) {
  if (accountIds.length === 0) return new Map<string, AdminRow[]>();
  const rows = await trx
    .selectFrom('admins')
    .select(['id', 'account_id', 'first_name', 'last_name', 'email', 'role', 'photo', 'time_zone'])
    .where('account_id', 'in', accountIds)
    .where('archived_at', 'is', null)
    .orderBy(sql`case role when 'owner' then 0 when 'admin' then 1 else 2 end`)
    .orderBy('email')
    .execute();
  const map = new Map<string, AdminRow[]>();
  for (const r of rows) map.set(r.account_id, [...(map.get(r.account_id) ?? []), r as AdminRow]);
  return map;
}

function adminOut(a: AdminRow) {
  return {
    id: a.id,
    firstName: a.first_name,
    lastName: a.last_name,
    email: a.email,
    role: a.role,
    photo: a.photo,
    timeZone: a.time_zone,
  };
}

/** Rows of a rollup query -> per-app points, summed over whatever else was grouped. */
async function statistics(trx: Trx, accountId: string | null, from: string, to: string): Promise<Statistics> {
  const historyFrom = addDays(from, -(MOVING_AVERAGE_DAYS - 1));
  // day as text: PGlite hands dates back as Date objects despite the pool's parser setting
  const rows = accountId
    ? await trx
        .selectFrom('result_daily')
        .select(['app', sql<string>`day::text`.as('day'), sql<number>`sum(count)::int`.as('count')])
        .where('account_id', '=', accountId)
        .where('day', '>=', historyFrom)
        .where('day', '<=', to)
        .groupBy(['app', sql`day`])
        .execute()
    : // every account: the trigger-kept totals (migration 0650), one row per app and day
      await trx
        .selectFrom('result_daily_totals')
        .select(['app', sql<string>`day::text`.as('day'), sql<number>`count::int`.as('count')])
        .where('day', '>=', historyFrom)
        .where('day', '<=', to)
        .execute();
  const all: DailyPoint[] = [];
  const perApp = new Map<string, DailyPoint[]>();
  for (const r of rows) {
    const point = { date: String(r.day), count: Number(r.count) };
    all.push(point);
    perApp.set(r.app, [...(perApp.get(r.app) ?? []), point]);
  }
  const apps = Object.fromEntries(
    APP_IDS.map((id) => [id, taskSeries(perApp.get(id) ?? [], from, to, MOVING_AVERAGE_DAYS)]),
  ) as Statistics['apps'];
  return { from, to, tasks: taskSeries(all, from, to, MOVING_AVERAGE_DAYS), apps };
}

function range(now: Date, query: { from?: string; to?: string }) {
  const to = query.to ?? toDay(now);
  const from = query.from ?? addDays(to, -(STATISTICS_DAYS - 1));
  if (from > to) throw new ApiError(400, 'VALIDATION_FAILED', 'from must not be after to', { from: 'from must not be after to' });
  // a range is drawn day by day: keep it to what a chart can show
  if (from < addDays(to, -(366 * 3)))
    throw new ApiError(400, 'VALIDATION_FAILED', 'A range covers at most three years', {
      from: 'A range covers at most three years',
    });
  return { from, to };
}

export async function searchAccounts(deps: Deps, query: AccountSearchQuery): Promise<AccountList> {
  const { q, limit } = query;
  return deps.db.system(async (trx): Promise<AccountList> => {
    const pattern = `%${q.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
    // Part of the account's name, an admin's e-mail, or an admin's first, last or full name,
    // in any case: `x ilike p` run as `lower(x) like lower(p)` (the same test in a UTF-8
    // database) on text lowered when it was written (migration 0960). The full name covers
    // first and last name, each a substring of it.
    const matches = q
      ? sql<boolean>`(a.name_lower like lower(${pattern}) or ${UUID.test(q) ? sql`a.id = ${q}::uuid` : sql`false`}
          or exists (select 1 from admins m where m.account_id = a.id and m.archived_at is null
            and (m.email_lower like lower(${pattern}) or m.name_lower like lower(${pattern}))))`
      : sql<boolean>`true`;
    const found = await sql<{ id: string; name: string; platform: Platform; total: number }>`
      select a.id, a.name, a.platform, count(*) over ()::int as total from accounts a
      where ${matches} order by a.name_lower, a.id limit ${limit}`.execute(trx);
    const ids = found.rows.map((r) => r.id);
    const billing = ids.length
      ? await trx.selectFrom('app_billing').select(['account_id', 'app', 'status']).where('account_id', 'in', ids).execute()
      : [];
    const admins = await adminsOf(trx, ids);
    const held = await heldRangesByAccount(trx, ids, deps.now());
    const active = await sql<{ n: number }>`select count(distinct account_id)::int as n from app_billing
      where status in (${sql.join(ACTIVE_STATUSES)})`.execute(trx);
    return {
      accounts: found.rows.map(
        (a): WatchTowerAccount => ({
          id: a.id,
          name: a.name,
          provider: a.platform,
          apps: billing
            .filter((b) => b.account_id === a.id && isAppId(b.app))
            .sort((x, y) => APP_IDS.indexOf(x.app as AppId) - APP_IDS.indexOf(y.app as AppId))
            .map((b) => ({ id: b.app as AppId, status: b.status })),
          admins: (admins.get(a.id) ?? []).map(adminOut),
          smsHeldRanges: held.get(a.id) ?? 0,
        }),
      ),
      matching: found.rows[0]?.total ?? 0,
      activeAccounts: active.rows[0]?.n ?? 0,
    };
  });
}

export async function accountDetail(deps: Deps, id: string): Promise<AccountDetail> {
  if (!UUID.test(id)) throw accountNotFound();
  return deps.db.system(async (trx): Promise<AccountDetail> => {
    const account = await trx
      .selectFrom('accounts')
      .select(['id', 'name', 'platform', 'created_at'])
      .where('id', '=', id)
      .executeTakeFirst();
    if (!account) throw accountNotFound();
    const billing = await trx
      .selectFrom('app_billing')
      .select(['app', 'status', 'trial_ends_at', 'credits', 'free_tier'])
      .where('account_id', '=', id)
      .execute();
    const byApp = new Map(billing.map((b) => [b.app, b]));
    const admins = await adminsOf(trx, [id]);
    return {
      id: account.id,
      name: account.name,
      provider: account.platform as Platform,
      createdAt: new Date(account.created_at).toISOString(),
      // every app, so staff can convert one the account has not started yet
      apps: APP_IDS.map((app) => {
        const b = byApp.get(app);
        return {
          id: app,
          status: b?.status ?? 'inactive',
          trialEndsAt: b?.trial_ends_at ? new Date(b.trial_ends_at).toISOString() : null,
          credits: b?.credits ?? 0,
          freeTier: b?.free_tier ?? 0,
        };
      }),
      admins: (admins.get(id) ?? []).map(adminOut),
      smsHeldRanges: (await heldRangesByAccount(trx, [id], deps.now())).get(id) ?? 0,
      apiRateLimit: await apiRateLimitOf(trx, id),
    };
  });
}

/** Staff convert an app of an account to Enterprise (billed by contract); audited on the account. */
export async function convertAppStatus(
  deps: Deps,
  accountId: string,
  app: string,
  status: AppStatusBody['status'],
): Promise<{ status: BillingStatus }> {
  if (!isAppId(app)) throw new ApiError(404, 'APP_NOT_FOUND', 'There is no such app.');
  if (!UUID.test(accountId)) throw accountNotFound();
  const title = getApp(app)!.title;
  let endedSubscription: string | null = null;
  const result = await deps.db.system(async (trx) => {
    const account = await trx.selectFrom('accounts').select('id').where('id', '=', accountId).forUpdate().executeTakeFirst();
    if (!account) throw accountNotFound();
    const existing = await trx
      .selectFrom('app_billing')
      .select(['status', 'stripe_subscription_id'])
      .where('account_id', '=', accountId)
      .where('app', '=', app)
      .forUpdate()
      .executeTakeFirst();
    if (existing?.status === 'enterprise') throw new ApiError(409, 'ALREADY_ENTERPRISE', `${title} is already on Enterprise.`);
    const row = await trx
      .insertInto('app_billing')
      .values({ account_id: accountId, app, status, trial_ends_at: null })
      .onConflict((oc) => oc.columns(['account_id', 'app']).doUpdateSet({ status, trial_ends_at: null, updated_at: deps.now() }))
      .returning('status')
      .executeTakeFirstOrThrow();
    // Enterprise is billed by contract: the Stripe subscription, if any, ends (after commit).
    await trx
      .updateTable('app_billing')
      .set({
        stripe_subscription_id: null,
        cancel_at_period_end: false,
        payment_failed_at: null,
        checkout_session_id: null,
        checkout_url: null,
      })
      .where('account_id', '=', accountId)
      .where('app', '=', app)
      .execute();
    endedSubscription = existing?.stripe_subscription_id ?? null;
    await audit(trx, accountId, null, {
      namespace: app,
      description: `${title} was converted to Enterprise (from ${existing?.status ?? 'inactive'})`,
      event: 'billing.enterprise',
    });
    return row.status as BillingStatus;
  });
  if (endedSubscription) await endStripeSubscription(deps, endedSubscription);
  return { status: result };
}

/** Provider staff set an account's /api/v1 rate limit (null: the default); audited in its log. */
export async function setAccountApiRateLimit(deps: Deps, accountId: string, perSecond: ApiRateLimitBody['perSecond']) {
  if (!UUID.test(accountId)) throw accountNotFound();
  return deps.db.system(async (trx) => {
    const account = await trx.selectFrom('accounts').select('id').where('id', '=', accountId).executeTakeFirst();
    if (!account) throw accountNotFound();
    return setApiRateLimit(trx, accountId, perSecond, deps.now());
  });
}

export async function statisticsSummary(deps: Deps, query: SummaryQuery): Promise<Summary> {
  const { from, to } = range(deps.now(), query);
  return deps.db.system(async (trx): Promise<Summary> => {
    const stats = await statistics(trx, null, from, to);
    // An account is paid from the first day one of its apps became paid (and still is).
    const paid = await sql<{ day: string; n: number }>`
      select first_paid::text as day, count(*)::int as n from (
        select account_id, (min(paid_since) at time zone 'UTC')::date as first_paid from app_billing
        where status in (${sql.join(PAID_STATUSES)}) and paid_since is not null group by account_id
      ) p where first_paid <= ${to}::date group by first_paid`.execute(trx);
    const before = paid.rows.filter((r) => r.day < from).reduce((s, r) => s + r.n, 0);
    const within = paid.rows.filter((r) => r.day >= from).map((r) => ({ date: r.day, count: r.n }));
    return { ...stats, paidAccounts: cumulative(fillDays(within, from, to), before) };
  });
}

export async function accountStatistics(deps: Deps, query: AccountStatisticsQuery): Promise<Statistics> {
  const { from, to } = range(deps.now(), query);
  return deps.db.system(async (trx) => {
    const account = await trx.selectFrom('accounts').select('id').where('id', '=', query.accountId).executeTakeFirst();
    if (!account) throw accountNotFound();
    return statistics(trx, query.accountId, from, to);
  });
}

/** Staff view an account as its owner for up to GHOST_SECONDS; audited on the account. */
export async function startGhostMode(deps: Deps, session: Session, accountId: string): Promise<{ token: string }> {
  const { db } = deps;
  const token = await db.system(async (trx) => {
    const account = await trx.selectFrom('accounts').select(['id', 'name']).where('id', '=', accountId).executeTakeFirst();
    if (!account) throw accountNotFound();
    const owner = await trx
      .selectFrom('admins')
      .select(['id', 'email'])
      .where('account_id', '=', accountId)
      .where('role', '=', 'owner')
      .where('archived_at', 'is', null)
      .executeTakeFirst();
    if (!owner) throw new ApiError(409, 'NO_OWNER', 'This account has no active owner to view it as.');
    await audit(trx, accountId, null, {
      namespace: 'global',
      description: `Provider staff (${session.email}) started a ghost mode session`,
      event: 'ghost-mode.started',
    });
    const acting = { id: owner.id, account_id: accountId, email: owner.email, role: 'owner' as const, is_root: false };
    return issueSessionToken(deps, acting, { trx, staffId: session.adminId, ttlSeconds: GHOST_SECONDS });
  });
  return { token };
}
