import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { Database } from '../../api/db/index';
import { refreshStatistics } from '../../api/db/maintenance';
import { openTestDatabase } from './helpers';

// The embedded database refreshes its planner statistics at start; only tables that changed
// since their last ANALYZE are analysed, so a restart with little changed does not pay for all.

const analysedAt = async (db: Database, table: string) =>
  (
    await sql<{
      pages: number;
      tuples: number;
    }>`select relpages as pages, reltuples as tuples from pg_class where oid = ${table}::regclass`.execute(db.kysely)
  ).rows[0]!;

describe('planner statistics at start (embedded database)', () => {
  let db: Database;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ db, drop } = await openTestDatabase('pglite'));
    await sql`create table stats_probe (id int primary key, note text)`.execute(db.kysely);
    await sql`create table stats_quiet (id int primary key)`.execute(db.kysely);
    await sql`insert into stats_quiet select g from generate_series(1, 100) g`.execute(db.kysely);
    await refreshStatistics(db);
  });
  afterAll(() => drop());

  it('analyses a table that grew since its statistics were taken, and leaves the unchanged ones alone', async () => {
    expect((await analysedAt(db, 'stats_probe')).tuples).toBeLessThanOrEqual(0);
    await sql`insert into stats_probe select g, repeat('x', 100) from generate_series(1, 20000) g`.execute(db.kysely);
    // a row written into the quiet table's free space changes nothing the planner sizes by
    await sql`insert into stats_quiet values (101)`.execute(db.kysely);
    await refreshStatistics(db, { onlyStale: true });
    const probe = await analysedAt(db, 'stats_probe');
    expect(probe.tuples).toBe(20000);
    expect(probe.pages).toBeGreaterThan(100);
    expect((await analysedAt(db, 'stats_quiet')).tuples).toBe(100);
  });

  it('analyses nothing when nothing changed', async () => {
    await sql`insert into stats_probe values (20001, 'one more')`.execute(db.kysely);
    await refreshStatistics(db, { onlyStale: true });
    expect((await analysedAt(db, 'stats_probe')).tuples).toBe(20000);
  });
});
