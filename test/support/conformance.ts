import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

// Conformance data recorded from other projects lives outside the repository (../shared beside
// the checkout, or /work/shared); it is read at test time and never copied in.
const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const CANDIDATES = [resolve(root, '../shared/conformance'), '/work/shared/conformance'];

/** The parsed conformance file, or null (with the reason printed) when it is not available. */
export function readConformance<T>(file: string): T | null {
  for (const dir of CANDIDATES) {
    const path = resolve(dir, file);
    if (existsSync(path)) return JSON.parse(readFileSync(path, 'utf8')) as T;
  }
  console.warn(`Conformance file ${file} not found in ${CANDIDATES.join(' or ')}: its tests are skipped.`);
  return null;
}
