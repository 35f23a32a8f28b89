import net from 'node:net';
import crypto from 'node:crypto';
import fs from 'node:fs';
import { sql } from 'kysely';
import { afterAll, beforeAll, inject } from 'vitest';
import { openPglite, openPostgres, type Database, type DatabaseKind } from '../../api/db/index';
import { migrate } from '../../api/db/migrate';
import type { Migration } from '../../api/db/migrations/index';
import { seedDemo, type SeededAccount } from '../../api/seed';
import { DEFAULT_DATABASE_SETTINGS, testConfig, type Config } from '../../api/config';
import { tokenSigner } from '../../api/auth/token';
import { createApp } from '../../api/app';
import { checkedV1Fetch } from '../support/openapi-contract';
import type { Deps } from '../../api/deps';
import { findActiveAdminByEmail, issueSessionToken } from '../../api/auth/sessions';
import { PG_ADMIN_URL, postgresUrl, seededAccounts, seededTemplate, type SeededTemplate } from './templates';

// API tests run against a real database: PostgreSQL when one answers on DATABASE_URL (or
// 127.0.0.1:5432), PGlite otherwise, both where the database's behaviour shows. Each describe
// block gets its own database, dropped afterwards: a copy of the run's seeded template
// (test/api/templates.ts) or, when its config seeds differently, a freshly migrated one.

/** The PostgreSQL server tests create their databases on (kept here for the files importing it). */
export { PG_ADMIN_URL };

let pgReachable: Promise<boolean> | undefined;
function postgresReachable(): Promise<boolean> {
  if (process.env.TEST_DATABASES === 'pglite') return Promise.resolve(false);
  pgReachable ??= new Promise((resolve) => {
    const url = new URL(PG_ADMIN_URL);
    const socket = net.connect({ host: url.hostname, port: Number(url.port || 5432) });
    socket.setTimeout(1000);
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => (socket.destroy(), resolve(false)));
  });
  return pgReachable;
}

/**
 * Every database kind this run can reach: PGlite always, PostgreSQL when it answers (CI always
 * has it). Only the files where the database's own behaviour shows use both: the data layer,
 * migrations, row-level security and tenancy, locks and concurrency, the demo seed, and one
 * smoke file per area. See docs/testing.md.
 */
export async function databaseKinds(): Promise<DatabaseKind[]> {
  const kinds: DatabaseKind[] = [];
  if (process.env.TEST_DATABASES !== 'postgres') kinds.push('pglite');
  if (await postgresReachable()) kinds.push('postgres');
  else if (process.env.CI) throw new Error(`PostgreSQL is not reachable at ${PG_ADMIN_URL}; CI must test both databases`);
  else if (process.env.TEST_DATABASES === 'postgres')
    throw new Error(`TEST_DATABASES=postgres but PostgreSQL is not reachable at ${PG_ADMIN_URL}`);
  return kinds;
}

// vitest collects describe.each at import time, so the kinds are resolved at module load.
/** Both databases (where the database's behaviour shows); `TEST_DATABASES` narrows it to one. */
export const BOTH_DATABASE_KINDS: DatabaseKind[] = await databaseKinds();

/**
 * The one database an ordinary API test runs on: PostgreSQL (what production runs) when it is
 * reachable, else PGlite; `TEST_DATABASES=pglite` picks PGlite.
 */
export const DATABASE_KINDS: DatabaseKind[] =
  BOTH_DATABASE_KINDS.includes('postgres') && process.env.TEST_DATABASES !== 'pglite' ? ['postgres'] : ['pglite'];

/** A fresh database with `migrations` applied (all of them unless told). */
/**
 * A fresh database, migrated. `deadlineMs`: how long a statement may go unanswered on PostgreSQL
 * (10 s, as the server's default, unless a benchmark that generates millions of rows says more).
 */
export async function openTestDatabase(
  kind: DatabaseKind,
  migrations?: Migration[],
  options: { deadlineMs?: number } = {},
): Promise<{ db: Database; drop: () => Promise<void> }> {
  if (kind === 'pglite') {
    const db = await openPglite();
    await migrate(db, migrations);
    return { db, drop: () => db.close() };
  }
  const opened = await createPostgresDatabase(undefined, options.deadlineMs);
  await migrate(opened.db, migrations);
  return opened;
}

/** A copy of the run's seeded template: migrated and seeded as `template` says. */
async function openSeededCopy(
  kind: DatabaseKind,
  template: SeededTemplate,
): Promise<{ db: Database; drop: () => Promise<void> }> {
  if (kind === 'pglite') {
    const db = await openPglite(undefined, { loadDataDir: new Blob([fs.readFileSync(template.source)]) });
    return { db, drop: () => db.close() };
  }
  return createPostgresDatabase(template.source);
}

