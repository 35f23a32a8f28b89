// What metrics, logs and traces cost: three servers of the same build on one PostgreSQL database,
// loaded in turn (alternated, several rounds, one run) by autocannon at 50 connections:
//   off      LOG_LEVEL=silent, no METRICS_PORT, no OTEL_EXPORTER_OTLP_ENDPOINT
//   default  LOG_LEVEL=info (stdout to /dev/null), METRICS_PORT, traces to a loopback OTLP receiver at 10 %
//   full     the same, every trace sampled (OTEL_TRACES_SAMPLER_ARG=1)
// for the bootstrap (GET /api/admins/bootstrap) and the One-Time Passcode send (POST, each to its
// own number, development outbox). Reports each configuration's requests per second and the
// server's CPU time per answer, each as a ratio of off's in the same rounds; it does not fail.
//
//   node test/bench/observability.mjs   (after `node build.mjs`)
//   BENCH_SECONDS=5 BENCH_ROUNDS=3
//   BENCH_CONFIGS=off,logs,metrics,traces,default,full   which servers (off always first; default: off,default,full);
//     logs, metrics and traces are one of the defaults' parts alone, to see which costs what
//   BENCH_ROUTES=bootstrap   only these routes (bootstrap, otp)
//   BENCH_PROFILE=dir        each server writes a CPU profile (--cpu-prof) into dir on its way out
import { spawn, execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { ADMIN_URL, admin, dropDatabase, freePort, usage, waitForHealth } from './server-support.mjs';

const ROOT = path.resolve('.');
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = 50;

async function main() {
  const name = `sb_bench_obs_${crypto.randomBytes(4).toString('hex')}`;
  const dbUrl = new URL(ADMIN_URL);
  dbUrl.pathname = `/${name}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-bench-obs-'));
  const env = {
    ...process.env,
    NODE_ENV: 'development',
    DATABASE_URL: dbUrl.toString(),
    DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    SESSION_SECRET: crypto.randomBytes(32).toString('hex'),
    ENCRYPTION_KEY: crypto.randomBytes(32).toString('hex'),
    LOG_SHIPPING: 'off',
    DEV_IDP: 'false',
    DEV_STRIPE: 'false',
  };
  const cli = (...args) =>
    execFileSync(process.execPath, [path.join(ROOT, 'dist/cli.mjs'), ...args], { env, cwd: ROOT, encoding: 'utf8' });
  // the loopback OTLP receiver: takes every batch, answers 200
  let spanBytes = 0;
  const receiver = http.createServer((req, res) => {
    req.on('data', (c) => (spanBytes += c.length));
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
  });
  await new Promise((r) => receiver.listen(0, '127.0.0.1', r));
  const otlp = `http://127.0.0.1:${receiver.address().port}`;
  await admin(`create database ${name}`);
  const servers = [];
  try {
    cli('seed');
    const link = cli('link', 'owner@acme.test').trim().split('\n').pop();
    const token = decodeURIComponent(new URL(link).searchParams.get('token'));
    const headers = { authorization: `Bearer ${token}` };
    // every port distinct before any is bound (freePort hands back a port it has just released)
    const ports = new Set();
    while (ports.size < 12) ports.add(await freePort());
    const serverPorts = [...ports];
    const metricsPorts = serverPorts.splice(0, 3);
    const all = {
      off: { LOG_LEVEL: 'silent' },
      logs: { LOG_LEVEL: 'info' },
      metrics: { LOG_LEVEL: 'silent', METRICS_PORT: String(metricsPorts.shift()) },
      traces: { LOG_LEVEL: 'silent', OTEL_EXPORTER_OTLP_ENDPOINT: otlp, OTEL_TRACES_SAMPLER_ARG: '0.1' },
      default: {
        LOG_LEVEL: 'info',
        METRICS_PORT: String(metricsPorts.shift()),
        OTEL_EXPORTER_OTLP_ENDPOINT: otlp,
        OTEL_TRACES_SAMPLER_ARG: '0.1',
      },
      full: {
        LOG_LEVEL: 'info',
        METRICS_PORT: String(metricsPorts.shift()),
        OTEL_EXPORTER_OTLP_ENDPOINT: otlp,
        OTEL_TRACES_SAMPLER_ARG: '1',
      },
    };
    const chosen = ['off', ...(process.env.BENCH_CONFIGS ?? 'default,full').split(',').filter((l) => l && l !== 'off')];
    for (const label of chosen)
      if (!all[label]) throw new Error(`BENCH_CONFIGS: no configuration ${label} (${Object.keys(all).join(', ')})`);
    const profile = process.env.BENCH_PROFILE ? ['--cpu-prof', '--cpu-prof-dir', path.resolve(process.env.BENCH_PROFILE)] : [];
    for (const label of chosen) {
      const port = serverPorts.shift();
      const node = [
        ...profile,
        ...(profile.length ? ['--cpu-prof-name', `${label}.cpuprofile`] : []),
        path.join(ROOT, 'dist/server.mjs'),
      ];
      const child = spawn(process.execPath, node, {
        env: { ...env, ...all[label], PORT: String(port) },
        cwd: ROOT,
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      servers.push({ label, child, url: `http://127.0.0.1:${port}` });
      await waitForHealth(`http://127.0.0.1:${port}`, child);
    }
    const sms = await fetch(`${servers[0].url}/api/sms`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ provider: 'dev-outbox' }),
    });
    if (sms.status !== 200) throw new Error(`could not choose the development outbox: ${sms.status}`);

    let phone = 0;
    const routes = {
      bootstrap: (url) => ({ url: `${url}/api/admins/bootstrap`, headers }),
      'otp send': (url) => ({
        url: `${url}/api/one-time-passcode/actions/send`,
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        // each send to its own number (one number takes 5 sends in 10 minutes)
        requests: [
          {
            setupRequest: (req) => ({
              ...req,
              body: JSON.stringify({ input: { phoneNumber: `+1202${String(1_000_000 + phone++).slice(-7)}` } }),
            }),
          },
        ],
      }),
    };
    const only = process.env.BENCH_ROUTES?.split(',');
    if (only) for (const route of Object.keys(routes)) if (!only.some((o) => route.startsWith(o))) delete routes[route];
    const results = {};
    // the server's CPU per answer: on a machine shared with other work the rate swings, this much less
    const cpu = {};
    for (const [route, make] of Object.entries(routes)) {
      results[route] = Object.fromEntries(servers.map((s) => [s.label, []]));
      cpu[route] = Object.fromEntries(servers.map((s) => [s.label, []]));
      for (let round = 0; round < ROUNDS; round++) {
        for (const s of servers) {
          const before = usage(s.child.pid);
          const r = await autocannon({ ...make(s.url), connections: CONNECTIONS, duration: SECONDS });
          const ok = r['2xx'];
          results[route][s.label].push(ok / SECONDS);
          cpu[route][s.label].push([usage(s.child.pid).cpuMs - before.cpuMs, ok]);
          if (r.non2xx || r.errors) console.error(`${route} ${s.label}: ${r.non2xx} non-2xx, ${r.errors} errors`);
        }
      }
    }
    console.log(
      `observability cost, ${ROUNDS} alternated rounds of ${SECONDS} s, ${CONNECTIONS} connections (autocannon), one run; ratios against off in the same rounds`,
    );
    for (const [route, byLabel] of Object.entries(results)) {
      const sum = (xs) => xs.reduce((a, b) => a + b, 0);
      const off = sum(byLabel.off);
      const line = Object.entries(byLabel).map(
        ([label, xs]) =>
          `${label} ${Math.round(sum(xs) / xs.length)} req/s (${(sum(xs) / off).toFixed(3)}×; rounds ${xs.map((x, i) => (x / byLabel.off[i]).toFixed(2)).join(' ')})`,
      );
      console.log(`  ${route}: ${line.join(', ')}`);
      const perAnswer = (label) =>
        (sum(cpu[route][label].map(([ms]) => ms)) * 1000) / Math.max(1, sum(cpu[route][label].map(([, n]) => n)));
      console.log(
        `  ${route} server CPU per answer: ${Object.keys(byLabel)
          .map((label) => `${label} ${Math.round(perAnswer(label))} us (${(perAnswer(label) / perAnswer('off')).toFixed(3)}×)`)
          .join(', ')}`,
      );
    }
    console.log(`  spans received: ${(spanBytes / 1024).toFixed(0)} KB of OTLP JSON`);
  } finally {
    for (const s of servers) s.child.kill('SIGTERM');
    await Promise.all(servers.map((s) => new Promise((r) => (s.child.exitCode !== null ? r() : s.child.once('exit', r)))));
    receiver.close();
    await dropDatabase(name);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
