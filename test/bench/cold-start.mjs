// Cold `npm start` to the first 200 on an existing embedded data directory: the data directory is
// created by a first start (initialised, migrated, seeded), then `npm start` is timed from spawn
// to the first 200 of GET /api/health and of GET / (the console page). It reports; it does not fail.
//
//   node test/bench/cold-start.mjs      (after `node build.mjs`; `npm run bench` does both)
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);

const freePort = () =>
  new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

async function start(dataDir, port) {
  const began = performance.now();
  const child = spawn('npm', ['start', '--silent'], {
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), LOG_SHIPPING: 'off', NODE_ENV: 'development' },
    stdio: 'ignore',
    detached: true,
  });
  const first = {};
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error('npm start exited before answering');
      for (const p of ['/api/health', '/']) {
        if (first[p] !== undefined) continue;
        try {
          if ((await fetch(`http://127.0.0.1:${port}${p}`)).status === 200) first[p] = performance.now() - began;
        } catch {
          // not listening yet
        }
      }
      if (first['/api/health'] !== undefined && first['/'] !== undefined) return first;
      if (performance.now() - began > 60_000) throw new Error('no 200 within 60 s');
      await new Promise((r) => setTimeout(r, 20));
    }
  } finally {
    process.kill(-child.pid, 'SIGTERM');
    await new Promise((r) => (child.exitCode === null ? child.once('exit', r) : r()));
  }
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-cold-'));
try {
  const first = await start(dataDir, await freePort());
  console.log(`\nCold start (npm start → first 200), embedded database, ${os.cpus().length} cores`);
  console.log(`  fresh data directory     /api/health ${(first['/api/health'] / 1000).toFixed(2)} s   / ${(first['/'] / 1000).toFixed(2)} s`);
  for (let i = 0; i < RUNS; i++) {
    const t = await start(dataDir, await freePort());
    console.log(`  existing data directory  /api/health ${(t['/api/health'] / 1000).toFixed(2)} s   / ${(t['/'] / 1000).toFixed(2)} s   (target ≤ 2 s)`);
  }
} finally {
  fs.rmSync(dataDir, { recursive: true, force: true });
}
