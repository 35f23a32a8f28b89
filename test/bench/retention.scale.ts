import crypto from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, describe, it } from 'vitest';
import { openPostgres, type Database } from '../../api/db/index';
import { DEFAULT_DATABASE_SETTINGS, testConfig } from '../../api/config';
import { migrate } from '../../api/db/migrate';
import { tokenSigner } from '../../api/auth/token';
import { runRetention } from '../../api/privacy/retention';
import type { Deps } from '../../api/deps';

// The redaction job at scale (issue 42): BENCH_RETENTION_ROWS passcode verifications past their
// period (default 1,000,000), each with a customer-page link, in one account whose rule is in
// force; one run of the job, timed. Target: within 10 minutes. It reports; it does not fail.

const PG_URL = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const ROWS = Number(process.env.BENCH_RETENTION_ROWS ?? 1_000_000);

describe('retention at scale (PostgreSQL)', () => {
  const name = `sb_bench_retention_${crypto.randomBytes(4).toString('hex')}`;
  let admin: Database;
  let db: Database | undefined;
  afterAll(async () => {
    await db?.close();
    await sql.raw(`drop database if exists ${name}`).execute(admin.kysely);
    await admin.close();
  });

  it(`redacts ${ROWS.toLocaleString('en')} tasks past their period in one run`, async () => {
    admin = await openPostgres(PG_URL, 1);
    await sql.raw(`create database ${name}`).execute(admin.kysely);
    const url = new URL(PG_URL);
    url.pathname = `/${name}`;
    db = await openPostgres(url.toString(), 4, undefined, { ...DEFAULT_DATABASE_SETTINGS, deadlineMs: 600_000 });
    await migrate(db);
    const config = testConfig();
    const deps: Deps = { config, db, tokens: tokenSigner(config.sessionSecret), now: () => new Date(), log: () => {} };
    const account = (await db.system((trx) => sql<{ id: string }>`insert into accounts (name) values ('Scale') returning id::text`.execute(trx))).rows[0]!.id;
    const made = performance.now();
    await db.system(async (trx) => {
      await sql`insert into otp_verifications (id, account_id, phone_number, customer_ref, status, code_hmac, code_encrypted, max_checks, created_at, expires_at)
        select gen_random_uuid(), ${account}, '+1415' || lpad(g::text, 7, '0'), 'CUST-' || g, 'approved', 'x', 'x', 5, now() - interval '200 days', now() - interval '200 days'
        from generate_series(1, ${ROWS}) g`.execute(trx);
      await sql`insert into link_tokens (token_hash, account_id, app, purpose, task_id, expires_at) select md5(id::text), account_id, 'one-time-passcode', 'page', id, created_at from otp_verifications`.execute(trx);
      await sql`insert into retention_rules (account_id, kind, days, starts_at) values (${account}, 'otp.tasks', 90, now())`.execute(trx);
      await sql`analyze`.execute(trx);
    });
    console.log(`made ${ROWS.toLocaleString('en')} tasks in ${((performance.now() - made) / 1000).toFixed(1)} s`);
    const started = performance.now();
    const counts = await runRetention(deps);
    const seconds = (performance.now() - started) / 1000;
    const redacted = counts.get(account)?.['otp.tasks'] ?? 0;
    const met = redacted === ROWS && seconds <= 600;
    console.log(`${met ? 'MET   ' : 'MISSED'} retention: ${redacted.toLocaleString('en')} tasks redacted in ${seconds.toFixed(1)} s, ${Math.round(redacted / seconds).toLocaleString('en')} a second (target ${ROWS.toLocaleString('en')} within 600 s)`);
  });
});
