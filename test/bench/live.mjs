// Live updates benchmark (docs/live-updates.md): the built server (dist/server.mjs), two processes
// on one fresh PostgreSQL database. It reports; it does not fail.
//
//   node test/bench/live.mjs            (after `node build.mjs`)
//   LIVE_BENCH_STREAMS=5000             open streams for the memory / idle CPU figure
//   LIVE_BENCH_FANOUT_STREAMS=1000      streams (over 50 accounts) for the fan-out figure
//   LIVE_BENCH_RATE=100                 task changes per second for the fan-out figure
//   LIVE_BENCH_SUBMITS=20               customer submits timed for the submit-to-panel figure
//   LIVE_BENCH_ONLY=5                   run only these figures (comma-separated numbers)
//   LIVE_BENCH_HOSTILE_ROWS=50000       change rows in the window for the hostile figure
//
// The streams keep within the server's caps (20 per session, 1,000 per account per process):
// figure 2 opens its 5,000 streams as 250 sessions of 5 accounts, figure 4 its 100 as 5 sessions.
//
// 1. submit to panel: the customer submits a form on process A; a stream on process B gets the
//    task's change and reads the task's status from B (what the agent's panel does). p50/p95.
// 2. 5,000 open streams on B: B's resident memory per stream, and B's CPU while they sit idle.
// 3. 100 task changes per second (inserted into the task table, so the real triggers run) to
//    1,000 streams of 50 accounts on B: delivery latency p50/p95 and B's CPU.
// 4. reconnect: 100 streams behind a front that prefers B; B is killed with SIGKILL; time until
//    each stream is back (on A, resumed with Last-Event-ID) and whether a change made meanwhile reached it.
// 5. hostile: one signed-in user opens 30 streams on B with Last-Event-ID 0 over 50,000 change
//    rows in the window, each leaving after 1.5 s, three rounds. B's memory 10 s after the last
//    round against before (target: within 50 MB), and another account's simple reads on B during
//    the rounds against a quiet run (target: p99 within 2x).
import { spawn, execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { SignJWT } from 'jose';
import pg from 'pg';

const ROOT = path.resolve('.');
const ADMIN_URL = process.env.TEST_POSTGRES_URL ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const STREAMS = Number(process.env.LIVE_BENCH_STREAMS ?? 5000);
const FANOUT_STREAMS = Number(process.env.LIVE_BENCH_FANOUT_STREAMS ?? 1000);
const RATE = Number(process.env.LIVE_BENCH_RATE ?? 100);
const ACCOUNTS = 50;
const SUBMITS = Number(process.env.LIVE_BENCH_SUBMITS ?? 20);
const IDLE_SECONDS = Number(process.env.LIVE_BENCH_IDLE_SECONDS ?? 25);
const SECRET = crypto.randomBytes(32).toString('hex');
const ONLY = process.env.LIVE_BENCH_ONLY ? new Set(process.env.LIVE_BENCH_ONLY.split(',').map(Number)) : null;
const runs = (figure) => !ONLY || ONLY.has(figure);
const HOSTILE_ROWS = Number(process.env.LIVE_BENCH_HOSTILE_ROWS ?? 50_000);

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const pct = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : NaN;
};
const ms = (n) => `${n.toFixed(1)} ms`;

async function freePort() {
  return new Promise((resolve) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/** CPU seconds (user + system) and resident memory of a process, from /proc. */
function usage(pid) {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  const ticks = os.constants?.CLK_TCK ?? 100;
  const cpu = (Number(stat[11]) + Number(stat[12])) / ticks;
  const rss = Number(fs.readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+)/)[1]) * 1024;
  return { cpu, rss };
}

