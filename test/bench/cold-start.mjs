// Cold `npm start` to the first 200 on an existing embedded data directory: the data directory is
// created by a first start (initialised, migrated, seeded), then `npm start` is timed from spawn
// to the first 200 of GET /api/health and of GET / (the console page), and the server's resident
// memory is read once it has answered and settled (idle RSS). It reports; it does not fail.
//
//   node test/bench/cold-start.mjs      (after `node build.mjs`; `npm run bench` does both)
//   BENCH_ROOT=<other checkout>         measures that checkout's build the same way
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const ROOT = process.env.BENCH_ROOT ?? path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');

const freePort = () =>
  new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

const groupAlive = (pgid) => {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
};

const TICK_MS = 10; // USER_HZ is 100 on Linux

/** The live processes of a group: pid, their fields of /proc/<pid>/stat after the name. */
function groupProcesses(pgid) {
  const out = [];
  for (const pid of fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[2]) === pgid) out.push({ pid, fields });
    } catch {
      // the process went away while we looked
    }
  }
  return out;
}

/**
 * CPU time the whole start has used (npm, the build check and the server, user and system):
 * unlike the wall-clock time it hardly depends on what else the machine is doing.
 */
function groupCpuMs(pgid) {
  let ticks = 0;
  for (const { fields } of groupProcesses(pgid))
    ticks += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
  return ticks * TICK_MS;
}

/** Resident memory of the `node dist/server.mjs` process in the group (npm is its parent). */
function serverRssMb(pgid) {
  for (const { pid } of groupProcesses(pgid)) {
    try {
      const argv = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      if (!argv[1]?.endsWith('dist/server.mjs')) continue; // not npm, not the `sh -c` between
      const rss = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
      return rss ? Number(rss[1]) / 1024 : NaN;
    } catch {
      // the process went away while we looked
    }
  }
  return NaN;
}

async function start(dataDir, port) {
  const began = performance.now();
  const child = spawn('npm', ['start', '--silent'], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), LOG_SHIPPING: 'off', NODE_ENV: 'development' },
    stdio: ['ignore', 'ignore', 'pipe'],
    detached: true,
  });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const first = {};
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`npm start exited before answering:\n${stderr}`);
      for (const p of ['/api/health', '/']) {
        if (first[p] !== undefined) continue;
        try {
          if ((await fetch(`http://127.0.0.1:${port}${p}`)).status === 200) first[p] = performance.now() - began;
        } catch {
          // not listening yet
        }
      }
      if (first['/api/health'] !== undefined && first.cpuMs === undefined) first.cpuMs = groupCpuMs(child.pid);
      if (first['/api/health'] !== undefined && first['/'] !== undefined) break;
      if (performance.now() - began > 60_000) throw new Error('no 200 within 60 s');
      await new Promise((r) => setTimeout(r, 20));
    }
    // idle: after the start-up work that runs once listening (sign-in links, first job polls)
    await new Promise((r) => setTimeout(r, 3000));
    first.rssMb = serverRssMb(child.pid);
    return first;
  } finally {
    if (groupAlive(child.pid)) process.kill(-child.pid, 'SIGTERM');
    // the server releases the data directory when it has stopped, not when npm has
    while (groupAlive(child.pid)) await new Promise((r) => setTimeout(r, 50));
  }
}

const s = (ms) => `${(ms / 1000).toFixed(2)} s`;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-cold-'));
try {
  const first = await start(dataDir, await freePort());
  console.log(
    `\nCold start (npm start → first 200), embedded database, ${os.cpus().length} cores, load average ${os.loadavg()[0].toFixed(2)}`,
  );
  console.log(
    `  fresh data directory     /api/health ${s(first['/api/health'])}   / ${s(first['/'])}   CPU ${s(first.cpuMs)}   idle RSS ${first.rssMb.toFixed(0)} MB`,
  );
  for (let i = 0; i < RUNS; i++) {
    const t = await start(dataDir, await freePort());
    console.log(
      `  existing data directory  /api/health ${s(t['/api/health'])}   / ${s(t['/'])}   CPU ${s(t.cpuMs)}   idle RSS ${t.rssMb.toFixed(0)} MB   (targets ≤ 2 s; load ${os.loadavg()[0].toFixed(2)})`,
    );
  }
} finally {
  fs.rmSync(dataDir, { recursive: true, force: true });
}
