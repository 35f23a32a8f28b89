import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { seededDataDir } from './harness';
import { seededClusterTemplate } from './seeded-cluster';

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
    seeding = seededDataDir(dir).catch((err) =>
      console.error(`The run's demo seed failed; each file will seed its own: ${String(err)}`),
    );
  }
  // The serial files' seeded PostgreSQL cluster (test/e2e/seeded-cluster.ts), after the demo seed
  // the parallel files wait for, so the two do not share the cores while those files wait; it is
  // ready long before the serial files start (they run after the others).
  if (project.name === 'e2e-serial' && !clusterStarted) {
    clusterStarted = true;
    clustering = new Promise((r) => setTimeout(r, 0))
      .then(() => seeding)
      .then(() => seededClusterTemplate(dir))
      .catch((err) =>
        console.error(`The run's seeded PostgreSQL cluster failed; the serial files will fail to start: ${String(err)}`),
      );
  }
  project.provide('e2eTemplateDir', dir);
  const made = dir;
  return async () => {
    await seeding;
    await clustering;
    fs.rmSync(made, { recursive: true, force: true });
  };
}

let seeding: Promise<unknown> = Promise.resolve();
let seedStarted = false;
let clustering: Promise<unknown> = Promise.resolve();
let clusterStarted = false;
