import { sql } from 'kysely';
import type { Deps } from '../deps';
import { BURST_SECONDS } from '../contract/api-limits';

export type RateLimit = { perSecond: number; burst: number };

/**
 * Takes one call's token from the account's bucket, kept in the database: one statement reads the
 * account's limit (set by provider staff, else `defaults`), refills by the time elapsed and takes
 * a token under the row's lock, so every API process shares one bucket and a restart forgets
 * nothing. (An in-process bucket would give each process its own limit.) `allowed` is false
 * when the bucket had less than one token; `tokens` is what is left.
 */
export async function takeApiToken(
  deps: Pick<Deps, 'db'>,
  accountId: string,
  defaults: RateLimit,
  now: Date,
): Promise<{ tokens: number; allowed: boolean; rate: number; burst: number }> {
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
