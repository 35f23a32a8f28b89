// The write path at volume: POST /api/v1/otp/send (development outbox) on the built server
// (dist/server.mjs, one process) on PostgreSQL, at 50 connections across 20 accounts whose rate
// limits are raised, beside pgbench running the statements one send makes. Then the same with the
// SMS fraud guard's pumping rules on: its cost per send. It also counts what one send asks of the
// database (statements and round trips) through a counting proxy. It reports; it does not fail.
//
//   node test/bench/otp-send.mjs        (after `node build.mjs`)
//   BENCH_SECONDS=10                    length of each load run
//   BENCH_PROFILE=dir                   writes the server's CPU profiles (--cpu-prof) into dir
//   BENCH_SERVER_LOG=1                  the server's errors on this terminal
import { spawn, execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { ADMIN_URL, admin, dropDatabase, freePort, pgbench, usage, waitForHealth } from './server-support.mjs';

const ROOT = path.resolve('.');
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 50;
const ACCOUNTS = 20;
const COUNTED_SENDS = 100;

/**
 * A TCP proxy in front of PostgreSQL that counts what clients ask: statements (simple Query
 * messages and Execute messages) and round trips (each time a client writes after the server
 * answered: the client waited for it).
 */
async function countingProxy(target) {
  const counts = { statements: 0, roundTrips: 0 };
  const server = net.createServer((client) => {
    const upstream = net.connect(target.port, target.host);
    let buffer = Buffer.alloc(0);
    let started = false;
    let answered = true;
    client.on('data', (chunk) => {
      if (answered) counts.roundTrips++;
      answered = false;
      buffer = Buffer.concat([buffer, chunk]);
      for (;;) {
        if (!started) {
          if (buffer.length < 8) break;
          const len = buffer.readInt32BE(0);
          if (buffer.length < len) break;
          // SSLRequest (80877103) is answered 'N' and followed by the real startup message
          if (buffer.readInt32BE(4) !== 80877103) started = true;
          buffer = buffer.subarray(len);
          continue;
        }
        if (buffer.length < 5) break;
        const type = String.fromCharCode(buffer[0]);
        const len = buffer.readInt32BE(1);
        if (buffer.length < len + 1) break;
        if (type === 'Q' || type === 'E') counts.statements++;
        buffer = buffer.subarray(len + 1);
      }
      upstream.write(chunk);
    });
    upstream.on('data', (chunk) => {
      answered = true;
      client.write(chunk);
    });
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end);
    upstream.on('error', end);
    client.on('close', end);
    upstream.on('close', end);
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return { port: server.address().port, counts, close: () => new Promise((r) => server.close(r)) };
}

const sha256 = (s) => crypto.createHash('sha256').update(s).digest('hex');

/** 20 accounts with One-Time Passcode on Enterprise, the development outbox and a key each. */
async function makeAccounts(databaseUrl) {
  const client = new pg.Client(databaseUrl);
  await client.connect();
  const keys = [];
  try {
    for (let i = 0; i < ACCOUNTS; i++) {
      const { rows } = await client.query(`insert into accounts (name, platform) values ($1, 'zoom') returning id`, [`Bench ${i}`]);
      const id = rows[0].id;
      const key = `sk_bench${i}_${crypto.randomBytes(16).toString('hex')}`;
      // the encrypted copies are never read on this path (no GET of the keys, no webhook endpoints)
      await client.query(`insert into developer_keys (account_id, widget_key, secret_key_encrypted, secret_key_hash, webhook_secret_encrypted) values ($1, $2, 'unread', $3, 'unread')`, [id, `wk_bench${i}`, sha256(key)]);
      await client.query(`insert into app_billing (account_id, app, status) values ($1, 'one-time-passcode', 'enterprise')`, [id]);
      await client.query(`insert into sms_settings (account_id, provider, account_sid, auth_token_enc, phone_number) values ($1, 'dev-outbox', '', '', '')`, [id]);
      await client.query(`insert into api_rate_limits (account_id, per_second) values ($1, 100000)`, [id]);
      keys.push({ id, key });
    }
  } finally {
    await client.end();
  }
  return keys;
}

/** The pumping rules on for every bench account, with an allowance no bench run reaches (the cost, not a hold, is measured). */
async function guard(databaseUrl, on) {
  const client = new pg.Client(databaseUrl);
  await client.connect();
  try {
    await client.query(`insert into sms_guard_settings (account_id, allowed_countries, pumping_guard, volume_allowance)
      select account_id, array['US'], $1, 10000000 from developer_keys where widget_key like 'wk_bench%'
      on conflict (account_id) do update set pumping_guard = excluded.pumping_guard, volume_allowance = excluded.volume_allowance`, [on]);
  } finally {
    await client.end();
  }
}

let phone = 0;
/** US area codes (204 would be Canada, which the accounts do not allow) */
const US_AREAS = [201, 202, 203, 205, 206, 207, 208, 209, 210, 212];
/** a fresh number each request (five sends per number in 10 minutes are allowed), over ten ranges */
const nextPhone = () => {
  const n = phone++;
  return `+1${US_AREAS[n % US_AREAS.length]}${String(5_000_000 + Math.floor(n / US_AREAS.length)).padStart(7, '0')}`;
};

function sendRequests(url, keys) {
  let k = 0;
  return {
    url: `${url}/api/v1/otp/send`,
    connections: CONNECTIONS,
    duration: SECONDS,
    requests: [
      {
        method: 'POST',
        setupRequest: (req) => {
          const { key } = keys[k++ % keys.length];
          return { ...req, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ phoneNumber: nextPhone() }) };
        },
      },
    ],
  };
}

