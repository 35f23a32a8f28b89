import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { seededDataDir } from './harness';

// Once per e2e run: a directory for the run's seeded data directories (startServer in
// test/e2e/harness.ts copies one instead of seeding for every file), removed when the run ends.
// The first seed starts here, before any file, so files that start at once (the e2e project runs
// three at a time) wait for one seed instead of racing to make it inside their hook timeouts.
// Both e2e projects (parallel and serial) share the directory: their setups run in this one
// process, so the first makes it and the second finds it here.
export default function setup(project: TestProject): () => Promise<void> {
  const dir = (process.env.SB_E2E_SEEDED_DIR ??= fs.mkdtempSync(path.join(os.tmpdir(), 'sb-e2e-seeded-')));
  // In the background, so a file that needs no seeded server starts at once; never for the
  // serial files alone, whose fault timings a seed beside them would skew (they start their own).
  if (project.name === 'e2e' && !seedStarted) {
    seedStarted = true;
    seeding = seededDataDir(dir).catch((err) => console.error(`The run's demo seed failed; each file will seed its own: ${String(err)}`));
  }
  project.provide('e2eTemplateDir', dir);
  const made = dir;
  return async () => {
    await seeding;
    fs.rmSync(made, { recursive: true, force: true });
  };
}

let seeding: Promise<unknown> = Promise.resolve();
let seedStarted = false;
