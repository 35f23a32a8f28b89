#!/usr/bin/env node
// `npm test`: every layer once, failing if any fails: typecheck, unit, api, e2e.
// The end-to-end run's demo seed (half a minute of one core: test/e2e/global-setup.ts) is made
// here while the typecheck runs on the other core, instead of at the start of the e2e run, where
// the first browser files would wait for it with a core idle. The e2e run finds it through
// SB_E2E_SEEDED_DIR (the seed is dated: a copy older than twenty minutes is made again).
//
// The e2e layer then runs beside the unit and API layers, not after them: a browser file mostly
// waits (on the page, the server, the network), and the whole e2e layer alone kept 1.0-1.2 of
// the two cores busy, while the unit and API layers are CPU work in their own workers. Its output
// goes to a file and is printed when it ends, so the layers' logs do not interleave. Its serial
// files (faults, the pooler, jobs, live updates) run last in it, by then mostly alone.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';

const ROOT = path.resolve(import.meta.dirname, '..');
const vitest = path.join(ROOT, 'node_modules/vitest/vitest.mjs');

const running = new Set();
function run(command, args, log) {
  return new Promise((resolve) => {
    const out = log ? fs.openSync(log, 'w') : null;
    const child = spawn(command, args, { cwd: ROOT, stdio: out === null ? 'inherit' : ['ignore', out, out] });
    running.add(child);
    child.once('exit', (code, signal) => {
      running.delete(child);
      if (out !== null) fs.closeSync(out);
      resolve(code ?? (signal ? 1 : 0));
    });
  });
}

const failed = [];
async function step(name, command, args, log) {
  const began = Date.now();
  const code = await run(command, args, log);
  if (log) process.stdout.write(fs.readFileSync(log, 'utf8'));
  console.log(`== ${name}: ${code === 0 ? 'passed' : `failed (exit ${code})`} in ${Math.round((Date.now() - began) / 1000)} s`);
  if (code !== 0) failed.push(name);
  return code;
}

/** The e2e harness for plain Node, bundled two folders down as test/e2e/harness.ts is (it finds the root from there). */
async function harness() {
  const outfile = path.join(ROOT, 'dist/test/harness.mjs');
  await build({ entryPoints: [path.join(ROOT, 'test/e2e/harness.ts')], bundle: true, format: 'esm', platform: 'node', packages: 'external', outfile, logLevel: 'error' });
  return import(outfile);
}

const stopIfFailed = () => {
  if (failed.length) process.exit(1);
};

await step('build', process.execPath, ['build.mjs']);
stopIfFailed();
const seededDir = (process.env.SB_E2E_SEEDED_DIR ??= fs.mkdtempSync(path.join(os.tmpdir(), 'sb-e2e-seeded-')));
const seeding = harness()
  .then((h) => h.seededDataDir(seededDir))
  .catch((err) => console.error(`The demo seed made ahead failed; the e2e run will make its own: ${String(err)}`));
await step('typecheck', process.execPath, [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '--noEmit']);
stopIfFailed();
// the e2e run's setup finds the seed (or waits for it) and removes the directory when it ends
const e2eLog = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'sb-e2e-log-')), 'e2e.log');
console.log(`== e2e: started beside the unit and API layers (its output, printed when it ends: ${e2eLog})`);
const e2e = step('e2e', process.execPath, [vitest, 'run', '--project', 'e2e*'], e2eLog);
if ((await step('unit', process.execPath, [vitest, 'run', '--project', 'unit'])) === 0) await step('api', process.execPath, [vitest, 'run', '--project', 'api']);
// a failed layer fails the run: the e2e layer is stopped rather than waited for
if (failed.length) for (const child of running) child.kill('SIGTERM');
await seeding;
await e2e;
if (failed.length) console.log(`== failed: ${failed.join(', ')}`);
process.exit(failed.length ? 1 : 0);
