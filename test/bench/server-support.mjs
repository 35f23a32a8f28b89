// What the HTTP benchmarks share: a free port, the PostgreSQL superuser, the server's health,
// its CPU time from /proc, and pgbench running a script beside it.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

export const ADMIN_URL = process.env.TEST_POSTGRES_URL ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const PGBENCH = process.env.PGBENCH ?? '/usr/lib/postgresql/15/bin/pgbench';
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);

export const freePort = () =>
  new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

export async function admin(sql) {
  const client = new pg.Client(ADMIN_URL);
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

export async function waitForHealth(url, child) {
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error('the server exited before answering');
    try {
      if ((await fetch(`${url}/api/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the server did not answer /api/health within 30 s');
}

/** CPU time (user + system, ms) and resident memory (MB) of a process and its workers, from /proc. */
export function usage(pid) {
  let cpuMs = 0;
  let sysMs = 0;
  let rssMb = 0;
  for (const p of [pid, ...childrenOf(pid)]) {
    try {
      const stat = fs.readFileSync(`/proc/${p}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      cpuMs += (Number(f[11]) + Number(f[12])) * 10;
      sysMs += Number(f[12]) * 10;
      rssMb += Number(/VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${p}/status`, 'utf8'))?.[1] ?? NaN) / 1024;
    } catch {
      // exited meanwhile
    }
  }
  return { cpuMs, sysMs, rssMb };
}

function childrenOf(pid) {
  const out = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid) out.push(Number(entry));
    } catch {
      // gone
    }
  }
  return out;
}

/**
 * pgbench running `script` (or several scripts, each picked at random per transaction, e.g. one
 * per account) for `seconds`, prepared statements (`protocol`: 'extended' behind a transaction
 * pooler, which keeps none): transactions per second and mean latency.
 */
export function pgbench(databaseUrl, script, { clients = 10, seconds = SECONDS, protocol = 'prepared' } = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-bench-'));
  const files = (Array.isArray(script) ? script : [script]).map((text, i) => {
    const file = path.join(dir, `script-${i}.sql`);
    fs.writeFileSync(file, text);
    return file;
  });
  try {
    // -l: every transaction's latency (third field, µs) in a log per thread, for the p99
    const out = execFileSync(
      PGBENCH,
      [
        '-n',
        '-M',
        protocol,
        '-c',
        String(clients),
        '-j',
        '2',
        '-T',
        String(seconds),
        '-l',
        `--log-prefix=${path.join(dir, 'log')}`,
        ...files.flatMap((f) => ['-f', f]),
        databaseUrl,
      ],
      { encoding: 'utf8' },
    );
    const tps = Number(out.match(/tps = ([\d.]+) \(without initial connection time\)/)?.[1]);
    const latency = Number(out.match(/latency average = ([\d.]+) ms/)?.[1]);
    const latencies = fs
      .readdirSync(dir)
      .filter((f) => f.startsWith('log'))
      .flatMap((f) =>
        fs
          .readFileSync(path.join(dir, f), 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((line) => Number(line.split(' ')[2]) / 1000),
      )
      .sort((a, b) => a - b);
    const p99 = latencies.length ? latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * 0.99))] : NaN;
    return { tps, latency, p99 };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Drops a bench database, retrying while the server's last connections close. */
export async function dropDatabase(name) {
  for (let i = 0; i < 20; i++) {
    try {
      await admin(`drop database if exists ${name}`);
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}

/** wrk (apt-get install wrk) is on this machine. */
export function hasWrk() {
  try {
    execFileSync('wrk', ['--version'], { stdio: 'ignore' });
    return true;
  } catch (err) {
    // wrk --version exits 1 after printing its version; only a missing binary throws ENOENT
    return err.code !== 'ENOENT';
  }
}

/**
 * wrk (Debian's package, written in C) as the load generator: autocannon runs in Node and, on a
 * 2-core machine, takes CPU the server would otherwise get, the way pgbench's C client does not.
 * Same answer shape as autocannon's, for the parts the benches read (throughput: bytes read).
 */
export function wrk(url, headers, { threads = 2, connections = 50, seconds = SECONDS } = {}) {
  const args = ['-t', String(threads), '-c', String(connections), '-d', `${seconds}s`, '--latency'];
  for (const [k, v] of Object.entries(headers)) args.push('-H', `${k}: ${v}`);
  // /usr/bin/time reports wrk's own CPU: on a 2-core machine the load generator competes with the
  // server and PostgreSQL for the same cores
  const timed = fs.existsSync('/usr/bin/time');
  const run = timed
    ? spawnSync('/usr/bin/time', ['-f', 'wrk-cpu %U %S', 'wrk', ...args, url], { encoding: 'utf8' })
    : spawnSync('wrk', [...args, url], { encoding: 'utf8' });
  const out = run.stdout;
  const time = (label) => {
    const m = new RegExp(`^\\s*${label}%\\s+([\\d.]+)(us|ms|s)\\s*$`, 'm').exec(out);
    if (!m) return NaN;
    return Number(m[1]) * { us: 0.001, ms: 1, s: 1000 }[m[2]];
  };
  const total = Number(/(\d+) requests in/.exec(out)?.[1] ?? 0);
  const read = /requests in [\d.]+\w+, ([\d.]+)(B|KB|MB|GB) read/.exec(out);
  const errors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
  const cpu = /wrk-cpu ([\d.]+) ([\d.]+)/.exec(run.stderr ?? '');
  return {
    requests: { average: Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1]), total },
    latency: { p50: time('50'), p75: time('75'), p90: time('90'), p99: time('99') },
    throughput: { total: read ? Number(read[1]) * { B: 1, KB: 1024, MB: 1024 ** 2, GB: 1024 ** 3 }[read[2]] : NaN },
    non2xx: Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0),
    errors: errors ? errors.slice(1).reduce((a, b) => a + Number(b), 0) : 0,
    loaderCpuShare: cpu ? (Number(cpu[1]) + Number(cpu[2])) / seconds : NaN,
  };
}

/**
 * The server's own time for each answer (test/bench/server-time.cjs, preloaded): `args` go before
 * the server's script, `env` into its environment; `take()` reads the percentiles since the last
 * take (call it once before a load run to start clean, once after to read it).
 */
export function serverTime() {
  const file = path.join(os.tmpdir(), `sb-server-time-${process.pid}-${Math.random().toString(36).slice(2)}.json`);
  let pid = 0;
  return {
    args: ['--require', path.join(path.dirname(new URL(import.meta.url).pathname), 'server-time.cjs')],
    env: { BENCH_SERVER_TIME_FILE: file },
    attach(child) {
      pid = child.pid;
    },
    async take() {
      fs.rmSync(file, { force: true });
      process.kill(pid, 'SIGUSR2');
      for (let i = 0; i < 200; i++) {
        if (fs.existsSync(file)) {
          const report = JSON.parse(fs.readFileSync(file, 'utf8'));
          fs.rmSync(file, { force: true });
          return report;
        }
        await new Promise((r) => setTimeout(r, 10));
      }
      throw new Error('the server did not report its own times (test/bench/server-time.cjs)');
    },
  };
}
