#!/usr/bin/env node
// npm run test:times [-- vitest args]: runs the tests (all projects unless told, e.g. `--project api`
// or a file), then prints the slowest 20 files and tests, each file's import time and its
// beforeAll/afterAll time apart from its tests, the wall time, the CPU the run used and the load
// average. `npm run test:times -- --from test-times.json` prints a saved run again.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../..');
const args = process.argv.slice(2);
let out = process.env.TEST_TIMES_OUT ?? path.join(os.tmpdir(), `test-times-${process.pid}.json`);
let cpu = null;
const loadBefore = os.loadavg();
if (args[0] === '--from') {
  out = args[1];
} else {
  const childTicks = () => {
    // utime+stime of waited-for children (vitest and its workers, servers and browsers they reap)
    const f = fs.readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
    return Number(f[13]) + Number(f[14]);
  };
  const before = childTicks();
  const r = spawnSync(
    process.execPath,
    [
      path.join(ROOT, 'node_modules/vitest/vitest.mjs'),
      'run',
      ...args,
      '--reporter=default',
      '--reporter=./test/times/reporter.ts',
    ],
    {
      cwd: ROOT,
      stdio: 'inherit',
      env: { ...process.env, TEST_TIMES_OUT: out },
    },
  );
  cpu = (childTicks() - before) / 100;
  process.exitCode = r.status ?? 1;
  if (!fs.existsSync(out)) process.exit();
}

let { wallMs, files, testResults, startTime } = JSON.parse(fs.readFileSync(out, 'utf8'));
if (testResults) {
  // vitest's own JSON reporter (--reporter=json): no import time apart, so it counts as hooks
  files = testResults.map((r) => {
    const tests = r.assertionResults.map((a) => ({
      name: a.fullName,
      state: a.status,
      ms: Math.round(a.duration ?? 0),
      flaky: false,
    }));
    const testsMs = tests.reduce((a, t) => a + t.ms, 0);
    const totalMs = Math.round(r.endTime - r.startTime);
    return {
      file: path.relative(ROOT, r.name),
      project: r.name.split('/test/')[1]?.split('/')[0] ?? '?',
      importMs: 0,
      testsMs,
      hooksMs: Math.max(0, totalMs - testsMs),
      totalMs,
      tests,
    };
  });
  wallMs = Math.max(...testResults.map((r) => r.endTime)) - startTime;
}
const s = (ms) => (ms / 1000).toFixed(1).padStart(7);
const tests = files.flatMap((f) => f.tests.map((t) => ({ ...t, file: f.file })));
const sum = (xs, k) => xs.reduce((a, x) => a + x[k], 0);

console.log(`\nSlowest 20 files (of ${files.length}); seconds: total = import + hooks (beforeAll/afterAll) + tests`);
console.log(`  ${'total'.padStart(7)} ${'import'.padStart(7)} ${'hooks'.padStart(7)} ${'tests'.padStart(7)}  file`);
for (const f of [...files].sort((a, b) => b.totalMs - a.totalMs).slice(0, 20)) {
  console.log(`  ${s(f.totalMs)} ${s(f.importMs)} ${s(f.hooksMs)} ${s(f.testsMs)}  ${f.file} (${f.tests.length} tests)`);
}
console.log(`\nSlowest 20 tests (of ${tests.length}); seconds, each with its beforeEach/afterEach`);
for (const t of [...tests].sort((a, b) => b.ms - a.ms).slice(0, 20)) console.log(`  ${s(t.ms)}  ${t.file} > ${t.name}`);

const byProject = new Map();
for (const f of files) byProject.set(f.project, [...(byProject.get(f.project) ?? []), f]);
console.log('\nPer project (worker-seconds summed over files; wall time is less when files run in parallel)');
for (const [p, fs_] of byProject) {
  const t = fs_.flatMap((f) => f.tests);
  console.log(
    `  ${p.padEnd(6)} ${fs_.length} files, ${t.length} tests: import ${s(sum(fs_, 'importMs'))}, hooks ${s(sum(fs_, 'hooksMs'))}, tests ${s(sum(fs_, 'testsMs'))}`,
  );
}
const bad = tests.filter((t) => t.state === 'failed' || t.flaky);
if (bad.length) {
  const first = (t) => (t.errors?.[0] ? `\n      ${t.errors[0].split('\n').slice(0, 3).join('\n      ')}` : '');
  console.log(
    `\nFailed, or flaky (passed on retry): ${bad.map((t) => `${t.file} > ${t.name}${t.flaky ? ' (flaky)' : ''}${first(t)}`).join('\n  ')}`,
  );
}
console.log(
  `\nWall ${s(wallMs)} s${cpu !== null ? `, CPU ${cpu.toFixed(0)} s (user+system of vitest and everything it started)` : ''}; load average ${loadBefore.map((x) => x.toFixed(2)).join(' ')} before, ${os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')} after; ${os.cpus().length} cores; node ${process.version}`,
);
