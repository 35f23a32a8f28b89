import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { dropTemplates } from './templates';

// Once per `vitest run` of the api project: a directory where the first worker that needs a
// seeded template (PostgreSQL, PGlite) makes it and the others find it (test/api/templates.ts);
// when the run ends, the templates are dropped.
export default function setup(project: TestProject): () => Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-templates-'));
  project.provide('templateDir', dir);
  return () => dropTemplates(dir);
}
