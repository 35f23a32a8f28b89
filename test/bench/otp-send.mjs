// The write path at volume: POST /api/v1/otp/send (development outbox) on the built server
// (dist/server.mjs, one process) on PostgreSQL, at 50 connections across 20 accounts whose rate
// limits are raised, beside pgbench running the statements one send makes. Then the same with the
// SMS fraud guard's pumping rules on: its cost per send. It also counts what one send asks of the
// database (statements and round trips) through a counting proxy. It reports; it does not fail.
//
//   node test/bench/otp-send.mjs        (after `node build.mjs`)
//   BENCH_SECONDS=10                    length of each load run
//   BENCH_ROUNDS=2                      turns of guard off / guard on
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
// turns of guard off and guard on under load
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);

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
      const { rows } = await client.query(`insert into accounts (name, platform) values ($1, 'zoom') returning id`, [
        `Bench ${i}`,
      ]);
      const id = rows[0].id;
      const key = `sk_bench${i}_${crypto.randomBytes(16).toString('hex')}`;
      // the encrypted copies are never read on this path (no GET of the keys, no webhook endpoints)
      await client.query(
        `insert into developer_keys (account_id, widget_key, secret_key_encrypted, secret_key_hash, webhook_secret_encrypted) values ($1, $2, 'unread', $3, 'unread')`,
        [id, `wk_bench${i}`, sha256(key)],
      );
      await client.query(`insert into app_billing (account_id, app, status) values ($1, 'one-time-passcode', 'enterprise')`, [
        id,
      ]);
      await client.query(
        `insert into sms_settings (account_id, provider, account_sid, auth_token_enc, phone_number) values ($1, 'dev-outbox', '', '', '')`,
        [id],
      );
      await client.query(`insert into api_rate_limits (account_id, per_second) values ($1, 100000)`, [id]);
      keys.push({ id, key });
    }
  } finally {
    await client.end();
  }
  return keys;
}

/**
 * The pumping rules on for every bench account, with the largest allowance the rules take
 * (100,000 an hour) and the conversion rule off: the cost of counting is measured, not a hold.
 * (Rules outside their schema's bounds would be ignored for the defaults, which hold at 20.)
 */
async function guard(databaseUrl, on) {
  const client = new pg.Client(databaseUrl);
  await client.connect();
  try {
    await client.query(
      `insert into sms_guard_settings (account_id, allowed_countries, pumping_guard, volume_allowance, conversion_min_percent)
      select account_id, array['US'], $1, 100000, 0 from developer_keys where widget_key like 'wk_bench%'
      on conflict (account_id) do update set pumping_guard = excluded.pumping_guard, volume_allowance = excluded.volume_allowance, conversion_min_percent = excluded.conversion_min_percent`,
      [on],
    );
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

const refused = new Set();

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
          return {
            ...req,
            headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
            body: JSON.stringify({ phoneNumber: nextPhone() }),
          };
        },
        // what a refused send said (the first few of each status)
        onResponse: (status, body) => {
          if (status !== 201 && refused.size < 10) refused.add(`${status} ${String(body).slice(0, 200)}`);
        },
      },
    ],
  };
}

async function load(url, keys, pid, rate) {
  const before = usage(pid);
  const result = await autocannon({ ...sendRequests(url, keys), ...(rate ? { overallRate: rate } : {}) });
  const after = usage(pid);
  const statuses = Object.entries(result.statusCodeStats ?? {})
    .filter(([code]) => code !== '201')
    .map(([code, s]) => `${s.count} × ${code}`);
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    total: result.requests.total,
    non2xx: result.non2xx + result.errors,
    statuses,
    cpuUs: ((after.cpuMs - before.cpuMs) * 1000) / Math.max(1, result.requests.total),
  };
}

/**
 * The statements of one send, as the server sends them (the doors of /api/v1, then sendPasscode's
 * one transaction with the development outbox; with `guard`, the pumping rules' range row and
 * count), for pgbench with a fresh number per transaction. pgbench waits for each statement: the
 * floor of one round trip per statement the server's batching is measured against. Keep it in
 * step with api/apps/one-time-passcode/service.ts and the statements it calls.
 */
