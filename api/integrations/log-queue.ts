import { maskNumbers } from '../privacy/mask';
import { sql } from 'kysely';
import type { Deps } from '../deps';
import { decryptSecret } from '../crypto';
import type { DestinationSettings, LogDestination } from '../contract/logging';
import { DeliveryError, ship, type LogEvent } from './log-shippers';
import { errorText } from '../http/error-text';

// The durable log outbox. Events are written in the transaction that produced them, by the audit
// entry's own statement (api/audit.ts: one row per connected destination), so an event exists
// exactly when its change does and the request never waits for a destination. A worker leases due rows, delivers them in batches per destination and deletes them once
// acknowledged. A worker that stops mid-delivery hands its rows back; one that dies leaves its
// lease to expire. Either way the rows are delivered again: at least once.

export type ShipperOptions = {
  /** rows leased per round */
  batchSize?: number;
  /** pause between rounds when there was nothing to do */
  pollMs?: number;
  /** how long a lease lasts before another worker may take the rows */
  leaseMs?: number;
  /** first retry delay; doubles per attempt up to maxBackoffMs */
  baseBackoffMs?: number;
  maxBackoffMs?: number;
  /** attempts after which a row is marked failed and left for inspection */
  maxAttempts?: number;
};

const DEFAULTS: Required<ShipperOptions> = {
  batchSize: 100,
  pollMs: 1_000,
  leaseMs: 60_000,
  baseBackoffMs: 2_000,
  maxBackoffMs: 30 * 60_000,
  maxAttempts: 20,
};

type Leased = { id: number; account_id: string; destination: LogDestination; payload: LogEvent; attempts: number };

export function backoffMs(attempts: number, o: Pick<Required<ShipperOptions>, 'baseBackoffMs' | 'maxBackoffMs'>): number {
  const exp = Math.min(o.maxBackoffMs, o.baseBackoffMs * 2 ** Math.max(0, attempts - 1));
  // ±20 % jitter so a destination that comes back is not hit by every account at once.
  return Math.round(exp * (0.8 + Math.random() * 0.4));
}

/** Leases up to batchSize due rows; other workers skip them (for update skip locked). */
async function lease(deps: Pick<Deps, 'db'>, o: Required<ShipperOptions>): Promise<Leased[]> {
  return deps.db.system(async (trx) => {
    const rows = await sql<Leased>`
      with due as (
        select id from log_outbox
        where failed_at is null and next_attempt_at <= now()
        order by next_attempt_at, id
        limit ${o.batchSize}
        for update skip locked
      )
      update log_outbox o
      set next_attempt_at = now() + make_interval(secs => ${o.leaseMs / 1000}), attempts = o.attempts + 1
      from due where o.id = due.id
      returning o.id, o.account_id, o.destination, o.payload, o.attempts`.execute(trx);
    return rows.rows;
  });
}

async function release(deps: Pick<Deps, 'db'>, ids: number[]): Promise<void> {
  await deps.db.system((trx) =>
    sql`update log_outbox set next_attempt_at = now(), attempts = greatest(attempts - 1, 0) where id in (${sql.join(ids)})`.execute(
      trx,
    ),
  );
}

async function settingsOf(deps: Pick<Deps, 'db' | 'config'>, accountId: string, destination: LogDestination) {
  const row = await deps.db.tenant(accountId, (trx) =>
    trx
      .selectFrom('logging_destinations')
      .select(['settings_enc', 'full_phone_numbers'])
      .where('account_id', '=', accountId)
      .where('destination', '=', destination)
      .executeTakeFirst(),
  );
  return row
    ? {
        settings: JSON.parse(decryptSecret(row.settings_enc, deps.config.encryptionKey)) as DestinationSettings[LogDestination],
        fullPhoneNumbers: row.full_phone_numbers,
      }
    : null;
}

/** One round: lease, deliver per (account, destination), settle. Returns rows leased. */
export async function shipOnce(
  deps: Pick<Deps, 'db' | 'config' | 'log'>,
  options: ShipperOptions = {},
  signal?: AbortSignal,
): Promise<number> {
  const o = { ...DEFAULTS, ...options };
  const rows = await lease(deps, o);
  if (!rows.length) return 0;
  const groups = new Map<string, Leased[]>();
  for (const r of rows) {
    const key = `${r.account_id}\u0000${r.destination}`;
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  await Promise.all(
    [...groups.values()].map(async (group) => {
      const { account_id: accountId, destination } = group[0];
      const ids = group.map((r) => r.id);
      let error: DeliveryError | null = null;
      try {
        const stored = await settingsOf(deps, accountId, destination);
        // Disconnected meanwhile: the cascade has removed the rows already.
        if (!stored) return;
        // numbers masked unless the account opted in for this destination (api/privacy/mask.ts)
        const events = group.map((r) => (stored.fullPhoneNumbers ? r.payload : maskNumbers(r.payload)));
        await ship(deps.config, destination, stored.settings, events, signal);
      } catch (err) {
        error = err instanceof DeliveryError ? err : new DeliveryError(errorText(err, { max: 500 }));
      }
      // Stopping mid-delivery: hand the rows back (due now, the attempt not counted) so another
      // process delivers them at once; if even that fails, the lease runs out and they go again.
      if (signal?.aborted) {
        await release(deps, ids).catch(() => {});
        return;
      }
      await deps.db.tenant(accountId, async (trx) => {
        if (!error) {
          await trx.deleteFrom('log_outbox').where('id', 'in', ids).execute();
          return;
        }
        const attempts = Math.max(...group.map((r) => r.attempts));
        const giveUp = !error.retryable || attempts >= o.maxAttempts;
        const delay = backoffMs(attempts, o);
        await sql`update log_outbox set
            last_error = ${error.message.slice(0, 500)},
            next_attempt_at = now() + make_interval(secs => ${delay / 1000}),
            failed_at = ${giveUp ? sql`now()` : sql`null`}
          where id in (${sql.join(ids)})`.execute(trx);
      });
      if (error)
        deps.log(`log shipping to ${destination} for account ${accountId} failed (${ids.length} events): ${error.message}`);
    }),
  );
  return rows.length;
}

export type LogShipper = { stop(): Promise<void> /** runs a round now (tests) */; kick(): void };

/** Runs shipOnce in a loop until stopped; a full batch is followed at once by the next. */
export function startLogShipper(deps: Pick<Deps, 'db' | 'config' | 'log'>, options: ShipperOptions = {}): LogShipper {
  const o = { ...DEFAULTS, ...options };
  let stopped = false;
  const abort = new AbortController();
  let wake: (() => void) | null = null;
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        wake = null;
        resolve();
      }, ms);
      wake = () => {
        clearTimeout(timer);
        wake = null;
        resolve();
      };
    });
  const loop = (async () => {
    while (!stopped) {
      let n = 0;
      try {
        n = await shipOnce(deps, o, abort.signal);
      } catch (err) {
        if (stopped) break;
        deps.log('log shipping round failed', err);
      }
      if (stopped) break;
      if (n < o.batchSize) await sleep(o.pollMs);
    }
  })();
  return {
    kick: () => wake?.(),
    stop: async () => {
      stopped = true;
      abort.abort();
      wake?.();
      await loop;
    },
  };
}