async function load(url, keys, pid) {
  const before = usage(pid);
  const result = await autocannon(sendRequests(url, keys));
  const after = usage(pid);
  const statuses = Object.entries(result.statusCodeStats ?? {}).filter(([code]) => code !== '201').map(([code, s]) => `${s.count} × ${code}`);
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, total: result.requests.total, non2xx: result.non2xx + result.errors, statuses, cpuUs: ((after.cpuMs - before.cpuMs) * 1000) / Math.max(1, result.requests.total) };
}

/**
 * The statements of one send, as the server sends them (the doors of /api/v1, then the three
 * transactions of sendPasscode), for pgbench with a fresh number per transaction.
 */
function sendScript(acc, keyHash) {
  const scope = `select set_config('role', 'switchboard_app', true), set_config('app.account_id', '${acc}', true);`;
  return `\\set n random(1, 1000000000)
\\set p random(200, 209)
begin;
select set_config('role', 'switchboard_app', true), set_config('app.scope', 'system', true);
select account_id from developer_keys where secret_key_hash = '${keyHash}';
commit;
begin;
${scope}
insert into api_rate_buckets as b (account_id, tokens, updated_at, allowed) values ('${acc}', 199999, now(), true)
  on conflict (account_id) do update set tokens = least(200000, b.tokens + greatest(0, extract(epoch from (now() - b.updated_at))) * 100000) - 1, allowed = true, updated_at = now() returning tokens, allowed;
commit;
begin;
${scope}
select status, credits, free_tier from app_billing where account_id = '${acc}' and app = 'one-time-passcode';
select s.provider, s.account_sid, s.auth_token_enc, s.phone_number, g.allowed_countries, g.pumping_guard from (select '${acc}'::uuid as id) a left join sms_settings s on s.account_id = a.id left join sms_guard_settings g on g.account_id = a.id;
select general, templates from app_settings where account_id = '${acc}' and app = 'one-time-passcode';
select pg_advisory_xact_lock(hashtext('${acc}:+1' || :p || :n));
select count(*)::int as n, min(ts) as oldest from otp_sends where account_id = '${acc}' and phone_number = '+1' || :p || :n and ts > now() - interval '10 minutes';
select * from otp_verifications where account_id = '${acc}' and phone_number = '+1' || :p || :n and status = 'pending' order by created_at desc limit 1 for update;
insert into otp_verifications (id, account_id, phone_number, status, code_hmac, code_encrypted, max_checks, created_at, expires_at) values (gen_random_uuid(), '${acc}', '+1' || :p || :n, 'pending', 'h', 'e', 5, now(), now() + interval '10 minutes') returning id;
insert into otp_sends (account_id, phone_number, ts) values ('${acc}', '+1' || :p || :n, now());
select status, credits, free_tier from app_billing where account_id = '${acc}' and app = 'one-time-passcode' for update;
update app_billing set credits = credits + 1, updated_at = now() where account_id = '${acc}' and app = 'one-time-passcode';
select coalesce((select name from branding where account_id = '${acc}'), (select name from accounts where id = '${acc}')) as name;
commit;
begin;
${scope}
select s.provider from (select '${acc}'::uuid as id) a left join sms_settings s on s.account_id = a.id;
insert into dev_sms_outbox (account_id, to_number, body, created_at) values ('${acc}', '+1' || :p || :n, 'Your code is 123456', now()) returning id;
commit;
begin;
${scope}
select * from otp_verifications where account_id = '${acc}' and phone_number = '+1' || :p || :n order by created_at desc limit 1 for update;
insert into task_events (account_id, app, task_id, ts, type, description, actor) values ('${acc}', 'one-time-passcode', gen_random_uuid(), now(), 'sent', 'Passcode sent', 'API key');
insert into audit_log (account_id, namespace, description, event) values ('${acc}', 'one-time-passcode', 'Passcode sent', 'otp.sent');
commit;
`;
}