function sendScript(acc, keyHash, guard) {
  const scope = `select set_config('role', 'switchboard_app', true), set_config('app.account_id', '${acc}', true);`;
  const phone = `'+1' || :p || :n`;
  const prefix = `'+1' || :p`;
  const accountSms = `(select '${acc}'::uuid as id) a left join sms_settings s on s.account_id = a.id left join sms_guard_settings g on g.account_id = a.id`;
  const pumpingOn = `coalesce(g.pumping_guard, s.provider is distinct from 'dev-outbox')`;
  return `\\set n random(1000000, 9999999)
\\set p random(201, 212)
begin;
select set_config('role', 'switchboard_app', true), set_config('app.scope', 'system', true);
select account_id from developer_keys where secret_key_hash = '${keyHash}';
commit;
begin;
${scope}
with lim as (select coalesce(l.per_second, 20)::float8 as rate, coalesce(l.per_second * 2, 40)::float8 as burst from (select 1) one left join api_rate_limits l on l.account_id = '${acc}')
insert into api_rate_buckets as b (account_id, tokens, updated_at, allowed) select '${acc}', lim.burst - 1, now(), true from lim
  on conflict (account_id) do update set tokens = least((select burst from lim), b.tokens + greatest(0, extract(epoch from (now() - b.updated_at))) * (select rate from lim)) - 1,
  allowed = true, updated_at = greatest(b.updated_at, now()) returning b.tokens, b.allowed, (select rate from lim) as rate, (select burst from lim) as burst;
commit;
begin;
${scope}
select status, credits, free_tier from app_billing where account_id = '${acc}' and app = 'one-time-passcode';
select s.provider, s.account_sid, s.auth_token_enc, s.phone_number, g.allowed_countries, g.pumping_guard, g.volume_multiplier, g.volume_allowance, g.baseline_days, g.conversion_window,
  g.conversion_min_percent, g.conversion_grace_seconds, g.hold_minutes, ${pumpingOn} as pumping_on,
  (select p.held_until from sms_guard_prefixes p where p.account_id = a.id and p.prefix = ${prefix} and p.held_until > now()) as held_until from ${accountSms};
insert into sms_guard_prefixes as p (account_id, prefix, country) select '${acc}', ${prefix}, 'US' from ${accountSms} where ${pumpingOn}
  on conflict (account_id, prefix) do update set country = excluded.country returning held_until, released_at, baseline_hourly, baseline_at;
select general, templates from app_settings where account_id = '${acc}' and app = 'one-time-passcode';
select customer_locale from accounts where id = '${acc}';
select coalesce((select name from branding where account_id = '${acc}'), (select name from accounts where id = '${acc}')) as name;
select pg_advisory_xact_lock(hashtext('${acc}:' || ${phone}));
select count(*)::int as n, min(ts) as oldest from otp_sends where account_id = '${acc}' and phone_number = ${phone} and ts > now() - interval '10 minutes';
select * from otp_verifications where account_id = '${acc}' and phone_number = ${phone} and status = 'pending' order by created_at desc limit 1 for update;
${
  guard
    ? `with ins as (insert into sms_guard_sends (account_id, prefix, phone_number, ts) values ('${acc}', ${prefix}, ${phone}, now()))
select (select count(*)::int from (select 1 from sms_guard_sends where account_id = '${acc}' and prefix = ${prefix} and ts > now() - interval '1 hour' limit 100001) x) as last_hour,
  count(*)::int as judged, (count(*) filter (where answered))::int as answered
  from (select answered from sms_guard_sends where account_id = '${acc}' and prefix = ${prefix} and ts > now() - interval '1 hour' and ts <= now() - interval '300 seconds' order by ts desc limit 30) y;
`
    : ''
}insert into otp_verifications (id, account_id, phone_number, customer_ref, agent, status, code_hmac, code_encrypted, sends, max_checks, created_at, expires_at)
  values (gen_random_uuid(), '${acc}', ${phone}, null, null, 'pending', 'hmac', 'encrypted', 1, 5, now(), now() + interval '10 minutes') returning *;
insert into otp_sends (account_id, phone_number, ts) values ('${acc}', ${phone}, now());
select status, credits, free_tier from app_billing where account_id = '${acc}' and app = 'one-time-passcode' for update;
with charged as (insert into credit_ledger (account_id, app, task_id, kind, units, ts) values ('${acc}', 'one-time-passcode', gen_random_uuid()::text, 'sms-1', 1, now())
  on conflict (account_id, app, task_id, kind) do nothing returning units),
  counted as (update app_billing b set credits = b.credits + charged.units, updated_at = now() from charged where b.account_id = '${acc}' and b.app = 'one-time-passcode')
select units as charged from charged;
insert into dev_sms_outbox (account_id, to_number, body, created_at) values ('${acc}', ${phone}, 'Your Bench code is 123456. It expires in 10 minutes.', now()) returning id;
insert into task_events (account_id, app, task_id, ts, type, description, actor, ip, user_agent) values ('${acc}', 'one-time-passcode', gen_random_uuid(), now(), 'sent', 'Passcode sent to +1 •••• •• 1234', 'API key', '127.0.0.1', 'autocannon');
insert into task_events (account_id, app, task_id, ts, type, description, actor, ip, user_agent) values ('${acc}', 'one-time-passcode', gen_random_uuid(), now(), 'language', 'Caller''s language: English (none chosen)', 'API key', '127.0.0.1', 'autocannon');
with entry as (insert into audit_log (account_id, admin_id, admin_first_name, admin_last_name, namespace, description, event, ts) values ('${acc}', null, null, null, 'one-time-passcode', 'Passcode sent to +1 •••• •• 1234', 'otp.sent', now()) returning id, ts),
  counted as (insert into audit_counts as c (account_id, count) values ('${acc}', 1) on conflict (account_id) do update set count = c.count + 1)
insert into log_outbox (account_id, destination, payload) select d.account_id, d.destination, '{}'::jsonb || jsonb_build_object('id', entry.id) from logging_destinations d, entry where d.account_id = '${acc}';
with event as (insert into webhook_events (id, account_id, app, type, payload, created_at) values (gen_random_uuid(), '${acc}', 'one-time-passcode', 'otp.sent', '{"type":"otp.sent"}'::jsonb, now()) returning id)
insert into webhook_deliveries (account_id, endpoint_id, event_id, state, next_attempt_at, created_at, updated_at)
  select account_id, w.id, event.id, 'pending', now(), now(), now() from webhook_endpoints w, event where account_id = '${acc}' and app = 'one-time-passcode' and enabled and 'otp.sent' = any(event_types);
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
    const child = spawn(process.execPath, [...profile, path.join(ROOT, 'dist/server.mjs')], {
      env: env(url, port),
      cwd: ROOT,
      stdio: ['ignore', 'ignore', process.env.BENCH_SERVER_LOG ? 'inherit' : 'ignore'],
    });
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
    const send = (k) =>
      fetch(`${server.base}/api/v1/otp/send`, {
        method: 'POST',
        headers: { authorization: `Bearer ${keys[k % ACCOUNTS].key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ phoneNumber: nextPhone() }),
      });
    for (let i = 0; i < 20; i++) await send(i); // warm-up: prepared statements, caches
    const measure = async (fn) => {
      const c0 = { ...proxy.counts };
      const t0 = performance.now();
      await fn();
      return {
        statements: proxy.counts.statements - c0.statements,
        roundTrips: proxy.counts.roundTrips - c0.roundTrips,
        ms: performance.now() - t0,
      };
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
      counted[on ? 'on' : 'off'] = {
        statements: (busy.statements - idle.statements) / COUNTED_SENDS,
        roundTrips: (busy.roundTrips - idle.roundTrips) / COUNTED_SENDS,
      };
    }
    await stop(server);
    await proxy.close();

    // 2. the load, guard off and on in turns (the machine's speed drifts: turns spread that
    // over both), on a server that talks to PostgreSQL directly
    server = await start(databaseUrl);
    const runs = { off: [], on: [] };
    const refusals = new Set();
    for (let round = 0; round < ROUNDS; round++) {
      for (const on of [false, true]) {
        await guard(databaseUrl, on);
        await autocannon({ ...sendRequests(server.base, keys), duration: 2 }); // warm-up
        runs[on ? 'on' : 'off'].push(await load(server.base, keys, server.child.pid));
        // what a refused send says, if any was
        const sample = await Promise.all(
          keys.map((k) =>
            fetch(`${server.base}/api/v1/otp/send`, {
              method: 'POST',
              headers: { authorization: `Bearer ${k.key}`, 'content-type': 'application/json' },
              body: JSON.stringify({ phoneNumber: nextPhone() }),
            }),
          ),
        );
        for (const res of sample) if (res.status !== 201) refusals.add(`${res.status} ${(await res.text()).slice(0, 160)}`);
      }
    }
    // Latency at 50 connections flat out is queueing: Little's law puts the mean at 50 / (sends
    // per second). What a caller sees below capacity: a fixed rate of half the measured one.
    const offRate = runs.off.reduce((a, r) => a + r.rps, 0) / ROUNDS;
    const paced = {};
    for (const on of [false, true]) {
      await guard(databaseUrl, on);
      paced[on ? 'on' : 'off'] = await load(server.base, keys, server.child.pid, Math.max(1, Math.round(offRate / 2)));
    }
    await stop(server);
    server = undefined;
    const clients = Math.min(CONNECTIONS, 20);
    await guard(databaseUrl, false);
    const bench = pgbench(
      databaseUrl,
      keys.map((k) => sendScript(k.id, sha256(k.key), false)),
      { clients, seconds: SECONDS },
    );
    await guard(databaseUrl, true);
    const benchOn = pgbench(
      databaseUrl,
      keys.map((k) => sendScript(k.id, sha256(k.key), true)),
      { clients, seconds: SECONDS },
    );
    const ms = (n) => `${n.toFixed(1)} ms`;
    const sum = (list, f) => list.reduce((a, r) => a + f(r), 0);
    const mean = (list, f) => sum(list, f) / list.length;
    const line = (label, r) =>
      `  ${label}  ${r.rps.toFixed(0).padStart(6)} sends/s  p50 ${ms(r.p50)}  p99 ${ms(r.p99)}  server CPU ${r.cpuUs.toFixed(0)} µs/send${r.non2xx ? `  (${r.non2xx} not 201: ${r.statuses.join(', ')})` : ''}`;
    console.log(
      `\nPOST /api/v1/otp/send on PostgreSQL (${os.cpus().length} cores, 1 server process, autocannon, ${CONNECTIONS} connections over ${ACCOUNTS} accounts, ${SECONDS} s each, ${ROUNDS} rounds, load average ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}; a shared machine: figures are indicative)`,
    );
    console.log(
      `  one send asks the database: ${counted.off.statements.toFixed(1)} statements in ${counted.off.roundTrips.toFixed(1)} round trips (guard on: ${counted.on.statements.toFixed(1)} in ${counted.on.roundTrips.toFixed(1)})`,
    );
    for (let round = 0; round < ROUNDS; round++) {
      console.log(line(`round ${round + 1}, guard off`, runs.off[round]));
      console.log(line(`round ${round + 1}, guard on `, runs.on[round]));
    }
    console.log(line(`at ${Math.round(offRate / 2)} sends/s, guard off`, paced.off));
    console.log(line(`at ${Math.round(offRate / 2)} sends/s, guard on `, paced.on));
    for (const r of new Set([...refusals, ...refused])) console.log(`  refused: ${r}`);
    const offRps = mean(runs.off, (r) => r.rps);
    const onRps = mean(runs.on, (r) => r.rps);
    console.log(
      `  pgbench, a send's statements, guard off  ${bench.tps.toFixed(0).padStart(6)} sends/s (${clients} clients, prepared, one script per account, latency ${ms(bench.latency)}, p99 ${ms(bench.p99)}: PostgreSQL's own)`,
    );
    console.log(`  pgbench, a send's statements, guard on   ${benchOn.tps.toFixed(0).padStart(6)} sends/s`);
    console.log(
      `  sends / pgbench  ${(offRps / bench.tps).toFixed(2)}× guard off, ${(onRps / benchOn.tps).toFixed(2)}× guard on  (goal ≥ 0.5×; p99 goal ≤ 30 ms: worst ${ms(Math.max(...runs.off.map((r) => r.p99)))} off, ${ms(Math.max(...runs.on.map((r) => r.p99)))} on)`,
    );
    console.log(
      `  guard cost  ${(((offRps - onRps) / offRps) * 100).toFixed(1)} % of throughput (mean of the rounds), ${(mean(runs.on, (r) => r.cpuUs) - mean(runs.off, (r) => r.cpuUs)).toFixed(0)} µs of server CPU per send (${(((mean(runs.on, (r) => r.cpuUs) - mean(runs.off, (r) => r.cpuUs)) / mean(runs.off, (r) => r.cpuUs)) * 100).toFixed(1)} %); pgbench's own: ${(((bench.tps - benchOn.tps) / bench.tps) * 100).toFixed(1)} % (goal ≤ 10 %)`,
    );
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
