// The read path's protocol cost, driver against driver, without HTTP: a read of the shape every
// authenticated GET sends (scope settings, session check, the read; one transaction's worth), 50
// in flight, for BENCH_SECONDS each, through
//   - our read lanes (api/db/pg-read-lanes.ts), 2 connections, named or unnamed statements;
//   - pg 8.23 with `pipeline: true`, 2 and 10 connections (BEGIN; scope; check; read; COMMIT);
//   - postgres.js (when POSTGRES_JS points at an install of it), 2 and 10 connections, prepared
//     and `prepare: false` (what a transaction pooler needs);
//   - pgbench running the same statements (10 clients, prepared): PostgreSQL's own limit here.
// It reports; it does not fail. Run (the machine's load matters: say it with the figures):
//   npx esbuild test/bench/db-drivers.ts --bundle --platform=node --format=esm --packages=external --outfile=dist/db-drivers.mjs \
//     && POSTGRES_JS=/tmp/pgjs/node_modules/postgres/src/index.js node dist/db-drivers.mjs
// BENCH_DATABASE_URL picks the server (default the local one; a PgBouncer URL measures through it).
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { prepareValue } from 'pg/lib/utils.js';
import { readLanes, type LaneClient } from '../../api/db/pg-read-lanes';
import type { Step } from '../../api/db/one-message';

const ADMIN_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const IN_FLIGHT = 50;
const PGBENCH = process.env.PGBENCH ?? '/usr/lib/postgresql/15/bin/pgbench';

const SCOPE = `select set_config('app.account_id', $1, true), set_config('app.scope', 'tenant', true)`;
const CHECK = `select s.id from bench_sessions s where s.id = $1 and s.revoked_at is null and s.expires_at > now()`;
const READ = `select a.id, a.name, a.plan, a.created_at from bench_accounts a where a.id = $1`;

type Run = { name: string; reads: number; p50: number; p99: number };

