import { sql } from 'kysely';
import type { Database } from './index';

// PGlite runs no autovacuum, so its planner never learns table sizes: on a large audit log it
// picks a bitmap scan and a sort over every row of the account (160 ms for 100,000 entries)
// instead of walking the paging index (1 ms). The embedded database therefore refreshes its
// statistics at start and then every ten minutes. PostgreSQL's autovacuum does this itself.

export async function refreshStatistics(db: Database): Promise<void> {
  await sql`analyze`.execute(db.kysely);
}

/** Starts the periodic refresh on the embedded database; answers a stop function. */
export function startEmbeddedMaintenance(db: Database, log: (msg: string, err?: unknown) => void, everyMs = 10 * 60_000): () => void {
  if (db.kind !== 'pglite') return () => {};
  const timer = setInterval(() => {
    refreshStatistics(db).catch((err) => log('Refreshing the embedded database statistics failed', err));
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
