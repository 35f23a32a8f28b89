import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Kysely, PostgresDialect, sql } from 'kysely';
import { Database, openPostgres, pgliteExtensions } from '../../api/db/index';
import { pglitePool } from '../../api/db/pglite-dialect';
import { migrate } from '../../api/db/migrate';
import { MIGRATIONS } from '../../api/db/migrations/index';
import { DEMO_ACCOUNTS, SEED_STEPS, seedDemo, type SeededAccount } from '../../api/seed';
import { testConfig } from '../../api/config';

// Migrating and seeding a database took seconds per describe block (PGlite: mostly its initdb;
// PostgreSQL: 25 migrations and the demo seed). Now each is done once per run and database kind,
// by the first worker that needs it: a PostgreSQL template database and a PGlite data directory
// snapshot, migrated and seeded with the test config's encryption key. Each describe block then
// gets its own copy: `CREATE DATABASE … TEMPLATE` or `new PGlite({ loadDataDir })`. A test whose
// config seeds differently (another encryption key) or that wants other migrations still migrates
// and seeds a fresh database (test/api/helpers.ts). test/api/global-setup.ts gives the run its
// directory (where workers find the templates) and drops them when the run ends.

/** What a describe block needs to use a seeded copy: where it is and what the seed made. */
export type SeededTemplate = {
  /** PostgreSQL: the template database's name; PGlite: the snapshot file's path */
  source: string;
  /** the seed's inputs these copies were made with; another key means a fresh seed */
  encryptionKey: string;
  /** the moment the demo data was seeded relative to */
  seedNow: string;
  accounts: { id: string; domain: string; adminIds: Record<string, string> }[];
};

declare module 'vitest' {
  export interface ProvidedContext {
    /** this run's directory: <kind>.json describes a ready template, <kind>.lock its maker */
    templateDir: string | null;
  }
}

