import { sql } from 'kysely';
import type { Deps } from '../deps';
import type { Trx } from '../db/index';
import { audit } from '../audit';
import { BURST_SECONDS, DEFAULT_API_RATE_LIMIT, type ApiRateLimit, type ApiRateLimitUsage } from '../contract/api-limits';

// Each account's /api/v1 rate limit: staff set it (Watch Tower, audited), the account reads it
// with its current use (Settings > Developers), the v1 guard takes a token per call
// (takeApiToken, applied by api/apps/platform/v1-guards.ts).

export async function apiRateLimitOf(trx: Trx, accountId: string): Promise<ApiRateLimit> {
  const row = (await sql<{ per_second: number }>`select per_second from api_rate_limits where account_id = ${accountId}`.execute(trx)).rows[0];
  return row ? { perSecond: row.per_second, burst: row.per_second * BURST_SECONDS, isDefault: false } : { ...DEFAULT_API_RATE_LIMIT, isDefault: true };
}

/** The limit and how far the bucket is from full now (what it will have refilled by `now`). */
export async function apiRateLimitUsage(trx: Trx, accountId: string, now: Date): Promise<ApiRateLimitUsage> {
  const limit = await apiRateLimitOf(trx, accountId);
  const bucket = (await sql<{ tokens: number; updated_at: Date }>`select tokens, updated_at from api_rate_buckets where account_id = ${accountId}`.execute(trx)).rows[0];
  const tokens = bucket ? Math.min(limit.burst, bucket.tokens + Math.max(0, (now.getTime() - new Date(bucket.updated_at).getTime()) / 1000) * limit.perSecond) : limit.burst;
  return { ...limit, used: Math.max(0, Math.ceil(limit.burst - tokens)) };
}

/** Provider staff set an account's limit (null: back to the default); audited in its log. */
export async function setApiRateLimit(trx: Trx, accountId: string, perSecond: number | null, now: Date): Promise<ApiRateLimit> {
  const before = await apiRateLimitOf(trx, accountId);
  if (perSecond === null) await sql`delete from api_rate_limits where account_id = ${accountId}`.execute(trx);
  else {
    await sql`insert into api_rate_limits (account_id, per_second, updated_at) values (${accountId}, ${perSecond}, ${now})
      on conflict (account_id) do update set per_second = excluded.per_second, updated_at = excluded.updated_at`.execute(trx);
  }
  const after = await apiRateLimitOf(trx, accountId);
  const text = (l: ApiRateLimit) => `${l.perSecond} requests a second (bursts of ${l.burst})${l.isDefault ? ', the default' : ''}`;
  await audit(trx, accountId, null, { namespace: 'global', description: `The API rate limit was changed from ${text(before)} to ${text(after)}`, event: 'api.rate-limit-changed', at: now });
  return after;
}

export type RateLimit = { perSecond: number; burst: number };

/**
 * Takes one call's token from the account's bucket, kept in the database: one statement reads the
 * account's limit (set by provider staff, else `defaults`), refills by the time elapsed and takes
 * a token under the row's lock, so every API process shares one bucket and a restart forgets
 * nothing. (An in-process bucket would give each process its own limit.) `allowed` is false
 * when the bucket had less than one token; `tokens` is what is left.
 */
export async function takeApiToken(deps: Pick<Deps, 'db'>, accountId: string, defaults: RateLimit, now: Date): Promise<{ tokens: number; allowed: boolean; rate: number; burst: number }> {
  // one statement in one message with its scope: its own transaction, one round trip
  const [row] = await deps.db.tenantStatement(
    accountId,
    sql<{ tokens: number; allowed: boolean; rate: number; burst: number }>`
        with lim as (
          select coalesce(l.per_second, ${defaults.perSecond})::float8 as rate,
                 coalesce(l.per_second * ${BURST_SECONDS}, ${defaults.burst})::float8 as burst
          from (select 1) one left join api_rate_limits l on l.account_id = ${accountId}
        )
        insert into api_rate_buckets as b (account_id, tokens, updated_at, allowed) select ${accountId}, lim.burst - 1, ${now}, true from lim
        on conflict (account_id) do update set
          -- from the locked row (b), never a snapshot of it: concurrent calls must not lose a take
          tokens = least((select burst from lim), b.tokens + greatest(0, extract(epoch from (${now}::timestamptz - b.updated_at))) * (select rate from lim))
                   - case when least((select burst from lim), b.tokens + greatest(0, extract(epoch from (${now}::timestamptz - b.updated_at))) * (select rate from lim)) >= 1 then 1 else 0 end,
          allowed = least((select burst from lim), b.tokens + greatest(0, extract(epoch from (${now}::timestamptz - b.updated_at))) * (select rate from lim)) >= 1,
          updated_at = greatest(b.updated_at, ${now}::timestamptz)
        returning b.tokens, b.allowed, (select rate from lim) as rate, (select burst from lim) as burst`,
  );
  if (!row) throw new Error('the rate limit statement answered no row');
  return row;
}
