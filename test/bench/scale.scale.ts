import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { openPostgres, type Database } from '../../api/db/index';
import { DEFAULT_DATABASE_SETTINGS } from '../../api/config';
import { migrate } from '../../api/db/migrate';
import { seedDemo, type SeededAccount } from '../../api/seed';
import { testConfig } from '../../api/config';
import { tokenSigner } from '../../api/auth/token';
import { createApp } from '../../api/app';
import { findActiveAdminByEmail, issueSessionToken } from '../../api/auth/sessions';
import { cli, ROOT, serverEnv } from '../e2e/harness';
import { APP_IDS } from '../../api/contract/apps';

// Scale benchmarks on PostgreSQL. Each generates its data with set-based SQL in a database of
// its own, then prints its figure against the target. They report; they do not fail on a
// missed target (only on a broken setup). Sizes can be lowered for a quick look:
// BENCH_AUDIT_ROWS, BENCH_SEARCH_ROWS, BENCH_WT_ACCOUNTS.

const PG_URL = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const AUDIT_ROWS = Number(process.env.BENCH_AUDIT_ROWS ?? 1_000_000);
const SEARCH_ROWS = Number(process.env.BENCH_SEARCH_ROWS ?? 10_000_000);
const SEARCH_ACCOUNTS = 1_000;
const WT_ACCOUNTS = Number(process.env.BENCH_WT_ACCOUNTS ?? 10_000);

const APPS = APP_IDS.map((a) => `'${a}'`).join(',');
// Two apps in use per account: 10,000 accounts x 2 apps x 365 days = 7.3 million daily rows.
const WT_APPS = APP_IDS.slice(0, 2)
  .map((a) => `'${a}'`)
  .join(',');

const figures: string[] = [];
function report(what: string, value: string, target: string, met: boolean) {
  const line = `${met ? 'MET   ' : 'MISSED'} ${what}: ${value} (target ${target})`;
  figures.push(line);
  console.log(line);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
async function timed(n: number, fn: (i: number) => Promise<unknown>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await fn(i);
    out.push(performance.now() - t);
  }
  return out;
}
const ms = (x: number) => `${x.toFixed(2)} ms`;

async function benchDatabase(): Promise<{ db: Database; url: string; drop: () => Promise<void> }> {
  const name = `sb_bench_${crypto.randomBytes(5).toString('hex')}`;
  const admin = await openPostgres(PG_URL, 1);
  await sql.raw(`create database ${name}`).execute(admin.kysely);
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  // generating millions of rows takes longer than the server's 10 s statement deadline
  const db = await openPostgres(url.toString(), 10, undefined, { ...DEFAULT_DATABASE_SETTINGS, deadlineMs: 600_000 });
  await migrate(db);
  return {
    db,
    url: url.toString(),
    drop: async () => {
      await db.close();
      await sql.raw(`drop database if exists ${name} with (force)`).execute(admin.kysely);
      await admin.close();
    },
  };
}

