import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';

// Once per e2e run: a directory for the run's seeded data directories (startServer in
// test/e2e/harness.ts copies one instead of seeding for every file), removed when the run ends.
// Both e2e projects (parallel and serial) share the one directory: their setups run in this one
// process, so the first makes it and the second finds it here.
export default function setup(project: TestProject): () => void {
  const dir = (process.env.SB_E2E_SEEDED_DIR ??= fs.mkdtempSync(path.join(os.tmpdir(), 'sb-e2e-seeded-')));
  project.provide('e2eTemplateDir', dir);
  return () => fs.rmSync(dir, { recursive: true, force: true });
}