async function main() {
  const name = `sb_bench_${crypto.randomBytes(5).toString('hex')}`;
  const dbUrl = new URL(ADMIN_URL);
  dbUrl.pathname = `/${name}`;
  const databaseUrl = dbUrl.toString();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-bench-'));
  const env = (url, port) => ({
    ...process.env,
    NODE_ENV: 'development',
    DATABASE_URL: url,
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    SESSION_SECRET: 'bench-session-secret-'.padEnd(64, 'x'),
    ENCRYPTION_KEY: 'bench-encryption-key-'.padEnd(64, 'y'),
    LOG_SHIPPING: 'off',
    DEV_IDP: 'false',
    WORKERS: '1',
  });
  const start = async (url) => {
    const port = await freePort();
    const profile = process.env.BENCH_PROFILE ? ['--cpu-prof', '--cpu-prof-dir', path.resolve(process.env.BENCH_PROFILE)] : [];
    const child = spawn(process.execPath, [...profile, path.join(ROOT, 'dist/server.mjs')], { env: env(url, port), cwd: ROOT, stdio: ['ignore', 'ignore', process.env.BENCH_SERVER_LOG ? 'inherit' : 'ignore'] });
    const base = `http://127.0.0.1:${port}`;
    await waitForHealth(base, child);
    return { child, base };
  };
  const stop = async (s) => {
    s?.child.kill('SIGTERM');
    await new Promise((r) => (s && s.child.exitCode === null ? s.child.once('exit', r) : r()));
  };
  await admin(`create database ${name}`);
  let server;
  try {
    execFileSync(process.execPath, [path.join(ROOT, 'dist/cli.mjs'), 'migrate'], { env: env(databaseUrl, 3999), cwd: ROOT });
    const keys = await makeAccounts(databaseUrl);

    // 1. what one send asks of the database, through the counting proxy (background work subtracted)
    const proxy = await countingProxy({ host: dbUrl.hostname, port: Number(dbUrl.port || 5432) });
    const proxied = new URL(databaseUrl);
    proxied.host = `127.0.0.1:${proxy.port}`;
    server = await start(proxied.toString());
    const send = (k) => fetch(`${server.base}/api/v1/otp/send`, { method: 'POST', headers: { authorization: `Bearer ${keys[k % ACCOUNTS].key}`, 'content-type': 'application/json' }, body: JSON.stringify({ phoneNumber: nextPhone() }) });
    for (let i = 0; i < 20; i++) await send(i); // warm-up: prepared statements, caches
    const measure = async (fn) => {
      const c0 = { ...proxy.counts };
      const t0 = performance.now();
      await fn();
      return { statements: proxy.counts.statements - c0.statements, roundTrips: proxy.counts.roundTrips - c0.roundTrips, ms: performance.now() - t0 };
    };
    const counted = {};
    for (const on of [false, true]) {
      await guard(databaseUrl, on);
      const busy = await measure(async () => {
        for (let i = 0; i < COUNTED_SENDS; i++) {
          const res = await send(i);
          if (res.status !== 201) throw new Error(`send answered ${res.status}: ${await res.text()}`);
        }
      });
      const idle = await measure(() => new Promise((r) => setTimeout(r, busy.ms)));
      counted[on ? 'on' : 'off'] = { statements: (busy.statements - idle.statements) / COUNTED_SENDS, roundTrips: (busy.roundTrips - idle.roundTrips) / COUNTED_SENDS };
    }
    await stop(server);
    await proxy.close();

    // 2. the load, guard off then on, on a server that talks to PostgreSQL directly
    server = await start(databaseUrl);
    await guard(databaseUrl, false);
    await autocannon({ ...sendRequests(server.base, keys), duration: 2 }); // warm-up
    const off = await load(server.base, keys, server.child.pid);
    await guard(databaseUrl, true);
    await autocannon({ ...sendRequests(server.base, keys), duration: 2 });
    const on = await load(server.base, keys, server.child.pid);
    await stop(server);
    server = undefined;
    const bench = pgbench(databaseUrl, sendScript(keys[0].id, sha256(keys[0].key)), { clients: CONNECTIONS > 20 ? 20 : CONNECTIONS, seconds: SECONDS });
    // pgbench as above spread over the 20 accounts would need 20 scripts; one account is its worst case (one billing row)
    const ms = (n) => `${n.toFixed(1)} ms`;
    console.log(`\nPOST /api/v1/otp/send on PostgreSQL (${os.cpus().length} cores, 1 server process, autocannon, ${CONNECTIONS} connections over ${ACCOUNTS} accounts, ${SECONDS} s each, load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}; a shared machine: figures are indicative)`);
    console.log(`  one send asks the database: ${counted.off.statements.toFixed(1)} statements in ${counted.off.roundTrips.toFixed(1)} round trips (guard on: ${counted.on.statements.toFixed(1)} in ${counted.on.roundTrips.toFixed(1)})`);
    console.log(`  guard off  ${off.rps.toFixed(0).padStart(6)} sends/s  p50 ${ms(off.p50)}  p99 ${ms(off.p99)}  server CPU ${off.cpuUs.toFixed(0)} µs/send${off.non2xx ? `  (${off.non2xx} not 201: ${off.statuses.join(', ')})` : ''}`);
    console.log(`  guard on   ${on.rps.toFixed(0).padStart(6)} sends/s  p50 ${ms(on.p50)}  p99 ${ms(on.p99)}  server CPU ${on.cpuUs.toFixed(0)} µs/send${on.non2xx ? `  (${on.non2xx} not 201: ${on.statuses.join(', ')})` : ''}`);
    console.log(`  pgbench, a send's statements  ${bench.tps.toFixed(0).padStart(6)} sends/s (20 clients, prepared, latency ${ms(bench.latency)})`);
    console.log(`  sends / pgbench  ${(off.rps / bench.tps).toFixed(2)}×  (goal ≥ 0.5×, p99 ≤ 30 ms);  guard cost ${(((off.rps - on.rps) / off.rps) * 100).toFixed(1)} % of throughput, ${(on.cpuUs - off.cpuUs).toFixed(0)} µs CPU per send (goal ≤ 10 %)`);
  } finally {
    await stop(server);
    await dropDatabase(name);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
