import { Kysely, PostgresDialect, sql, type Transaction } from 'kysely';
import type { Schema } from './schema';
import { pglitePool } from './pglite-dialect';

export type { Schema } from './schema';
export type Trx = Transaction<Schema>;

/** The role every application query runs as: row-level security binds it (it is no superuser). */
export const APP_ROLE = 'switchboard_app';

export type DatabaseKind = 'pglite' | 'postgres';

/**
 * The one way the server reaches its data. Tenant data is only reachable through `tenant()`,
 * which scopes the transaction to one account in the database itself; `system()` is the explicit
 * cross-account path for sign-in resolution and provider staff, and callers must have checked
 * their right to it.
 */
export class Database {
  constructor(
    readonly kysely: Kysely<Schema>,
    readonly kind: DatabaseKind,
    private readonly closeFn: () => Promise<void>,
  ) {}

  /** Runs fn in a transaction that sees and writes only rows of this account. */
  tenant<T>(accountId: string, fn: (trx: Trx) => Promise<T>): Promise<T> {
    return this.kysely.transaction().execute(async (trx) => {
      await sql`select set_config('role', ${APP_ROLE}, true), set_config('app.account_id', ${accountId}, true)`.execute(trx);
      return fn(trx);
    });
  }

  /** Runs fn in a transaction that may read and write every account (guarded by the caller). */
  system<T>(fn: (trx: Trx) => Promise<T>): Promise<T> {
    return this.kysely.transaction().execute(async (trx) => {
      await sql`select set_config('role', ${APP_ROLE}, true), set_config('app.scope', 'system', true)`.execute(trx);
      return fn(trx);
    });
  }

  close(): Promise<void> {
    return this.closeFn();
  }
}

export async function openPglite(dataDir?: string): Promise<Database> {
  const { PGlite } = await import('@electric-sql/pglite');
  const pg = new PGlite(dataDir);
  await pg.waitReady;
  const kysely = new Kysely<Schema>({ dialect: new PostgresDialect({ pool: pglitePool(pg) as never }) });
  return new Database(
    kysely,
    'pglite',
    async () => {
      await kysely.destroy();
      await pg.close();
    },
  );
}

export async function openPostgres(url: string, poolSize = 10): Promise<Database> {
  const pgModule = await import('pg');
  const pg = (pgModule as unknown as { default: typeof pgModule }).default ?? pgModule;
  // Same value types as PGlite: bigint as number (our counters stay far below 2^53), date as text.
  const types = {
    getTypeParser(oid: number, format?: 'text' | 'binary') {
      if (oid === 20) return (value: string) => Number(value);
      if (oid === 1082) return (value: string) => value;
      return pg.types.getTypeParser(oid, format as 'text');
    },
  };
  const pool = new pg.Pool({ connectionString: url, max: poolSize, types: types as never });
  // An idle connection the server drops (restart, failover) must not crash the process: the
  // pool replaces it on the next checkout.
  pool.on('error', (err) => console.error('PostgreSQL connection lost:', err.message));
  // A connection checked out for a transaction has no pool listener: without this one, a
  // server restart mid-transaction is an uncaught 'error' that ends the process. The query
  // in flight is rejected anyway and answers 503 (api/http/errors.ts).
  pool.on('connect', (client) => client.on('error', () => {}));
  const kysely = new Kysely<Schema>({ dialect: new PostgresDialect({ pool }) });
  return new Database(
    kysely,
    'postgres',
    () => kysely.destroy(),
  );
}

export async function openDatabase(options: { databaseUrl?: string; dataDir?: string }): Promise<Database> {
  return options.databaseUrl ? openPostgres(options.databaseUrl) : openPglite(options.dataDir);
}
