#!/usr/bin/env node
// `npm test`: every layer once, stopping at the first that fails: lint, typecheck, unit, api, e2e.
// The typecheck (one core for most of a minute) runs beside the build, which it does not read,
// and then beside the end-to-end run's demo seed (half a minute of one core:
// test/e2e/global-setup.ts), made here instead of at the start of the e2e run, where the first
// browser files would wait for it with a core idle. The e2e run finds it through
// SB_E2E_SEEDED_DIR (the seed is dated: a copy older than twenty minutes is made again).
//
// The layers run one after the other. The e2e layer beside the unit and API layers was tried
// (alone it keeps only 1.0-1.2 of the two cores busy): the unit layer then took 508 s instead of
// 90 s and three of its tests timed out; docs/testing.md.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { importTypeScript } from './support/import-typescript.mjs';

const ROOT = path.resolve(import.meta.dirname, '..');
const vitest = path.join(ROOT, 'node_modules/vitest/vitest.mjs');

/** The layers running now: a failed one stops the others (the typecheck beside a failed build). */
const running = new Set();

function run(command, args) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: ROOT, stdio: 'inherit' });
    running.add(child);
    child.once('exit', (code, signal) => {
      running.delete(child);
      resolve(code ?? (signal ? 1 : 0));
    });
  });
}

async function step(name, command, args) {
  const began = Date.now();
  const code = await run(command, args);
  console.log(`== ${name}: ${code === 0 ? 'passed' : `failed (exit ${code})`} in ${Math.round((Date.now() - began) / 1000)} s`);
  if (code !== 0) {
    for (const child of running) child.kill('SIGTERM');
    process.exit(code);
  }
}

// Lint and format check first (Biome, biome.jsonc; about 7 s of CPU): a finding stops the run
// before the long layers. `npm run format` mends the formatting.
await step('lint and format', process.execPath, [
  path.join(ROOT, 'node_modules/@biomejs/biome/bin/biome'),
  'ci',
  '--error-on-warnings',
  '.',
]);
const typecheck = step('typecheck', process.execPath, [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '--noEmit']);
await step('build', process.execPath, ['build.mjs']);
const seededDir = (process.env.SB_E2E_SEEDED_DIR ??= fs.mkdtempSync(path.join(os.tmpdir(), 'sb-e2e-seeded-')));
const seeding = importTypeScript('test', "export * from './test/e2e/harness';")
  .then((h) => h.seededDataDir(seededDir))
  .catch((err) => console.error(`The demo seed made ahead failed; the e2e run will make its own: ${String(err)}`));
await typecheck;
await step('unit', process.execPath, [vitest, 'run', '--project', 'unit*']);
await step('api', process.execPath, [vitest, 'run', '--project', 'api']);
await seeding;
// the e2e run's setup removes the directory when it ends
await step('e2e', process.execPath, [vitest, 'run', '--project', 'e2e*']);