async function measure(name: string, read: (i: number) => Promise<unknown>): Promise<Run> {
  const latencies: number[] = [];
  let i = 0;
  const warm = Date.now() + 1_000;
  while (Date.now() < warm) await Promise.all(Array.from({ length: IN_FLIGHT }, () => read(i++)));
  const until = performance.now() + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (performance.now() < until) {
        const t = performance.now();
        await read(i++);
        latencies.push(performance.now() - t);
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!;
  return { name, reads: latencies.length / SECONDS, p50: at(0.5), p99: at(0.99) };
}

async function main() {
  const name = `sb_drivers_${crypto.randomBytes(4).toString('hex')}`;
  const admin = new pg.Client(ADMIN_URL);
  await admin.connect();
  await admin.query(`create database ${name}`);
  const direct = new URL(ADMIN_URL);
  direct.pathname = `/${name}`;
  const url = process.env.BENCH_DATABASE_URL ? process.env.BENCH_DATABASE_URL.replace('{db}', name) : direct.toString();
  const setup = new pg.Client(direct.toString());
  await setup.connect();
  await setup.query(`create table bench_accounts (id uuid primary key, name text not null, plan text not null, created_at timestamptz not null default now());
    create table bench_sessions (id uuid primary key, account_id uuid not null, revoked_at timestamptz, expires_at timestamptz not null);
    insert into bench_accounts (id, name, plan) select gen_random_uuid(), 'Account ' || g, 'pro' from generate_series(1, 100) g;
    insert into bench_sessions (id, account_id, expires_at) select gen_random_uuid(), id, now() + interval '1 day' from bench_accounts;`);
  const pairs = (await setup.query(`select s.id as session, s.account_id as account from bench_sessions s`)).rows as {
    session: string;
    account: string;
  }[];
  await setup.end();
  const steps = (i: number): Step[] => {
    const p = pairs[i % pairs.length]!;
    return [
      { text: SCOPE, params: [p.account] },
      { text: CHECK, params: [p.session] },
      { text: READ, params: [p.account] },
    ];
  };
  const runs: Run[] = [];
  const parser = (oid: number) => pg.types.getTypeParser(oid, 'text');

  for (const named of [true, false]) {
    const names = new Map<string, string>();
    const lanes = readLanes({
      lanes: 2,
      client: () => new pg.Client({ connectionString: url }) as unknown as LaneClient,
      getTypeParser: parser,
      prepareValue,
      nameOf: named ? (text) => names.get(text) ?? (names.set(text, `b${names.size}`), names.get(text)) : () => undefined,
      deadlineMs: 10_000,
    });
    runs.push(
      await measure(`read lanes, 2 connections, ${named ? 'named' : 'unnamed'} statements`, (i) => lanes.pipeline(steps(i))!),
    );
    await lanes.close();
  }

  for (const size of [2, 10]) {
    const clients = await Promise.all(
      Array.from({ length: size }, async () => {
        const c = new pg.Client({ connectionString: url, pipeline: true } as pg.ClientConfig);
        await c.connect();
        return c;
      }),
    );
    runs.push(
      await measure(`pg pipeline: true, ${size} connections`, (i) => {
        const c = clients[i % size]!;
        const [scope, check, read] = steps(i);
        return Promise.all([
          c.query('begin'),
          c.query(scope!.text, scope!.params as unknown[]),
          c.query(check!.text, check!.params as unknown[]),
          c.query(read!.text, read!.params as unknown[]),
          c.query('commit'),
        ]);
      }),
    );
    await Promise.all(clients.map((c) => c.end()));
  }

  if (process.env.POSTGRES_JS) {
    const postgres = ((await import(process.env.POSTGRES_JS)) as { default: (url: string, options: object) => PostgresJs })
      .default;
    type PostgresJs = {
      begin<T>(fn: (sql: PostgresJs & { unsafe(text: string, params: unknown[]): Promise<unknown> }) => Promise<T>): Promise<T>;
      end(): Promise<void>;
    };
    for (const prepare of [true, false]) {
      for (const size of [2, 10]) {
        const sql = postgres(url, { max: size, prepare });
        runs.push(
          await measure(`postgres.js, ${size} connections, prepare: ${prepare}`, (i) =>
            sql.begin((tx) => {
              const [scope, check, read] = steps(i);
              // one transaction, its statements pipelined (postgres.js sends them without waiting)
              return Promise.all([
                tx.unsafe(scope!.text, scope!.params as unknown[]),
                tx.unsafe(check!.text, check!.params as unknown[]),
                tx.unsafe(read!.text, read!.params as unknown[]),
              ]);
            }),
          ),
        );
        await sql.end();
      }
    }
  }

  // pgbench, the same statements in one transaction
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-drivers-'));
  const script = path.join(dir, 'read.sql');
  const p = pairs[0]!;
  fs.writeFileSync(
    script,
    `BEGIN;\n${SCOPE.replace('$1', `'${p.account}'`)};\n${CHECK.replace('$1', `'${p.session}'`)};\n${READ.replace('$1', `'${p.account}'`)};\nCOMMIT;\n`,
  );
  const out = execFileSync(PGBENCH, ['-n', '-M', 'prepared', '-c', '10', '-j', '2', '-T', String(SECONDS), '-f', script, url], {
    encoding: 'utf8',
  });
  const tps = Number(/tps = ([\d.]+)/.exec(out)?.[1]);
  fs.rmSync(dir, { recursive: true, force: true });

  await admin.query(`drop database ${name} with (force)`);
  await admin.end();
  const load = os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
  console.log(
    `Reads of scope + session check + one row, ${IN_FLIGHT} in flight, ${SECONDS} s each; ${os.cpus().length} cores, load average ${load}`,
  );
  console.log(`  ${'pgbench, same statements (10 clients, prepared)'.padEnd(58)} ${tps.toFixed(0).padStart(6)} tps`);
  for (const r of runs)
    console.log(
      `  ${r.name.padEnd(58)} ${r.reads.toFixed(0).padStart(6)} reads/s  ${(r.reads / tps).toFixed(2)}×  p50 ${r.p50.toFixed(1)} ms  p99 ${r.p99.toFixed(1)} ms`,
    );
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