export const PG_ADMIN_URL =
  process.env.TEST_POSTGRES_URL ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export function postgresUrl(database: string): string {
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${database}`;
  return url.toString();
}

/**
 * A digest of the seeded template's inputs: the migrations, the demo accounts, the seed steps and
 * the encryption key. It names the template, so runs of different branches never share one.
 */
export function templateInputsHash(encryptionKey: string): string {
  const h = crypto.createHash('sha256');
  for (const m of MIGRATIONS) h.update(`${m.id}\0${m.sql}\0${m.run?.toString() ?? ''}\0`);
  h.update(JSON.stringify(DEMO_ACCOUNTS));
  for (const step of SEED_STEPS) h.update(step.toString());
  h.update(encryptionKey);
  return h.digest('hex').slice(0, 12);
}

const summary = (accounts: SeededAccount[]) =>
  accounts.map((a) => ({ id: a.id, domain: a.account.domain, adminIds: a.adminIds }));

/** The seeded accounts of a copy, as seedDemo returned them when the template was made. */
export function seededAccounts(template: SeededTemplate): SeededAccount[] {
  return template.accounts.map((a) => {
    const account = DEMO_ACCOUNTS.find((d) => d.domain === a.domain);
    if (!account) throw new Error(`the seeded template has an account ${a.domain} the demo data no longer has`);
    return { id: a.id, account, adminIds: a.adminIds };
  });
}

// Templates are named sb_template_<inputs hash>_<creation time, base 36 seconds>_<random>: a run that was
// killed leaves its template behind, and the next run drops those older than this.
const STALE_TEMPLATE_MS = 3 * 3600_000;

/** Creates the PostgreSQL template for this run (migrated, seeded, closed to connections). */
export async function createPostgresTemplate(seedNow: Date): Promise<SeededTemplate> {
  const encryptionKey = testConfig().encryptionKey;
  const name = `sb_template_${templateInputsHash(encryptionKey)}_${Math.floor(Date.now() / 1000).toString(36)}_${crypto.randomBytes(3).toString('hex')}`;
  const admin = await openPostgres(PG_ADMIN_URL, 1);
  try {
    const old = await sql<{ datname: string }>`select datname from pg_database where datname like 'sb\_template\_%'`.execute(
      admin.kysely,
    );
    for (const { datname } of old.rows) {
      const made = parseInt(datname.split('_').at(-2) ?? '', 36) * 1000;
      if (Number.isFinite(made) && Date.now() - made > STALE_TEMPLATE_MS) {
        await sql
          .raw(`drop database if exists ${datname} with (force)`)
          .execute(admin.kysely)
          .catch(() => {});
      }
    }
    await sql.raw(`create database ${name}`).execute(admin.kysely);
  } finally {
    await admin.close();
  }
  const db = await openPostgres(postgresUrl(name), 1);
  let accounts: SeededAccount[];
  try {
    await migrate(db);
    accounts = await seedDemo(db, encryptionKey, seedNow);
  } finally {
    await db.close();
  }
  return { source: name, encryptionKey, seedNow: seedNow.toISOString(), accounts: summary(accounts) };
}

/**
 * A fresh PGlite database in memory that can dump its data directory, for making the snapshot
 * (the copies open through openPglite, as the server does).
 */
async function openPgliteToDump(): Promise<{ db: Database; dump: () => Promise<Blob> }> {
  const { PGlite } = await import('@electric-sql/pglite');
  const pg = new PGlite({ extensions: await pgliteExtensions() });
  await pg.waitReady;
  const kysely = new Kysely<never>({ dialect: new PostgresDialect({ pool: pglitePool(pg) as never }) });
  const db = new Database(kysely as never, 'pglite', async () => {
    await kysely.destroy();
    await pg.close();
  });
  return {
    db,
    dump: async () => {
      await pg.exec('checkpoint');
      return pg.dumpDataDir('none');
    },
  };
}

/** Creates this run's PGlite snapshot file (a migrated, seeded data directory as a tar). */
export async function createPgliteSnapshot(seedNow: Date, dir: string): Promise<SeededTemplate> {
  const encryptionKey = testConfig().encryptionKey;
  const { db, dump } = await openPgliteToDump();
  let accounts: SeededAccount[];
  let tar: Blob;
  try {
    await migrate(db);
    accounts = await seedDemo(db, encryptionKey, seedNow);
    tar = await dump();
  } finally {
    await db.close();
  }
  const file = path.join(dir, `pglite-${templateInputsHash(encryptionKey)}-${seedNow.getTime()}.tar`);
  fs.writeFileSync(file, Buffer.from(await tar.arrayBuffer()));
  return { source: file, encryptionKey, seedNow: seedNow.toISOString(), accounts: summary(accounts) };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// The demo data is seeded relative to the moment it was made, and tests run on the real clock,
// so a copy's data is as old as its template. Before templates the seed was at most a file's
// run older than the test; a template is used for TEMPLATE_MAX_AGE_S (default 120 s) and then
// made anew, so its data never lags the clock by more than that. Time boxes are numbered by the
// wall clock, so every worker agrees which template is current.
const MAX_AGE_MS = Number(process.env.TEST_TEMPLATE_MAX_AGE_S ?? 120) * 1000;

/**
 * This run's current seeded template for `kind`, made by whichever worker asks first in its time
 * box (the others wait for its description to appear). Null outside a run with
 * test/api/global-setup.ts, or when making it failed (then every block seeds its own database).
 */
export async function seededTemplate(
  kind: 'pglite' | 'postgres',
  dir: string | null,
  waitMs = 120_000,
): Promise<SeededTemplate | null> {
  if (!dir) return null;
  const box = `${kind}-${Math.floor(Date.now() / MAX_AGE_MS)}`;
  const ready = path.join(dir, `${box}.json`);
  const failed = path.join(dir, `${kind}.failed`);
  const read = (): SeededTemplate | null =>
    fs.existsSync(ready) ? (JSON.parse(fs.readFileSync(ready, 'utf8')) as SeededTemplate) : null;
  if (fs.existsSync(failed)) return null;
  const known = read();
  if (known) return known;
  let maker = false;
  try {
    fs.writeFileSync(path.join(dir, `${box}.lock`), String(process.pid), { flag: 'wx' });
    maker = true;
  } catch {
    /* another worker makes it */
  }
  if (maker) {
    try {
      const made = kind === 'postgres' ? await createPostgresTemplate(new Date()) : await createPgliteSnapshot(new Date(), dir);
      fs.writeFileSync(`${ready}.tmp`, JSON.stringify(made));
      fs.renameSync(`${ready}.tmp`, ready);
      return made;
    } catch (err) {
      fs.writeFileSync(failed, String((err as Error).stack ?? err));
      console.error(`The seeded ${kind} template could not be made; each block seeds its own database:`, err);
      return null;
    }
  }
  // The maker announces the template by renaming its description into place.
  for (const deadline = Date.now() + waitMs; Date.now() < deadline; await sleep(50)) {
    const t = read();
    if (t) return t;
    if (fs.existsSync(failed)) return null;
  }
  throw new Error(`the seeded ${kind} template did not appear in ${dir} within ${waitMs / 1000} s`);
}

/** Drops what this run made: its PostgreSQL templates and the directory with the snapshots. */
export async function dropTemplates(dir: string): Promise<void> {
  const made = fs.readdirSync(dir).filter((f) => /^postgres-\d+\.json$/.test(f));
  if (made.length) {
    const admin = await openPostgres(PG_ADMIN_URL, 1);
    try {
      for (const f of made) {
        const { source } = JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as SeededTemplate;
        await sql.raw(`drop database if exists ${source} with (force)`).execute(admin.kysely);
      }
    } finally {
      await admin.close();
    }
  }
  fs.rmSync(dir, { recursive: true, force: true });
}
