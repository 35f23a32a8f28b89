// HTTP benchmark of the hot path on PostgreSQL: the built server (dist/server.mjs) on a fresh
// database, loaded by autocannon at 50 connections, against pgbench running the same reads (the
// session check and the bootstrap reads in one transaction, prepared statements, 10 clients) in
// the same run. It reports; it does not fail.
//
//   node test/bench/http.mjs            (after `node build.mjs`; `npm run bench` does both)
//   BENCH_ROOT=/path/to/other/checkout  measures another build with the same procedure
//   BENCH_SECONDS=10                    length of each load run
//   BENCH_PROFILE=dir                   writes the server's CPU profile (--cpu-prof) into dir
//   BENCH_NODE_ARGS=--perf-basic-prof  extra node flags for the server (perf record -p <pid> reads its map)
//   BENCH_ONLY=bootstrap                loads only the bootstrap (a profile of that route alone)
//   BENCH_WORKERS=2                     server processes (default 1, the server's own default)
//   BENCH_LOADER=autocannon             load generator (default: wrk when installed)
//   BENCH_WRK_THREADS=2                 wrk's threads (the bootstrap is also measured with 1)
//   BENCH_OBSERVE=default               request log (to /dev/null), metrics on, traces at 10 % to a loopback
//                                       OTLP receiver (docs/operations.md's defaults); off: all three off
//   BENCH_POOLER=both                   direct, pgbouncer or both (default both when pgbouncer is installed)
import { spawn, execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import {
  ADMIN_URL,
  admin,
  dropDatabase,
  freePort,
  hasWrk,
  pgbench,
  serverTime,
  usage,
  waitForHealth,
  wrk,
} from './server-support.mjs';

const ROOT = path.resolve(process.env.BENCH_ROOT ?? '.');
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 50;
// The server's processes (WORKERS, api/workers.ts): one, the server's default. On a 2-core machine
// that also runs PostgreSQL and the load generator a second process only adds contention.
const WORKERS = Number(process.env.BENCH_WORKERS ?? 1);
// wrk when it is installed (apt-get install wrk), else autocannon; BENCH_LOADER picks one.
const LOADER = process.env.BENCH_LOADER ?? (hasWrk() ? 'wrk' : 'autocannon');
const WRK_THREADS = Number(process.env.BENCH_WRK_THREADS ?? 2);
// direct, pgbouncer (Debian's PgBouncer 1.18 on loopback, transaction pooling) or both
const POOLER = process.env.BENCH_POOLER ?? (hasPgBouncer() ? 'both' : 'direct');

function hasPgBouncer() {
  try {
    execFileSync('pgbouncer', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/**
 * One load run, with the server's CPU time per answered request: on a machine shared with other
 * work the requests per second swing, the CPU one request costs the server much less.
 */
async function load(url, headers, pid, threads, own) {
  const before = usage(pid);
  await own?.take();
  const result =
    LOADER === 'wrk'
      ? wrk(url, headers, { threads: threads ?? WRK_THREADS, connections: CONNECTIONS, seconds: SECONDS })
      : await autocannon({ url, connections: CONNECTIONS, duration: SECONDS, headers });
  const after = usage(pid);
  result.cpuUsPerRequest = ((after.cpuMs - before.cpuMs) * 1000) / Math.max(1, result.requests.total);
  result.sysUsPerRequest = ((after.sysMs - before.sysMs) * 1000) / Math.max(1, result.requests.total);
  result.rssMb = after.rssMb;
  if (own) result.own = await own.take();
  return result;
}

/**
 * The reads an authenticated GET /api/admins/bootstrap makes, as SQL: the session check
 * (session row joined with its admin) and the account, branding and billing reads.
 */
function bootstrapScript({ sid, sub, acc }) {
  return `begin;
select set_config('role', 'switchboard_app', true), set_config('app.account_id', '${acc}', true);
select s.revoked_at, s.reason, a.archived_at is not null as archived, a.role, a.is_root, a.first_name, a.last_name from sessions s join admins a on a.id = s.admin_id where s.id = '${sid}' and s.admin_id = '${sub}' and s.account_id = '${acc}' and s.ghost = false and s.staff_id is not distinct from null;
select id, name from accounts where id = '${acc}';
select * from branding where account_id = '${acc}';
select app, status, trial_ends_at, credits, free_tier from app_billing where account_id = '${acc}';
commit;
`;
}

const ms = (n) => `${n.toFixed(1)} ms`;

/** esbuild a TypeScript helper of the tests (test/support) into a module this script can import. */
async function importTs(file) {
  const { build } = await import('esbuild');
  const out = path.join(os.tmpdir(), `sb-bench-${process.pid}-${path.basename(file, '.ts')}.mjs`);
  await build({
    entryPoints: [path.resolve(file)],
    bundle: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    outfile: out,
    logLevel: 'silent',
  });
  try {
    return await import(out);
  } finally {
    fs.rmSync(out, { force: true });
  }
}

async function main() {
  const name = `sb_bench_${crypto.randomBytes(5).toString('hex')}`;
  const dbUrl = new URL(ADMIN_URL);
  dbUrl.pathname = `/${name}`;
  const databaseUrl = dbUrl.toString();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-bench-'));
  const env = {
    ...process.env,
    NODE_ENV: 'development',
    DATABASE_URL: databaseUrl,
    DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    SESSION_SECRET: crypto.randomBytes(32).toString('hex'),
    ENCRYPTION_KEY: crypto.randomBytes(32).toString('hex'),
    LOG_SHIPPING: 'off',
    DEV_IDP: 'false',
    WORKERS: String(WORKERS),
  };
  const cli = (...args) =>
    execFileSync(process.execPath, [path.join(ROOT, 'dist/cli.mjs'), ...args], { env, cwd: ROOT, encoding: 'utf8' });
  // the observability the server runs with: unset leaves the environment's; the ratio to pgbench
  // is meant with the defaults on (issue 43), traces going to a loopback receiver that takes all
  const observe = process.env.BENCH_OBSERVE;
  let receiver;
  if (observe === 'default') {
    receiver = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
    });
    await new Promise((r) => receiver.listen(0, '127.0.0.1', r));
    Object.assign(env, {
      LOG_LEVEL: 'info',
      METRICS_PORT: String(await freePort()),
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${receiver.address().port}`,
      OTEL_TRACES_SAMPLER_ARG: '0.1',
    });
  } else if (observe === 'off') {
    Object.assign(env, { LOG_LEVEL: 'silent' });
    delete env.METRICS_PORT;
    delete env.OTEL_EXPORTER_OTLP_ENDPOINT;
  }
  await admin(`create database ${name}`);
  let server;
  let bouncer;
  const stop = async () => {
    server?.kill('SIGTERM');
    await new Promise((r) => (server && server.exitCode === null ? server.once('exit', r) : r()));
    server = undefined;
  };
  try {
    cli('migrate');
    cli('seed');
    const link = cli('link', 'owner@acme.test').trim().split('\n').pop();
    const token = decodeURIComponent(new URL(link).searchParams.get('token'));
    const claims = JSON.parse(Buffer.from(token.split('.')[1], 'base64url'));
    const headers = { authorization: `Bearer ${token}` };
    const modes = POOLER === 'both' ? ['direct', 'pgbouncer'] : [POOLER];
    if (modes.includes('pgbouncer')) {
      const { startPgBouncer } = await importTs('test/support/pgbouncer.ts');
      bouncer = await startPgBouncer({
        host: dbUrl.hostname,
        port: Number(dbUrl.port || 5432),
        user: decodeURIComponent(dbUrl.username) || 'postgres',
      });
    }
    const measured = {};
    for (const mode of modes) {
      const port = await freePort();
      // behind the pooler: unnamed statements, and the direct URL for LISTEN (as in operations)
      const modeEnv =
        mode === 'direct'
          ? { ...env, PORT: String(port) }
          : {
              ...env,
              PORT: String(port),
              DATABASE_URL: bouncer.url(name),
              DATABASE_POOLER: 'transaction',
              DIRECT_DATABASE_URL: databaseUrl,
            };
      const profile = process.env.BENCH_PROFILE ? ['--cpu-prof', '--cpu-prof-dir', path.resolve(process.env.BENCH_PROFILE)] : [];
      if (process.env.BENCH_NODE_ARGS) profile.push(...process.env.BENCH_NODE_ARGS.split(' '));
      // the server's own time per answer: one process only (the primary of several serves nothing)
      const own = WORKERS === 1 ? serverTime() : null;
      server = spawn(process.execPath, [...(own?.args ?? []), ...profile, path.join(ROOT, 'dist/server.mjs')], {
        env: { ...modeEnv, ...own?.env },
        cwd: ROOT,
        stdio: ['ignore', 'ignore', process.env.BENCH_SERVER_LOG ? 'inherit' : 'ignore'],
      });
      own?.attach(server);
      const url = `http://127.0.0.1:${port}`;
      await waitForHealth(url, server);
      await new Promise((r) => setTimeout(r, 2000));
      const idle = usage(server.pid);
      const check = await fetch(`${url}/api/admins/bootstrap`, { headers });
      if (check.status !== 200) throw new Error(`bootstrap answered ${check.status}: ${await check.text()}`);
      // Concurrent answers must all be 200 before any figure means anything.
      const burst = await Promise.all(
        Array.from({ length: CONNECTIONS }, () =>
          fetch(`${url}/api/admins/bootstrap`, { headers }).then(
            async (r) => `${r.status} ${r.status === 200 ? '' : await r.text()}`,
          ),
        ),
      );
      const failures = [...new Set(burst.filter((b) => !b.startsWith('200')))];
      if (failures.length) console.log(`  ${mode}: concurrent bootstrap calls failed:`, failures.slice(0, 3));
      await autocannon({ url: `${url}/api/admins/bootstrap`, connections: CONNECTIONS, duration: 2, headers }); // warm-up
      const m = { idle };
      m.boot = await load(`${url}/api/admins/bootstrap`, headers, server.pid, undefined, own);
      // What a user's page load meets below capacity: flat out, 50 connections queue (Little's law
      // puts the mean at 50 / requests per second, so the p99 follows the machine's speed); at half
      // the measured rate the latency is the server's own (autocannon paces; wrk cannot).
      const rate = Math.max(1, Math.round(m.boot.requests.average / 2));
      const before = usage(server.pid);
      await own?.take();
      const paced = await autocannon({
        url: `${url}/api/admins/bootstrap`,
        connections: CONNECTIONS,
        duration: SECONDS,
        headers,
        overallRate: rate,
      });
      m.paced = {
        rate,
        requests: paced.requests,
        latency: paced.latency,
        non2xx: paced.non2xx,
        errors: paced.errors,
        own: await own?.take(),
        cpuUsPerRequest: ((usage(server.pid).cpuMs - before.cpuMs) * 1000) / Math.max(1, paced.requests.total),
      };
      if (process.env.BENCH_ONLY !== 'bootstrap') {
        m.list = await load(`${url}/api/admins`, headers, server.pid);
        m.health = await load(`${url}/api/health`, {}, server.pid);
        // the load generator's own threads against the tail: the same bootstrap with one wrk thread
        if (LOADER === 'wrk' && WRK_THREADS !== 1) m.bootOne = await load(`${url}/api/admins/bootstrap`, headers, server.pid, 1);
      }
      measured[mode] = m;
      await stop();
    }
    // pgbench's session check needs the session id; older tokens (no sessions table) read the admin
    const reads = claims.sid
      ? bootstrapScript(claims)
      : bootstrapScript(claims).replace(
          /^select s\.revoked_at.*$/m,
          `select id, role, is_root, email, first_name, last_name from admins where id = '${claims.sub}' and archived_at is null;`,
        );
    const bench = pgbench(databaseUrl, reads);
    // PostgreSQL alone at the HTTP load's concurrency: the floor under the bootstrap's p99 at 50
    // connections on this machine (the same reads, 50 clients in a closed loop, nothing else)
    const bench50 = pgbench(databaseUrl, reads, { clients: CONNECTIONS });
    // the statements this server actually sends (account and branding joined), for comparison
    const served = pgbench(
      databaseUrl,
      reads.replace(
        /^select id, name from accounts.*\n^select \* from branding.*$/m,
        `select a.id, a.name, b.account_id, b.name, b.logo, b.color, b.domain, b.domain_is_verified from accounts a left join branding b on b.account_id = a.id where a.id = '${claims.acc}';`,
      ),
    );
    const pooled = bouncer ? pgbench(bouncer.url(name), reads, { protocol: 'extended' }) : null;

    const row = (label, r) =>
      `  ${label.padEnd(38)} ${r.requests.average.toFixed(0).padStart(6)} req/s  p50 ${ms(r.latency.p50)}  p99 ${ms(r.latency.p99)}  server CPU ${r.cpuUsPerRequest.toFixed(0)} µs/request${r.loaderCpuShare >= 0 ? `  (wrk used ${(r.loaderCpuShare * 100).toFixed(0)} % of a core)` : ''}`;
    console.log(
      `\nHTTP hot path on PostgreSQL (observability ${observe ?? 'as the environment says'}; ${os.cpus().length} cores, ${WORKERS} server process${WORKERS > 1 ? 'es' : ''}, ${LOADER} ${WRK_THREADS} threads, ${CONNECTIONS} connections, ${SECONDS} s each, ${ROOT}, load average ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')})`,
    );
    let bad = 0;
    for (const [mode, m] of Object.entries(measured)) {
      console.log(
        ` ${mode === 'direct' ? 'direct to PostgreSQL' : 'through PgBouncer 1.18, transaction pooling (DATABASE_POOLER=transaction: unnamed statements)'}; server idle RSS ${m.idle.rssMb.toFixed(0)} MB`,
      );
      if (m.health) console.log(row('GET /api/health', m.health));
      console.log(row('GET /api/admins/bootstrap', m.boot));
      console.log(
        `  ${''.padEnd(38)} latency p75 ${ms(m.boot.latency.p75 ?? NaN)}  p90 ${ms(m.boot.latency.p90 ?? NaN)}${m.boot.own ? `; the server's own time p50 ${ms(m.boot.own.p50)}  p99 ${ms(m.boot.own.p99)}` : ''}`,
      );
      console.log(row(`bootstrap paced at ${m.paced.rate} req/s (autocannon)`, m.paced));
      if (m.paced.own)
        console.log(`  ${''.padEnd(38)} the server's own time p50 ${ms(m.paced.own.p50)}  p99 ${ms(m.paced.own.p99)}`);
      if (m.bootOne) console.log(row('GET /api/admins/bootstrap, wrk 1 thread', m.bootOne));
      if (m.list) console.log(row('GET /api/admins', m.list));
      console.log(
        `  bootstrap / pgbench (direct)            ${(m.boot.requests.average / bench.tps).toFixed(2)}×   (target ≥ 0.6×, p99 ≤ 10 ms); against the server's own SQL ${(m.boot.requests.average / served.tps).toFixed(2)}×${pooled ? `; against pgbench through PgBouncer ${(m.boot.requests.average / pooled.tps).toFixed(2)}×` : ''}`,
      );
      console.log(
        `  bootstrap p99 / pgbench p99 at ${CONNECTIONS} clients  ${(m.boot.latency.p99 / bench50.p99).toFixed(2)}×   (target ≤ 1.25×)`,
      );
      bad += m.boot.non2xx + m.boot.errors + (m.list ? m.list.non2xx + m.list.errors : 0);
    }
    console.log(
      `  pgbench, same reads, direct            ${bench.tps.toFixed(0).padStart(6)} tps    (10 clients, prepared, latency ${ms(bench.latency)})`,
    );
    console.log(
      `  pgbench, same reads, ${CONNECTIONS} clients        ${bench50.tps.toFixed(0).padStart(6)} tps    (p99 ${ms(bench50.p99)}: PostgreSQL alone at the HTTP load's concurrency)`,
    );
    console.log(
      `  pgbench, server's SQL, direct          ${served.tps.toFixed(0).padStart(6)} tps    (account and branding joined, as the server now reads them)`,
    );
    if (pooled)
      console.log(
        `  pgbench, same reads, through PgBouncer ${pooled.tps.toFixed(0).padStart(6)} tps    (10 clients, extended protocol: unnamed statements, latency ${ms(pooled.latency)})`,
      );
    if (bad) console.log(`  WARNING: ${bad} answers were not 2xx or failed`);
  } finally {
    await stop();
    await bouncer?.stop();
    receiver?.close();
    await dropDatabase(name);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
