import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// The import graph flows one way. Type-only imports count: a cycle of types is the same knot for
// whoever reads or moves the code. Read with TypeScript's own pre-processor (every static,
// type-only, re-export and dynamic import), resolved as esbuild and tsc resolve relative paths.

const ROOT = path.resolve(import.meta.dirname, '../..');
const SOURCE_DIRS = ['api', 'src', 'hosts'];
const EXTENSIONS = ['.ts', '.tsx', '.mts', '.mjs', '.d.mts', '.js'];

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    const rel = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(rel));
    else if (/\.(ts|tsx|mts|mjs)$/.test(entry.name)) out.push(rel);
  }
  return out;
}

function resolve(from: string, specifier: string): string | null {
  if (!specifier.startsWith('.')) return null;
  const base = path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier));
  const candidates = [base, ...EXTENSIONS.map((e) => base + e), ...EXTENSIONS.map((e) => `${base}/index${e}`)];
  if (/\.js$/.test(base)) candidates.push(base.replace(/\.js$/, '.ts'), base.replace(/\.js$/, '.tsx'));
  return candidates.find((c) => fs.existsSync(path.join(ROOT, c)) && fs.statSync(path.join(ROOT, c)).isFile()) ?? null;
}

const FILES = SOURCE_DIRS.flatMap(sourceFiles);
const GRAPH = new Map<string, string[]>(
  FILES.map((file) => {
    const info = ts.preProcessFile(fs.readFileSync(path.join(ROOT, file), 'utf8'), true, true);
    const targets = info.importedFiles.map((i) => resolve(file, i.fileName)).filter((t): t is string => t !== null);
    return [file, [...new Set(targets)]];
  }),
);

/** Strongly connected components of more than one file (Tarjan): each is an import cycle. */
function cycles(): string[][] {
  let index = 0;
  const indexOf = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    indexOf.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of GRAPH.get(v) ?? []) {
      if (!indexOf.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, indexOf.get(w)!));
    }
    if (low.get(v) === indexOf.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const file of GRAPH.keys()) if (!indexOf.has(file)) visit(file);
  return found;
}

/** Every import from a file matching `from` to a file matching `to`, as "a -> b". */
function edges(from: (f: string) => boolean, to: (f: string) => boolean): string[] {
  const out: string[] = [];
  for (const [file, targets] of GRAPH) if (from(file)) for (const t of targets) if (to(t)) out.push(`${file} -> ${t}`);
  return out;
}

/** HTTP route files: an area's routes.ts (or <name>-routes.ts). */
const isRoute = (f: string) => f.startsWith('api/') && /(^|\/)([a-z0-9-]+-)?routes\.tsx?$/.test(f);

describe('the import graph', () => {
  it('reads the whole source tree', () => {
    expect(FILES.length).toBeGreaterThan(300);
    expect(GRAPH.get('api/app.ts')?.length).toBeGreaterThan(10);
  });

  it('has no import cycle, type-only imports included', () => {
    expect(cycles()).toEqual([]);
  });

  it('keeps the React core free of the host adapters (hosts plug into the core, never back)', () => {
    expect(edges((f) => f.startsWith('src/'), (t) => t.startsWith('hosts/'))).toEqual([]);
  });

  it('keeps the server out of the browser code, except the shared contract', () => {
    expect(edges((f) => f.startsWith('src/') || f.startsWith('hosts/'), (t) => t.startsWith('api/') && !t.startsWith('api/contract/'))).toEqual([]);
  });

  it('has no service or data module reaching up into a route file', () => {
    // the composition roots: the app, and each app's module (what it plugs into the frame)
    const composes = (f: string) => f === 'api/app.ts' || /^api\/apps\/[^/]+\/module\.ts$/.test(f);
    expect(edges((f) => f.startsWith('api/') && !isRoute(f) && !composes(f), isRoute)).toEqual([]);
  });

  it('has no route file taking helpers from another area’s route file', () => {
    const area = (f: string) => f.split('/').slice(0, 3).join('/');
    expect(edges(isRoute, isRoute).filter((e) => {
      const [a, b] = e.split(' -> ');
      return area(a!) !== area(b!);
    })).toEqual([]);
  });
});