async function startServer(env) {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-live-bench-'));
  const full = {
    PATH: process.env.PATH,
    HOME: os.tmpdir(),
    NODE_ENV: 'development',
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: dataDir,
    AUTO_SEED: 'false',
    DEV_IDP: 'false',
    LOG_SHIPPING: 'off',
    SESSION_SECRET: SECRET,
    ENCRYPTION_KEY: SECRET,
    ...env,
  };
  const child = spawn(process.execPath, [path.join(ROOT, 'dist/server.mjs')], {
    env: full,
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let errors = '';
  child.stderr.on('data', (d) => (errors += d));
  const url = `http://127.0.0.1:${port}`;
  for (const until = Date.now() + 60_000; ; ) {
    if (child.exitCode !== null) throw new Error(`server exited: ${errors}`);
    if (
      await fetch(`${url}/api/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    if (Date.now() > until) throw new Error('server did not start');
    await sleep(150);
  }
  return { url, port, child, env: full, errors: () => errors };
}

/**
 * A stream read with node:http (one socket each, as a browser tab holds one). onChange gets each
 * change; the stream reopens itself with Last-Event-ID when `reconnect` is set.
 */
function openStream(
  port,
  token,
  {
    onChange = () => {},
    onReady = () => {},
    onStatus = () => {},
    onReset = () => {},
    reconnect = false,
    retryMs = 500,
    lastEventId = null,
  } = {},
) {
  let lastId = lastEventId;
  let closed = false;
  let req = null;
  const state = { reconnects: 0 };
  const connect = () => {
    const headers = { authorization: `Bearer ${token}`, accept: 'text/event-stream' };
    if (lastId) headers['last-event-id'] = lastId;
    req = http.get(
      { host: '127.0.0.1', port: typeof port === 'function' ? port() : port, path: '/api/live', headers, agent: false },
      (res) => {
        onStatus(res.statusCode);
        let buffer = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => {
          buffer += chunk;
          for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const fields = Object.fromEntries(
              block
                .split('\n')
                .filter((l) => !l.startsWith(':'))
                .map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 2)]),
            );
            if (fields.event === 'ready') {
              if (fields.id) lastId = fields.id;
              onReady(state);
            }
            if (fields.event === 'change') {
              lastId = fields.id;
              onChange(JSON.parse(fields.data));
            }
            if (fields.event === 'reset') {
              if (fields.id) lastId = fields.id;
              onReset();
            }
          }
        });
        res.on('close', again);
      },
    );
    req.on('error', again);
  };
  let pending = false;
  function again() {
    if (closed || !reconnect || pending) return;
    pending = true;
    state.reconnects++;
    setTimeout(
      () => {
        pending = false;
        connect();
      },
      retryMs * (0.75 + Math.random() / 2),
    );
  }
  connect();
  return {
    close() {
      closed = true;
      req?.destroy();
    },
  };
}

async function main() {
  const dbName = `sb_live_bench_${crypto.randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`create database ${dbName}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${dbName}`;
  const dbUrl = url.toString();
  const servers = [];
  const db = new pg.Client({ connectionString: dbUrl });
  try {
    const a = await startServer({ DATABASE_URL: dbUrl });
    servers.push(a);
    execFileSync(process.execPath, [path.join(ROOT, 'dist/cli.mjs'), 'seed'], {
      env: a.env,
      cwd: ROOT,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const b = await startServer({ DATABASE_URL: dbUrl });
    servers.push(b);
    await db.connect();
    const key = crypto.createSecretKey(Buffer.from(SECRET, 'utf8'));
    /** a session row and its token, as sign-in makes them */
    const tokenFor = async (email) => {
      const adminRow = (await db.query(`select id, account_id, role, is_root from admins where email = $1`, [email])).rows[0];
      const sid = (
        await db.query(
          `insert into sessions (account_id, admin_id, expires_at) values ($1, $2, now() + interval '4 hours') returning id`,
          [adminRow.account_id, adminRow.id],
        )
      ).rows[0].id;
      const iat = Math.floor(Date.now() / 1000);
      return new SignJWT({
        sid,
        sub: adminRow.id,
        acc: adminRow.account_id,
        role: adminRow.role,
        root: adminRow.is_root,
        ghost: false,
        email,
      })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setIssuer('switchboard')
        .setAudience('switchboard-console')
        .setSubject(adminRow.id)
        .setIssuedAt(iat)
        .setExpirationTime(iat + 4 * 3600)
        .sign(key);
    };
    const owner = await tokenFor('owner@acme.test');
    const acme = (await db.query(`select account_id from admins where email = 'owner@acme.test'`)).rows[0].account_id;
    const api = async (server, method, p, body) => {
      const res = await fetch(`${server.url}/api${p}`, {
        method,
        headers: { authorization: `Bearer ${owner}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return res.json();
    };
    console.log(
      `Live updates benchmark: ${os.cpus().length} cores (${os.cpus()[0].model}), load average ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')} at start, ${new Date().toISOString()}`,
    );

    // 50 accounts, each with an owner (figures 2 and 3)
    const accounts = [acme];
    const owners = ['owner@acme.test'];
    const tokens = [owner];
    if (runs(2) || runs(3)) {
      for (let i = accounts.length; i < ACCOUNTS; i++) {
        const acc = (await db.query(`insert into accounts (name) values ($1) returning id`, [`Bench ${i}`])).rows[0].id;
        await db.query(`insert into admins (account_id, email, role, first_name) values ($1, $2, 'owner', 'Bench')`, [
          acc,
          `owner${i}@bench.test`,
        ]);
        accounts.push(acc);
        owners.push(`owner${i}@bench.test`);
        tokens.push(await tokenFor(`owner${i}@bench.test`));
      }
    }

    // 1. submit to panel
    if (runs(1)) {
      await api(a, 'POST', '/sms', { provider: 'dev-outbox' });
      const form = await api(a, 'POST', '/e-form/forms', {
        definition: {
          title: 'Bench form',
          hiddenFields: [],
          fields: [{ id: 'name', type: 'short_text', label: 'Full name', required: true }],
        },
      });
      await api(a, 'POST', `/e-form/forms/${form.id}/publish`, {});
      const waiting = new Map();
      const panel = openStream(b.port, owner, { onChange: (c) => c.kind === 'task' && waiting.get(c.ref)?.(c) });
      await sleep(500);
      const submitToPanel = [];
      for (let i = 0; i < SUBMITS; i++) {
        const phone = `+1555020${String(1000 + i)}`;
        const sent = await api(a, 'POST', '/e-form/actions/send', { input: { form: 'Bench form', phoneNumber: phone } });
        const outbox = await api(a, 'GET', '/dev/sms-outbox');
        const link = new URL(outbox.find((m) => m.to === phone).body.match(/https?:\/\/\S+/)[0]).pathname;
        await fetch(`${a.url}${link}`).then((r) => r.text());
        // the "opened" change must not be taken for the submit's
        await sleep(300);
        const body = new FormData();
        body.append('name', 'Bench');
        const shown = new Promise((resolve) => waiting.set(sent.taskId, resolve));
        const t0 = performance.now();
        const submitted = fetch(`${a.url}${link}`, { method: 'POST', body }).then((r) => r.text());
        await shown;
        const status = await fetch(`${b.url}/api/e-form/tasks/${sent.taskId}/status`, {
          headers: { authorization: `Bearer ${owner}` },
        }).then((r) => r.json());
        submitToPanel.push(performance.now() - t0);
        waiting.delete(sent.taskId);
        await submitted;
        if (status.status !== 'submitted')
          console.log(`  (iteration ${i}: the panel read ${status.status}; the change came before the answer was read)`);
      }
      panel.close();
      console.log(
        `1. customer submit on A -> panel on B (change + status read), ${submitToPanel.length} submits: p50 ${ms(pct(submitToPanel, 50))}, p95 ${ms(pct(submitToPanel, 95))}, max ${ms(Math.max(...submitToPanel))}`,
      );
    }

    // 2. many open streams on B, within the caps: 1,000 per account (5 accounts), 20 per session
    if (runs(2)) {
      await sleep(1000);
      const before = usage(b.child.pid);
      const many = [];
      let ready = 0;
      let session = null;
      for (let i = 0; i < STREAMS; i++) {
        if (i % 20 === 0) session = await tokenFor(owners[Math.floor(i / 1000) % owners.length]);
        many.push(openStream(b.port, session, { onReady: () => ready++ }));
        if (i % 200 === 199) await sleep(50);
      }
      for (const until = Date.now() + 120_000; ready < STREAMS && Date.now() < until; ) await sleep(200);
      await sleep(2000);
      const opened = usage(b.child.pid);
      await sleep(IDLE_SECONDS * 1000);
      const idle = usage(b.child.pid);
      console.log(
        `2. ${ready} open streams on B (${Math.ceil(STREAMS / 1000)} accounts, 20 per session): resident memory +${((opened.rss - before.rss) / 1024 / 1024).toFixed(1)} MB (${((opened.rss - before.rss) / ready / 1024).toFixed(1)} KB per stream); CPU while idle for ${IDLE_SECONDS} s (heartbeats every 20 s): ${(((idle.cpu - opened.cpu) / IDLE_SECONDS) * 100).toFixed(2)}% of one core`,
      );
      for (const s of many) s.close();
      await sleep(2000);
    }

    // 3. fan-out: 50 accounts, 1,000 streams (20 a session), 100 task changes per second
    if (runs(3)) {
      const sentAt = new Map();
      const latencies = [];
      let fanReady = 0;
      const fan = [];
      for (let i = 0; i < FANOUT_STREAMS; i++) {
        fan.push(
          openStream(b.port, tokens[i % ACCOUNTS], {
            onReady: () => fanReady++,
            onChange: (c) => c.kind === 'task' && sentAt.has(c.ref) && latencies.push(performance.now() - sentAt.get(c.ref)),
          }),
        );
      }
      for (const until = Date.now() + 60_000; fanReady < FANOUT_STREAMS && Date.now() < until; ) await sleep(200);
      await sleep(1000);
      const seconds = 15;
      const writer = new pg.Pool({ connectionString: dbUrl, max: 8 });
      const fanStart = usage(b.child.pid);
      const startedAt = performance.now();
      let made = 0;
      const inserts = [];
      while (performance.now() - startedAt < seconds * 1000) {
        const due = Math.floor(((performance.now() - startedAt) / 1000) * RATE);
        while (made < due) {
          const id = crypto.randomUUID();
          const account = accounts[made % ACCOUNTS];
          sentAt.set(id, performance.now());
          inserts.push(
            writer.query(
              `insert into otp_verifications (id, account_id, phone_number, agent, status, code_hmac, code_encrypted, max_checks, created_at, expires_at)
          values ($1, $2, '+15550300000', 'bench', 'pending', 'x', 'x', 5, now(), now() + interval '10 minutes')`,
              [id, account],
            ),
          );
          made++;
        }
        await sleep(5);
      }
      await Promise.all(inserts);
      await sleep(2000);
      const fanEnd = usage(b.child.pid);
      const expected = made * (FANOUT_STREAMS / ACCOUNTS);
      console.log(
        `3. ${made} task changes in ${seconds} s (${RATE}/s) to ${fanReady} streams of ${ACCOUNTS} accounts: ${latencies.length} of ${expected} deliveries, commit-to-stream p50 ${ms(pct(latencies, 50))}, p95 ${ms(pct(latencies, 95))}; B's CPU ${(((fanEnd.cpu - fanStart.cpu) / (seconds + 2)) * 100).toFixed(1)}% of one core`,
      );
      for (const s of fan) s.close();
      await writer.end();
    }

    // 5. hostile: 30 streams of one session resuming from 0 over 50,000 rows, leaving after 1.5 s, three rounds
    if (runs(5)) {
      const globex = await tokenFor('owner@globex.test');
      const read = async () => {
        const t0 = performance.now();
        const res = await fetch(`${b.url}/api/admins`, { headers: { authorization: `Bearer ${globex}` } });
        await res.arrayBuffer();
        return performance.now() - t0;
      };
      for (let i = 0; i < 20; i++) await read();
      const quiet = [];
      for (let i = 0; i < 300; i++) quiet.push(await read());
      // the window's rows, made over its last nine minutes (older than the feed's 30 s settling time)
      await db.query(
        `insert into live_events (account_id, kind, app, created_at) select $1, 'tasks', 'one-time-passcode', now() - interval '9 minutes' + n * interval '8 minutes' / $2
        from generate_series(1, $2) n`,
        [acme, HOSTILE_ROWS],
      );
      const hostile = await tokenFor('owner@acme.test');
      await sleep(2000);
      const before = usage(b.child.pid);
      const busy = [];
      let reading = true;
      const reader = (async () => {
        while (reading) busy.push(await read());
      })();
      const statuses = {};
      let resets = 0;
      let changes = 0;
      const peaks = [];
      for (let round = 0; round < 3; round++) {
        const clients = [];
        for (let i = 0; i < 30; i++)
          clients.push(
            openStream(b.port, hostile, {
              lastEventId: '0',
              onStatus: (code) => (statuses[code] = (statuses[code] ?? 0) + 1),
              onReset: () => resets++,
              onChange: () => changes++,
            }),
          );
        await sleep(1500);
        for (const c of clients) c.close();
        peaks.push(usage(b.child.pid).rss);
        await sleep(500);
      }
      reading = false;
      await reader;
      const ended = usage(b.child.pid);
      await sleep(10_000);
      const after = usage(b.child.pid);
      const mb = (n) => `${(n / 1024 / 1024).toFixed(1)} MB`;
      console.log(
        `5. hostile: 3 rounds of 30 streams (one session) resuming from 0 over ${HOSTILE_ROWS} rows, each leaving after 1.5 s: answers ${JSON.stringify(statuses)}, ${resets} resets, ${changes} changes replayed`,
      );
      console.log(
        `   B's memory ${mb(before.rss)} before, ${peaks.map(mb).join(' / ')} after each round, ${mb(after.rss)} 10 s after (${after.rss - before.rss >= 0 ? '+' : ''}${mb(after.rss - before.rss)}; target within 50 MB); B's CPU in those 10 s ${(((after.cpu - ended.cpu) / 10) * 100).toFixed(1)}% of one core`,
      );
      console.log(
        `   Globex's GET /api/admins on B: quiet p50 ${ms(pct(quiet, 50))}, p99 ${ms(pct(quiet, 99))} (${quiet.length}); during the rounds p50 ${ms(pct(busy, 50))}, p99 ${ms(pct(busy, 99))} (${busy.length}); p99 ratio ${(pct(busy, 99) / pct(quiet, 99)).toFixed(2)} (target <= 2)`,
      );
    }

    // 4. reconnect after SIGKILL, through a front that prefers B
    if (runs(4)) {
      let bAlive = true;
      const front = http.createServer((req, res) => {
        const attempt = (ports) => {
          const up = http.request(
            { host: '127.0.0.1', port: ports[0], method: req.method, path: req.url, headers: req.headers },
            (answer) => {
              res.writeHead(answer.statusCode, answer.headers);
              answer.pipe(res);
              answer.on('aborted', () => res.destroy());
            },
          );
          up.on('error', () => (ports.length > 1 && !res.headersSent ? attempt(ports.slice(1)) : res.destroy()));
          res.on('close', () => up.destroy());
          up.end();
        };
        attempt(bAlive ? [b.port, a.port] : [a.port]);
      });
      const frontPort = await freePort();
      await new Promise((r) => front.listen(frontPort, '127.0.0.1', r));
      const N = 100;
      let back = 0;
      const backAt = [];
      let killedAt = 0;
      const gotMissed = new Set();
      let missedId = null;
      const tabs = [];
      let tabsReady = 0;
      const sessions = [];
      for (let i = 0; i < N / 20; i++) sessions.push(await tokenFor('owner@acme.test'));
      for (let i = 0; i < N; i++) {
        tabs.push(
          openStream(frontPort, sessions[Math.floor(i / 20)], {
            reconnect: true,
            onReady: (state) => {
              if (state.reconnects === 0) tabsReady++;
              else if (killedAt) {
                back++;
                backAt.push(performance.now() - killedAt);
              }
            },
            onChange: (c) => c.ref === missedId && gotMissed.add(i),
          }),
        );
      }
      for (const until = Date.now() + 30_000; tabsReady < N && Date.now() < until; ) await sleep(100);
      bAlive = false;
      killedAt = performance.now();
      b.child.kill('SIGKILL');
      // a change while the tabs have no stream
      missedId = crypto.randomUUID();
      await db.query(
        `insert into otp_verifications (id, account_id, phone_number, agent, status, code_hmac, code_encrypted, max_checks, created_at, expires_at)
      values ($1, $2, '+15550300001', 'bench', 'pending', 'x', 'x', 5, now(), now() + interval '10 minutes')`,
        [missedId, acme],
      );
      for (const until = Date.now() + 30_000; (back < N || gotMissed.size < N) && Date.now() < until; ) await sleep(100);
      console.log(
        `4. ${N} tabs, B killed with SIGKILL: ${back} back on A, kill-to-ready p50 ${ms(pct(backAt, 50))}, p95 ${ms(pct(backAt, 95))} (client back-off 500 ms ±25%); ${gotMissed.size} of ${N} got the change made while they were away`,
      );
      for (const t of tabs) t.close();
      await new Promise((r) => front.close(r));
    }
    console.log(
      `load average at end ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
  } finally {
    for (const s of servers) if (s.child.exitCode === null) s.child.kill('SIGKILL');
    await db.end().catch(() => {});
    await sleep(500);
    await admin.query(`drop database if exists ${dbName} with (force)`).catch(() => {});
    await admin.end();
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