/** A new, randomly named PostgreSQL database (empty, or a copy of `template`), dropped by `drop`. */
async function createPostgresDatabase(
  template?: string,
  deadlineMs?: number,
): Promise<{ db: Database; drop: () => Promise<void> }> {
  const name = `sb_test_${crypto.randomBytes(6).toString('hex')}`;
  const admin = await openPostgres(PG_ADMIN_URL, 1);
  await sql.raw(`create database ${name}${template ? ` template ${template}` : ''}`).execute(admin.kysely);
  const db = await openPostgres(
    postgresUrl(name),
    5,
    undefined,
    deadlineMs ? { ...DEFAULT_DATABASE_SETTINGS, deadlineMs } : undefined,
  );
  return {
    db,
    drop: async () => {
      await db.close();
      // Connections can take a moment to leave after the pool ends; dropping with FORCE would
      // kill them mid-goodbye and surface as an unhandled error in the test run.
      for (let attempt = 0; ; attempt++) {
        try {
          await sql.raw(`drop database if exists ${name}`).execute(admin.kysely);
          break;
        } catch (err) {
          if (attempt >= 20) throw err;
          await new Promise((r) => setTimeout(r, 100));
        }
      }
      await admin.close();
    },
  };
}

export type TestContext = {
  kind: DatabaseKind;
  db: Database;
  deps: Deps;
  config: Config;
  app: ReturnType<typeof createApp>;
  accounts: SeededAccount[];
  /** the seeded account by key: acme, globex, provider */
  account(key: 'acme' | 'globex' | 'provider'): SeededAccount;
  tokenFor(email: string): Promise<string>;
  /** calls the API the way the console does; `token` may be an e-mail of a demo admin */
  call(
    method: string,
    path: string,
    options?: { as?: string; token?: string; body?: unknown; headers?: Record<string, string> },
  ): Promise<Response>;
  /** mutable clock for time-dependent tests */
  clock: { now: Date };
};

/**
 * Registers a fresh, seeded database and app for the surrounding describe block.
 * Usage: `describe.each(DATABASE_KINDS)('… (%s)', (kind) => { const t = useTestContext(kind); … })`.
 */
export function useTestContext(kind: DatabaseKind, overrides: Partial<Config> = {}, extraDeps: Partial<Deps> = {}): TestContext {
  const ctx = { kind, clock: { now: new Date() } } as TestContext;
  let drop: () => Promise<void> = async () => {};
  beforeAll(async () => {
    const config = testConfig(overrides);
    // The run's seeded template when this block seeds as it was seeded (same encryption key).
    const template = await seededTemplate(kind, inject('templateDir') ?? null);
    const copy = template && template.encryptionKey === config.encryptionKey ? template : null;
    const opened = copy ? await openSeededCopy(kind, copy) : await openTestDatabase(kind);
    drop = opened.drop;
    const deps: Deps = {
      config,
      db: opened.db,
      tokens: tokenSigner(config.sessionSecret, () => ctx.clock.now.getTime()),
      now: () => ctx.clock.now,
      log: () => {},
      ...extraDeps,
    };
    ctx.db = opened.db;
    ctx.deps = deps;
    ctx.config = config;
    ctx.app = createApp(deps);
    // every answer from /api/v1 is held to the published OpenAPI document, closed (docs/api.md)
    ctx.app.fetch = checkedV1Fetch(ctx.app.fetch);
    ctx.accounts = copy ? seededAccounts(copy) : await seedDemo(opened.db, config.encryptionKey, ctx.clock.now);
    ctx.account = (key) => ctx.accounts.find((a) => a.account.key === key)!;
    ctx.tokenFor = async (email) => {
      const admin = await findActiveAdminByEmail(opened.db, email);
      if (!admin) throw new Error(`no admin ${email}`);
      return issueSessionToken(deps, admin);
    };
    ctx.call = async (method, path, options = {}) => {
      const token = options.token ?? (options.as ? await ctx.tokenFor(options.as) : undefined);
      const headers: Record<string, string> = { ...(options.headers ?? {}) };
      if (token) headers.authorization = `Bearer ${token}`;
      let body: string | undefined;
      if (options.body !== undefined) {
        headers['content-type'] = 'application/json';
        body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
      }
      return ctx.app.request(`/api${path}`, { method, headers, body });
    };
  });
  afterAll(async () => {
    await drop();
  });
  return ctx;
}