/** A seeded bench database with generate() run on it, timed: generation is a figure too. */
async function generated(label: string, generate: (db: Database, accounts: SeededAccount[]) => Promise<void>) {
  const ctx = await benchDatabase();
  const accounts = await seedDemo(ctx.db, 'bench-encryption-key-'.padEnd(40, 'x'));
  const t = performance.now();
  await generate(ctx.db, accounts);
  console.log(`generated ${label} in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  return { ...ctx, accounts };
}

function inProcess(db: Database) {
  const config = testConfig();
  const deps = {
    config,
    db,
    tokens: tokenSigner(config.sessionSecret),
    now: () => new Date(),
    log: (m: string, e?: unknown) => console.error(m, e),
  };
  const app = createApp(deps);
  return {
    app,
    get: async (url: string, token: string) => {
      const res = await app.request(url, { headers: { authorization: `Bearer ${token}` } });
      if (res.status !== 200) throw new Error(`${url}: ${res.status} ${await res.text()}`);
      return res;
    },
    token: async (email: string) => issueSessionToken(deps, (await findActiveAdminByEmail(db, email))!),
  };
}

/** Superuser statements (bulk generation bypasses row-level security on purpose). */
const raw = (db: Database, text: string) => sql.raw(text).execute(db.kysely);

/** CPU time (user + system) a process has used, in seconds: hardly moved by other work on the machine. */
function cpuOf(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12])) / 100;
}

function rssOf(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) * 1024;
}

describe('scale (PostgreSQL)', () => {
  afterAll(() => {
    console.log(`\nScale figures:\n${figures.join('\n')}\n`);
  });

  describe(`audit log, ${AUDIT_ROWS.toLocaleString('en')} entries of one account`, () => {
    let ctx: Awaited<ReturnType<typeof generated>>;
    let acme: SeededAccount;
    beforeAll(async () => {
      ctx = await generated(`${AUDIT_ROWS.toLocaleString('en')} audit entries`, async (db, [account]) => {
        acme = account!;
        await raw(
          db,
          `insert into audit_log (account_id, ts, admin_first_name, admin_last_name, namespace, description, event)
          select '${acme.id}', now() - make_interval(secs => g), 'Bench', 'Admin', 'global', 'Bench entry ' || g, 'bench.entry'
          from generate_series(1, ${AUDIT_ROWS}) g`,
        );
        await raw(db, `update audit_counts set count = count + ${AUDIT_ROWS} where account_id = '${acme.id}'`);
        await raw(db, 'vacuum analyze audit_log');
      });
    }, 600_000);
    afterAll(async () => ctx?.drop(), 120_000);

    it('page at depth and x-count', async () => {
      const { get, token } = inProcess(ctx.db);
      const tok = await token('owner@acme.test');
      const depth = Math.floor(AUDIT_ROWS * 0.9);
      const key = (
        await sql<{ key: string }>`select to_char(ts at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') || '_' || id as key
        from audit_log where account_id = ${acme.id} order by ts desc, id desc offset ${depth} limit 1`.execute(ctx.db.kysely)
      ).rows[0]!.key;
      await timed(20, () => get('/api/audit-log', tok));
      const first = await timed(200, () => get('/api/audit-log', tok));
      const deep = await timed(200, () => get(`/api/audit-log?lastKey=${encodeURIComponent(key)}`, tok));
      const count = (await get('/api/audit-log', tok)).headers.get('x-count');
      // The page's own query, without the request path around it (session check, JSON).
      const [ts, id] = [key.slice(0, key.lastIndexOf('_')), Number(key.slice(key.lastIndexOf('_') + 1))];
      const query = await timed(200, () =>
        ctx.db.tenant(acme.id, (trx) =>
          sql`select id, ts, admin_first_name, admin_last_name, namespace, description, event from audit_log
          where account_id = ${acme.id} and (ts, id) < (${ts}::timestamptz, ${id}::bigint) order by ts desc, id desc limit 51`.execute(
            trx,
          ),
        ),
      );
      report(
        `audit log page ${depth.toLocaleString('en')} entries deep, the database transaction alone`,
        `median ${ms(median(query))}`,
        '≤ 2 ms median',
        median(query) <= 2,
      );
      report(
        `audit log page ${depth.toLocaleString('en')} entries deep (in-process API call)`,
        `median ${ms(median(deep))}`,
        '≤ 2 ms median',
        median(deep) <= 2,
      );
      report(
        'audit log first page, x-count header included',
        `median ${ms(median(first))}, x-count ${count}, deep/first ${(median(deep) / median(first)).toFixed(2)}×`,
        'x-count constant time',
        Number(count) >= AUDIT_ROWS,
      );
    }, 600_000);

    it('CSV export streamed with back-pressure', async () => {
      const env = await serverEnv({ DATABASE_URL: ctx.url, AUTO_SEED: 'false', LOG_SHIPPING: 'off', NODE_ENV: 'development' });
      const link = (await cli(env, 'link', 'owner@acme.test')).stdout.trim();
      const tok = new URL(link).searchParams.get('token')!;
      const child = spawn(process.execPath, [path.join(ROOT, 'dist/server.mjs')], { env, cwd: ROOT, stdio: 'ignore' });
      try {
        for (
          const until = Date.now() + 60_000;
          !(await fetch(`${env.PUBLIC_URL}/api/health`).then(
            (r) => r.ok,
            () => false,
          ));
        ) {
          if (Date.now() > until) throw new Error('server did not start');
          await new Promise((r) => setTimeout(r, 200));
        }
        const idle = rssOf(child.pid!);
        let peak = idle;
        const sampler = setInterval(() => (peak = Math.max(peak, rssOf(child.pid!))), 50);
        const started = performance.now();
        const cpuBefore = cpuOf(child.pid!);
        let rows = 0;
        const res = await fetch(`${env.PUBLIC_URL}/api/audit-log/export`, { headers: { authorization: `Bearer ${tok}` } });
        if (res.status !== 200) throw new Error(`export answered ${res.status}`);
        for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) for (const b of chunk) if (b === 10) rows++;
        const seconds = (performance.now() - started) / 1000;
        const cpu = cpuOf(child.pid!) - cpuBefore;
        clearInterval(sampler);
        const rate = (rows - 1) / seconds;
        report(
          `CSV export of ${(rows - 1).toLocaleString('en')} rows, fast client`,
          `${Math.round(rate).toLocaleString('en')} rows/s, ${seconds.toFixed(1)} s; server CPU ${cpu.toFixed(1)} s (${Math.round((rows - 1) / cpu).toLocaleString('en')} rows per CPU second)`,
          '≥ 100,000 rows/s',
          rate >= 100_000,
        );
        report(
          'server RSS during the fast export',
          `peak ${(peak / 2 ** 20).toFixed(0)} MB (idle ${(idle / 2 ** 20).toFixed(0)} MB)`,
          '≤ 150 MB',
          peak <= 150 * 2 ** 20,
        );

        // A client that reads 16 KB every 100 ms: the server must wait for it, not buffer.
        const before = rssOf(child.pid!);
        let slowPeak = before;
        let received = 0;
        await new Promise<void>((resolve, reject) => {
          const req = http.get(
            `${env.PUBLIC_URL}/api/audit-log/export`,
            { headers: { authorization: `Bearer ${tok}` }, highWaterMark: 16 * 1024 } as http.RequestOptions,
            (r) => {
              r.pause();
              const tick = setInterval(() => {
                slowPeak = Math.max(slowPeak, rssOf(child.pid!));
                let chunk: Buffer | null;
                let budget = 16 * 1024;
                while (budget > 0 && (chunk = r.read()) !== null) {
                  received += chunk.length;
                  budget -= chunk.length;
                }
              }, 100);
              setTimeout(() => {
                clearInterval(tick);
                req.destroy();
                resolve();
              }, 8_000);
            },
          );
          req.on('error', (e) =>
            e.message.includes('aborted') || (e as NodeJS.ErrnoException).code === 'ECONNRESET' ? resolve() : reject(e),
          );
        });
        report(
          'server RSS while a slow client reads the export for 8 s',
          `peak ${(slowPeak / 2 ** 20).toFixed(0)} MB (before ${(before / 2 ** 20).toFixed(0)} MB), client read ${(received / 1024).toFixed(0)} KB`,
          'no growth beyond 150 MB: the stream waits for the client',
          slowPeak <= 150 * 2 ** 20,
        );
      } finally {
        child.kill('SIGTERM');
        await new Promise((r) => child.once('exit', r));
      }
    }, 600_000);
  });

  describe(`customer search, ${SEARCH_ROWS.toLocaleString('en')} results across ${SEARCH_ACCOUNTS} accounts`, () => {
    let ctx: Awaited<ReturnType<typeof generated>>;
    let acme: SeededAccount;
    beforeAll(async () => {
      ctx = await generated(`${SEARCH_ROWS.toLocaleString('en')} customer results`, async (db, [account]) => {
        acme = account!;
        await raw(
          db,
          `insert into accounts (name) select 'Search account ' || g from generate_series(1, ${SEARCH_ACCOUNTS - 3}) g`,
        );
        await raw(
          db,
          `create temporary table bench_accounts as select row_number() over (order by id) - 1 as n, id from accounts`,
        );
        // Indexes are built after the load, as a bulk import would.
        await raw(db, 'drop index customer_results_by_ref; drop index customer_results_by_phone');
        await raw(
          db,
          `insert into customer_results (account_id, app, status, ts, session_ref, phone_number, customer_ref)
          select a.id, (array[${APPS}])[1 + g % ${APP_IDS.length}], (array['success','failure','timeout'])[1 + g % 3],
                 now() - make_interval(mins => g % 525600), 'S' || g, '+1555' || lpad((g % 10000000)::text, 7, '0'), 'C' || (g / ${SEARCH_ACCOUNTS})
          from generate_series(0, ${SEARCH_ROWS - 1}) g join bench_accounts a on a.n = g % ${SEARCH_ACCOUNTS}`,
        );
        await raw(
          db,
          `create index customer_results_by_ref on customer_results (account_id, customer_ref, ts desc) where customer_ref is not null;
          create index customer_results_by_phone on customer_results (account_id, phone_number, ts desc) where phone_number is not null`,
        );
        await raw(db, 'vacuum analyze customer_results');
      });
    }, 3_600_000);
    afterAll(async () => ctx?.drop(), 120_000);

    it('search by customer id and by phone number', async () => {
      const { get, token } = inProcess(ctx.db);
      const tok = await token('admin@acme.test');
      const n =
        (
          await sql<{ n: number }>`select n::int from bench_accounts where id = ${acme.id}`
            .execute(ctx.db.kysely)
            .catch(() => ({ rows: [{ n: 0 }] }))
        ).rows[0]?.n ?? 0;
      const refs = (
        await sql<{
          ref: string;
          phone: string;
        }>`select customer_ref as ref, phone_number as phone from customer_results where account_id = ${acme.id} limit 200`.execute(
          ctx.db.kysely,
        )
      ).rows;
      void n;
      await timed(20, (i) => get(`/api/results/customer?customerRef=${encodeURIComponent(refs[i % refs.length]!.ref)}`, tok));
      const byRef = await timed(200, (i) =>
        get(`/api/results/customer?customerRef=${encodeURIComponent(refs[i % refs.length]!.ref)}`, tok),
      );
      const byPhone = await timed(200, (i) =>
        get(`/api/results/customer?customerRef=${encodeURIComponent(refs[i % refs.length]!.phone)}`, tok),
      );
      report('customer search by customer id', `median ${ms(median(byRef))}`, '≤ 5 ms median', median(byRef) <= 5);
      report('customer search by phone number', `median ${ms(median(byPhone))}`, '≤ 5 ms median', median(byPhone) <= 5);
    }, 600_000);
  });

  describe(`Watch Tower, ${WT_ACCOUNTS.toLocaleString('en')} accounts and a year of daily results`, () => {
    let ctx: Awaited<ReturnType<typeof generated>>;
    beforeAll(async () => {
      ctx = await generated(`${WT_ACCOUNTS.toLocaleString('en')} accounts with a year of daily results`, async (db) => {
        await raw(
          db,
          `insert into accounts (name) select 'Account ' || lpad(g::text, 5, '0') from generate_series(1, ${WT_ACCOUNTS - 3}) g`,
        );
        await raw(
          db,
          `insert into admins (account_id, email, first_name, last_name, role)
          select id, 'owner-' || id || '@bench.test', 'Owner', name, 'owner' from accounts a where not exists (select 1 from admins m where m.account_id = a.id)`,
        );
        await raw(
          db,
          `insert into app_billing (account_id, app, status) select id, app, (array['free-trial','subscription','inactive'])[1 + abs(hashtext(id::text || app)) % 3]
          from accounts, unnest(array[${WT_APPS}]) app on conflict do nothing`,
        );
        // Bulk load without the per-row trigger, then the totals it would have kept, set-based.
        await raw(
          db,
          `set session_replication_role = replica;
          insert into result_daily (account_id, app, day, count)
          select a.id, b.app, d::date, 1 + abs(hashtext(a.id::text || d::text)) % 50
          from accounts a cross join unnest(array[${WT_APPS}]) b(app) cross join generate_series(current_date - 364, current_date, interval '1 day') d
          on conflict do nothing;
          delete from result_daily_totals;
          insert into result_daily_totals (app, day, count) select app, day, sum(count) from result_daily group by app, day;
          set session_replication_role = origin`,
        );
        await raw(db, 'vacuum analyze');
      });
    }, 3_600_000);
    afterAll(async () => ctx?.drop(), 120_000);

    it('summary, account statistics and account list', async () => {
      const { get, token } = inProcess(ctx.db);
      const tok = await token('staff@provider.test');
      const some = (await sql<{ id: string }>`select id from accounts order by id limit 1 offset 500`.execute(ctx.db.kysely))
        .rows[0]!.id;
      await timed(3, () => get('/api/watch-tower/statistics/summary', tok));
      const summary = await timed(20, () => get('/api/watch-tower/statistics/summary', tok));
      const account = await timed(20, () => get(`/api/watch-tower/statistics/account?accountId=${some}`, tok));
      const list = await timed(20, () => get('/api/watch-tower/accounts', tok));
      const search = await timed(20, () => get('/api/watch-tower/accounts?q=Account%200123', tok));
      report('Watch Tower summary', `median ${ms(median(summary))}`, '≤ 50 ms', median(summary) <= 50);
      report('Watch Tower account statistics', `median ${ms(median(account))}`, '≤ 50 ms', median(account) <= 50);
      report('Watch Tower account list', `median ${ms(median(list))}`, '≤ 50 ms', median(list) <= 50);
      report('Watch Tower account search', `median ${ms(median(search))}`, '≤ 50 ms', median(search) <= 50);
    }, 600_000);
  });
});
