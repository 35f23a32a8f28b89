import { sql } from 'kysely';
import type { Database } from '../db/index';
import { MIGRATIONS } from '../db/migrations/index';

// GET /api/ready (docs/operations.md): whether a balancer should send this process requests.
// /api/health only says the process answers; ready also needs the database reachable with every
// migration this build knows applied, the live listener connected, and the process not draining
// (after SIGTERM it answers 503 for READY_DRAIN_SECONDS before it stops listening).

export type NotReadyReason = 'draining' | 'database' | 'migrations' | 'live-listener';

export type Readiness = {
  /** set on SIGTERM: from then on the answer is 503 */
  draining: boolean;
  /** the reasons this process is not ready; empty when it is */
  check(): Promise<NotReadyReason[]>;
};

// The check must answer within a balancer's timeout even when the database does not.
const CHECK_TIMEOUT_MS = 2_000;

export function readiness(db: Database, liveConnected: () => boolean): Readiness {
  const ids = MIGRATIONS.map((m) => m.id);
  const state: Readiness = {
    draining: false,
    async check() {
      const reasons: NotReadyReason[] = [];
      if (state.draining) reasons.push('draining');
      if (!liveConnected()) reasons.push('live-listener');
      let timer: NodeJS.Timeout | undefined;
      try {
        const applied = await Promise.race([
          sql<{ n: number }>`select count(*)::int as n from schema_migrations where id = any(${ids}::text[])`.execute(db.kysely),
          new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('timeout')), CHECK_TIMEOUT_MS))),
        ]);
        if (Number(applied.rows[0]?.n) !== ids.length) reasons.push('migrations');
      } catch {
        reasons.push('database');
      } finally {
        clearTimeout(timer);
      }
      return reasons;
    },
  };
  return state;
}
