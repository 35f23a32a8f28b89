import { sql } from 'kysely';
import type { Database } from './index';

// PGlite runs no autovacuum, so its planner never learns table sizes: on a large audit log it
// picks a bitmap scan and a sort over every row of the account (160 ms for 100,000 entries)
// instead of walking the paging index (1 ms). The embedded database therefore refreshes its
// statistics at start and then every ten minutes. PostgreSQL's autovacuum does this itself.

// ANALYZE records each table's size in pages (pg_class.relpages); a table whose file has since
// grown or shrunk by more than a tenth (and 8 pages) or was never analysed is stale. At start only
// those are analysed: statistics are kept in the data directory, so a restart with little changed
// skips most of a second of work (the whole database took 0.5-1.6 s on this machine).
const STALE_TABLES = sql<{ rel: string }>`
  select c.oid::regclass::text as rel from pg_class c join pg_namespace n on n.oid = c.relnamespace
  where n.nspname = 'public' and c.relkind in ('r', 'p')
    and ((c.reltuples < 0 and pg_relation_size(c.oid) > 0)
      or abs(pg_relation_size(c.oid) / current_setting('block_size')::int - c.relpages) > c.relpages / 10 + 8)`;

export async function refreshStatistics(db: Database, options: { onlyStale?: boolean } = {}): Promise<void> {
  if (!options.onlyStale) {
    await sql`analyze`.execute(db.kysely);
    return;
  }
  const stale = (await STALE_TABLES.execute(db.kysely)).rows.map((r) => r.rel);
  // regclass text is already quoted where a name needs it
  if (stale.length) await sql.raw(`analyze ${stale.join(', ')}`).execute(db.kysely);
}

/** Starts the periodic refresh on the embedded database; answers a stop function. */
export function startEmbeddedMaintenance(
  db: Database,
  log: (msg: string, err?: unknown) => void,
  everyMs = 10 * 60_000,
): () => void {
  if (db.kind !== 'pglite') return () => {};
  const timer = setInterval(() => {
    refreshStatistics(db).catch((err) => log('Refreshing the embedded database statistics failed', err));
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
