import net from 'node:net';
import type { Context } from 'hono';
import { sql } from 'kysely';
import type { Deps } from '../deps';
import { ApiError } from '../http/errors';

// Failed sign-ins are counted per client address and per e-mail in fixed windows, in the
// database, so every API process sees the same counts.

export const FAILURE_WINDOW_MS = 15 * 60_000;
export const MAX_FAILURES_PER_ADDRESS = 20;
export const MAX_FAILURES_PER_EMAIL = 5;

/**
 * The address rate limits count. Behind `hops` trusted proxies it is the entry that many from
 * the right of X-Forwarded-For: the nearest proxies append what they saw, and everything to the
 * left of that came from the client, who can write anything there.
 */
export function clientAddress(c: Context, hops: number): string {
  const env = c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined;
  const socket = env?.incoming?.socket?.remoteAddress ?? 'unknown';
  if (hops <= 0) return socket;
  // repeated headers count as one list, in order (RFC 9110 5.3)
  const chain = (c.req.raw.headers.get('x-forwarded-for') ?? '')
    .split(',')
    .map((a) => a.trim())
    .filter(Boolean);
  const seen = chain[chain.length - hops];
  // fewer entries than proxies, or junk, means the chain did not come through ours
  return seen && net.isIP(seen) ? seen : socket;
}

function windowStart(now: Date): Date {
  return new Date(Math.floor(now.getTime() / FAILURE_WINDOW_MS) * FAILURE_WINDOW_MS);
}

export type AttemptKeys = { address: string; email?: string };

function keysOf(k: AttemptKeys): Array<{ key: string; max: number }> {
  const keys = [{ key: `address:${k.address}`, max: MAX_FAILURES_PER_ADDRESS }];
  if (k.email) keys.push({ key: `email:${k.email.toLowerCase()}`, max: MAX_FAILURES_PER_EMAIL });
  return keys;
}

/** Refuses with 429 RATE_LIMITED when the address or e-mail has failed too often this window. */
export async function assertNotRateLimited(deps: Pick<Deps, 'db' | 'now'>, k: AttemptKeys): Promise<void> {
  const start = windowStart(deps.now());
  const keys = keysOf(k);
  const rows = await deps.db.system((trx) =>
    trx
      .selectFrom('sign_in_failures')
      .select(['key', 'count'])
      .where('window_start', '=', start)
      .where(
        'key',
        'in',
        keys.map((x) => x.key),
      )
      .execute(),
  );
  for (const { key, max } of keys) {
    const count = rows.find((r) => r.key === key)?.count ?? 0;
    if (count >= max) {
      const minutes = Math.max(1, Math.ceil((start.getTime() + FAILURE_WINDOW_MS - deps.now().getTime()) / 60_000));
      throw new ApiError(
        429,
        'RATE_LIMITED',
        `Too many failed sign-in attempts${key.startsWith('email:') ? ' for this e-mail address' : ''}. Please wait ${minutes} minute${minutes === 1 ? '' : 's'} and try again.`,
      );
    }
  }
}

export async function recordFailure(deps: Pick<Deps, 'db' | 'now'>, k: AttemptKeys): Promise<void> {
  const now = deps.now();
  const start = windowStart(now);
  await deps.db.system(async (trx) => {
    await trx
      .deleteFrom('sign_in_failures')
      .where('window_start', '<', new Date(start.getTime() - FAILURE_WINDOW_MS))
      .execute();
    for (const { key } of keysOf(k)) {
      await sql`insert into sign_in_failures (key, window_start, count) values (${key}, ${start}, 1)
        on conflict (key, window_start) do update set count = sign_in_failures.count + 1`.execute(trx);
    }
  });
}
