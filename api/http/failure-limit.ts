import { sql } from 'kysely';
import type { Deps } from '../deps';
import { ApiError } from './errors';

// Failures counted per key (a client address, an e-mail, an account) in fixed windows, in the
// database, so every API process sees the same counts and a restart forgets nothing. Each
// limiter is built once, as a module constant, and called where its failure happens:
//
//   const BAD_KEYS = failureLimiter({ name: 'api-key', max: 20, windowMs: 15 * 60_000, what: 'invalid API keys' });
//   await BAD_KEYS.assertAllowed(deps, address);     // before the work: 429 RATE_LIMITED
//   await BAD_KEYS.recordFailure(deps, address);     // when it failed
//
// Where a check on every request would cost the good callers a read, `refuseKnownBlocked` answers
// from what this process already learned from the database (a key found over the limit stays
// refused until its window ends) and `assertAllowed` runs only once the work has failed.
//
// Rows live in sign_in_failures (the sign-in counters, api/identity/rate-limit.ts, use the same
// table), keyed `<name>:<key>`, so one sweep deletes every limiter's old windows.

export type FailureLimit = {
  /** prefix of the stored key; names the limiter */
  name: string;
  /** failures allowed per window; the next attempt is refused */
  max: number;
  windowMs: number;
  /** what failed, for the message: "Too many <what> from this address" */
  what: string;
  /** what the key is, for the message (default "from this address") */
  from?: string;
};

export type FailureLimiter = {
  readonly limit: FailureLimit;
  /** 429 RATE_LIMITED with Retry-After once `key` has failed `max` times this window */
  assertAllowed(deps: Pick<Deps, 'db' | 'now'>, key: string): Promise<void>;
  /** the same 429 without a database read, for a key this process has already seen over the limit */
  refuseKnownBlocked(now: Date, key: string): void;
  recordFailure(deps: Pick<Deps, 'db' | 'now'>, key: string): Promise<void>;
};

export function failureLimiter(limit: FailureLimit): FailureLimiter {
  const windowOf = (now: Date) => new Date(Math.floor(now.getTime() / limit.windowMs) * limit.windowMs);
  const stored = (key: string) => `${limit.name}:${key}`;
  // keys found over the limit, until their window ends (a cache of the database's answer)
  const blockedUntil = new Map<string, number>();
  const refusal = (now: Date, until: number) => {
    const retryAfter = Math.max(1, Math.ceil((until - now.getTime()) / 1000));
    return new ApiError(
      429,
      'RATE_LIMITED',
      `Too many ${limit.what} ${limit.from ?? 'from this address'}. Try again in ${retryAfter} seconds.`,
      undefined,
      { 'Retry-After': String(retryAfter) },
    );
  };
  return {
    limit,
    async assertAllowed(deps, key) {
      const now = deps.now();
      const start = windowOf(now);
      const row = await deps.db.system((trx) =>
        trx
          .selectFrom('sign_in_failures')
          .select('count')
          .where('key', '=', stored(key))
          .where('window_start', '=', start)
          .executeTakeFirst(),
      );
      if ((row?.count ?? 0) < limit.max) return;
      const until = start.getTime() + limit.windowMs;
      if (blockedUntil.size > 10_000) blockedUntil.clear();
      blockedUntil.set(key, until);
      throw refusal(now, until);
    },
    refuseKnownBlocked(now, key) {
      const until = blockedUntil.get(key);
      if (until === undefined) return;
      if (until <= now.getTime()) blockedUntil.delete(key);
      else throw refusal(now, until);
    },
    async recordFailure(deps, key) {
      const start = windowOf(deps.now());
      await deps.db.system(async (trx) => {
        await sql`delete from sign_in_failures where key like ${`${limit.name}:%`} and window_start < ${new Date(start.getTime() - limit.windowMs)}`.execute(
          trx,
        );
        await sql`insert into sign_in_failures (key, window_start, count) values (${stored(key)}, ${start}, 1)
          on conflict (key, window_start) do update set count = sign_in_failures.count + 1`.execute(trx);
      });
    },
  };
}
