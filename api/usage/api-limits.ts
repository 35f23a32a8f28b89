import { sql } from 'kysely';
import type { Trx } from '../db/index';
import { audit } from '../audit';
import { BURST_SECONDS, DEFAULT_API_RATE_LIMIT, type ApiRateLimit, type ApiRateLimitUsage } from '../contract/api-limits';

// Each account's /api/v1 rate limit: staff set it (Watch Tower, audited), the account reads it
// with its current use (Settings > Developers), the v1 guard takes a token per call from the
// account's bucket (token-bucket.ts, applied by api/apps/platform/v1-guards.ts).

export async function apiRateLimitOf(trx: Trx, accountId: string): Promise<ApiRateLimit> {
  const row = (
    await sql<{ per_second: number }>`select per_second from api_rate_limits where account_id = ${accountId}`.execute(trx)
  ).rows[0];
  return row
    ? { perSecond: row.per_second, burst: row.per_second * BURST_SECONDS, isDefault: false }
    : { ...DEFAULT_API_RATE_LIMIT, isDefault: true };
}

/** The limit and how far the bucket is from full now (what it will have refilled by `now`). */
export async function apiRateLimitUsage(trx: Trx, accountId: string, now: Date): Promise<ApiRateLimitUsage> {
  const limit = await apiRateLimitOf(trx, accountId);
  const bucket = (
    await sql<{
      tokens: number;
      updated_at: Date;
    }>`select tokens, updated_at from api_rate_buckets where account_id = ${accountId}`.execute(trx)
  ).rows[0];
  const tokens = bucket
    ? Math.min(
        limit.burst,
        bucket.tokens + Math.max(0, (now.getTime() - new Date(bucket.updated_at).getTime()) / 1000) * limit.perSecond,
      )
    : limit.burst;
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
  const text = (l: ApiRateLimit) =>
    `${l.perSecond} requests a second (bursts of ${l.burst})${l.isDefault ? ', the default' : ''}`;
  await audit(trx, accountId, null, {
    namespace: 'global',
    description: `The API rate limit was changed from ${text(before)} to ${text(after)}`,
    event: 'api.rate-limit-changed',
    at: now,
  });
  return after;
}
