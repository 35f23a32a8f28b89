import path from 'node:path';
import { build } from 'esbuild';

const ROOT = path.resolve(import.meta.dirname, '../..');

/**
 * TypeScript modules for a plain Node script (npm test's runner, the screen walk): `contents`
 * (exports from paths relative to the project root) bundled into dist/<name>/imports.mjs and
 * imported. Packages stay external, so they resolve from node_modules; the file sits two folders
 * down, as test/e2e/harness.ts does, so the harness finds the project root where it looks.
 */
export async function importTypeScript(name, contents) {
  const outfile = path.join(ROOT, 'dist', name, 'imports.mjs');
  await build({
    stdin: { contents, resolveDir: ROOT, loader: 'ts' },
    bundle: true,
    format: 'esm',
    platform: 'node',
    packages: 'external',
    outfile,
    logLevel: 'error',
  });
  return import(outfile);
}
