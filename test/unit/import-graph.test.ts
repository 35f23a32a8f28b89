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
const TEXT = new Map(FILES.map((file) => [file, fs.readFileSync(path.join(ROOT, file), 'utf8')]));
const IMPORTS = new Map(
  FILES.map((file) => [file, ts.preProcessFile(TEXT.get(file)!, true, true).importedFiles.map((i) => i.fileName)]),
);
const GRAPH = new Map<string, string[]>(
  FILES.map((file) => {
    const targets = IMPORTS.get(file)!
      .map((i) => resolve(file, i))
      .filter((t): t is string => t !== null);
    return [file, [...new Set(targets)]];
  }),
);
/** The packages a file imports (bare specifiers, a subpath kept as its package's name). */
const packagesOf = (file: string) =>
  IMPORTS.get(file)!
    .filter((i) => !i.startsWith('.'))
    .map((i) => (i.startsWith('@') ? i.split('/').slice(0, 2) : i.split('/').slice(0, 1)).join('/'));

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

// ---------------------------------------------------------------------------------------------
// The layers, written once. Each row holds some files and names the rows it may import; its own
// files may always import each other. Rows are listed from the top down and a row names only rows
// below it, so the table is a ladder: an import that is not in it points back up. The picture and
// the reasons are in docs/architecture.md ("Layers"); this table is what holds the code to them.

/** HTTP handler files: an area's routes.ts (or <name>-routes.ts), its /api/v1 operations (v1.ts), its customer pages. */
const isRoute = (f: string) =>
  f.startsWith('api/') &&
  (/(^|\/)(([a-z0-9-]+-)?routes|v1|customer-page|page)\.tsx?$/.test(f) || f === 'api/legal/terms.tsx' || f === 'api/static.ts');

const under =
  (...prefixes: string[]) =>
  (f: string) =>
    prefixes.some((p) => f.startsWith(p));
const oneOf =
  (...files: string[]) =>
  (f: string) =>
    files.includes(f);

type Layer = {
  name: string;
  holds: (file: string) => boolean;
  /** the rows below this one it may import; 'all below' for the composition roots */
  uses: readonly string[] | 'all below';
  /** where the packages a row may import are limited: the browser bundles the contract */
  packages?: RegExp;
  /** its own imports are types only (checked below), so they are not held to the ladder */
  typesOnly?: true;
};

/** What every server row stands on. */
const BASE = ['deps', 'kernel', 'contract', 'contract/logic'];
/** What a service may use below the services. */
const INFRA = ['audit', 'integrations', 'jobs', 'auth', 'http', 'db', ...BASE];

const LAYERS: Layer[] = [
  // the browser: the React core and the hosts that plug into it; of the server, only the contract
  { name: 'hosts', holds: under('hosts/'), uses: ['src', 'contract', 'contract/logic'] },
  { name: 'src', holds: under('src/'), uses: ['contract', 'contract/logic'] },
  // composition roots: the processes, the app, the app list and each app's module, the job lists
  {
    name: 'entry',
    holds: (f) =>
      [
        'api/server.ts',
        'api/cli.ts',
        'api/workers.ts',
        'api/runtime.ts',
        'api/app.ts',
        'api/jobs/index.ts',
        'api/apps/index.ts',
        'api/apps/platform/jobs.ts',
      ].includes(f) || /^api\/apps\/[^/]+\/module\.ts$/.test(f),
    uses: 'all below',
  },
  // demo data, made through the services like any other caller
  {
    name: 'seed',
    holds: (f) => f.startsWith('api/seed/') || /^api\/apps\/[^/]+\/seed\.ts$/.test(f),
    uses: ['services', ...INFRA],
  },
  // HTTP handlers: validate, call a service, answer; no SQL (checked below), so no data module
  { name: 'routes', holds: isRoute, uses: ['services', 'customer-pages', ...INFRA.filter((r) => r !== 'db')] },
  // the services, area by area; an area names the areas below it that it uses
  {
    name: 'delivery',
    holds: oneOf('api/integrations/webhooks.ts', 'api/integrations/log-queue.ts'),
    uses: ['developers', 'notifications', 'privacy', ...INFRA],
  },
  { name: 'dev-stripe', holds: under('api/dev-stripe/'), uses: ['http', ...BASE] },
  { name: 'watch-tower', holds: under('api/watch-tower/'), uses: ['billing', 'usage', 'agents', 'sms-guard', ...INFRA] },
  { name: 'admins', holds: under('api/admins/'), uses: ['billing', 'branding', ...INFRA] },
  { name: 'journeys', holds: under('api/journeys/'), uses: ['apps', 'apps/platform', 'usage', 'customer-pages', ...INFRA] },
  { name: 'privacy', holds: under('api/privacy/'), uses: ['apps', 'apps/platform', 'storage', ...INFRA] },
  {
    name: 'apps',
    holds: (f) => f.startsWith('api/apps/') && !f.startsWith('api/apps/platform/'),
    uses: [
      'apps/platform',
      'identity',
      'developers',
      'usage',
      'agents',
      'storage',
      'results',
      'sms',
      'sms-guard',
      'account-dates',
      'branding',
      'customer-pages',
      ...INFRA,
    ],
  },
  {
    name: 'apps/platform',
    holds: under('api/apps/platform/'),
    uses: [
      'identity',
      'developers',
      'usage',
      'agents',
      'storage',
      'results',
      'sms',
      'sms-guard',
      'account-dates',
      'branding',
      'customer-pages',
      ...INFRA,
    ],
  },
  { name: 'billing', holds: under('api/billing/'), uses: ['usage', 'notifications', 'account-dates', ...INFRA] },
  { name: 'identity', holds: under('api/identity/'), uses: ['agents', 'developers', 'notifications', ...INFRA] },
  { name: 'developers', holds: under('api/developers/'), uses: ['usage', ...INFRA] },
  { name: 'usage', holds: under('api/usage/'), uses: [...INFRA] },
  { name: 'agents', holds: under('api/agents/'), uses: [...INFRA] },
  { name: 'storage', holds: under('api/storage/'), uses: [...INFRA] },
  { name: 'results', holds: under('api/results/'), uses: ['sms-guard', 'notifications', ...INFRA] },
  { name: 'sms', holds: under('api/sms/'), uses: ['sms-guard', ...INFRA] },
  { name: 'sms-guard', holds: under('api/sms-guard/'), uses: ['notifications', 'account-dates', ...INFRA] },
  { name: 'customer-lookup', holds: under('api/customer-lookup/'), uses: [...INFRA] },
  { name: 'logging', holds: under('api/logging/'), uses: [...INFRA] },
  { name: 'audit-log', holds: under('api/audit-log/'), uses: [...INFRA] },
  { name: 'invitations', holds: under('api/invitations/'), uses: [...INFRA] },
  { name: 'live', holds: under('api/live/'), uses: [...INFRA] },
  { name: 'notifications', holds: under('api/notifications/'), uses: ['account-dates', ...INFRA] },
  { name: 'account-dates', holds: oneOf('api/account-dates.ts'), uses: ['branding', 'customer-pages', ...INFRA] },
  { name: 'branding', holds: under('api/branding/'), uses: [...INFRA] },
  { name: 'customer-pages', holds: under('api/customer-pages/'), uses: [...INFRA] },
  // below the services: what every area stands on
  { name: 'audit', holds: oneOf('api/audit.ts'), uses: ['integrations', 'auth', 'db', ...BASE] },
  { name: 'integrations', holds: under('api/integrations/'), uses: ['http', ...BASE] },
  { name: 'jobs', holds: under('api/jobs/'), uses: ['db', ...BASE] },
  { name: 'auth', holds: under('api/auth/'), uses: ['http', 'db', ...BASE] },
  {
    name: 'observability',
    holds: oneOf('api/observability/http.ts', 'api/observability/readiness.ts', 'api/observability/metrics-server.ts'),
    uses: ['http', 'db', ...BASE],
  },
  { name: 'http', holds: under('api/http/'), uses: ['db', ...BASE] },
  // the migrator runs the migrations; a migration is frozen when it ships, so it takes nothing
  // that changes with the domain: the data layer's types and the server's own primitives only
  { name: 'migrate', holds: oneOf('api/db/migrate.ts'), uses: ['migrations', 'db', ...BASE] },
  { name: 'migrations', holds: under('api/db/migrations/'), uses: ['db', 'kernel'] },
  { name: 'db', holds: under('api/db/'), uses: ['kernel', 'contract', 'contract/logic'] },
  {
    name: 'kernel',
    holds: (f) => ['api/config.ts', 'api/crypto.ts'].includes(f) || f.startsWith('api/observability/'),
    uses: ['contract', 'contract/logic'],
  },
  // shared with the browser: shapes, and the pure logic both sides run, on browser-safe packages
  {
    name: 'contract',
    holds: (f) => f.startsWith('api/contract/') && !f.startsWith('api/contract/logic/'),
    uses: ['contract/logic'],
    packages: /^valibot$/,
  },
  { name: 'contract/logic', holds: under('api/contract/logic/'), uses: [], packages: /^re2js$/ },
  // the type of what the API is built from (config, database, hub, ...): every server row names it
  { name: 'deps', holds: oneOf('api/deps.ts'), uses: [], typesOnly: true },
];

/** A file's row: the first that holds it (an entry point or a route file before its area's row). */
const layerOf = (file: string): Layer | undefined => LAYERS.find((l) => l.holds(file));

const SERVICES = LAYERS.slice(
  LAYERS.findIndex((l) => l.name === 'delivery'),
  LAYERS.findIndex((l) => l.name === 'audit'),
).map((l) => l.name);
const rank = (name: string) => LAYERS.findIndex((l) => l.name === name);
const allowed = (layer: Layer): string[] =>
  layer.uses === 'all below'
    ? LAYERS.slice(rank(layer.name) + 1).map((l) => l.name)
    : layer.uses.flatMap((u) => (u === 'services' ? SERVICES : [u]));

/** Every import the table does not allow, as "file -> file (row -> row)", by the importing row. */
function breaches(): Map<string, string[]> {
  const out = new Map<string, string[]>(LAYERS.map((l) => [l.name, []]));
  for (const [file, targets] of GRAPH) {
    const from = layerOf(file);
    if (!from || from.typesOnly) continue;
    for (const t of targets) {
      const to = layerOf(t);
      if (to && to !== from && !allowed(from).includes(to.name))
        out.get(from.name)!.push(`${file} -> ${t} (${from.name} -> ${to.name})`);
    }
    if (from.packages)
      for (const p of packagesOf(file)) if (!from.packages.test(p)) out.get(from.name)!.push(`${file} -> package ${p}`);
  }
  return out;
}
const BREACHES = breaches();

/** What builds SQL: the query builder's statements, raw `sql` templates, and taking `sql` (under any name) from Kysely. */
const SQL_IN_CODE =
  /\.(selectFrom|insertInto|updateTable|deleteFrom)\(|\bsql(<[^`]*>)?`|import\s*\{[^}]*\bsql\b[^}]*\}\s*from\s*'kysely'/g;

describe('the import graph', () => {
  it('reads the whole source tree', () => {
    expect(FILES.length).toBeGreaterThan(300);
    expect(GRAPH.get('api/app.ts')?.length).toBeGreaterThan(10);
  });

  it('resolves every relative import to a file (one it could not would hide from the table)', () => {
    const unresolved = FILES.flatMap((f) =>
      IMPORTS.get(f)!
        .filter((i) => i.startsWith('.') && !resolve(f, i))
        .map((i) => `${f} -> ${i}`),
    );
    expect(unresolved).toEqual([]);
  });

  it('has no import cycle, type-only imports included', () => {
    expect(cycles()).toEqual([]);
  });
});

describe('the layers (one table, top down)', () => {
  it('is a ladder: each row names only rows below it', () => {
    const upward = LAYERS.flatMap((l) =>
      l.uses === 'all below'
        ? []
        : l.uses.filter((u) => u !== 'services' && !(rank(u) > rank(l.name))).map((u) => `${l.name} -> ${u}`),
    );
    expect(upward).toEqual([]);
    expect(LAYERS.filter((l) => l.uses.includes('services')).every((l) => rank(l.name) < rank('delivery'))).toBe(true);
  });

  it('has a row for every source file', () => {
    expect(FILES.filter((f) => !layerOf(f))).toEqual([]);
  });

  it.each(LAYERS.map((l) => l.name))('%s imports only the rows the table gives it', (name) => {
    expect(BREACHES.get(name)).toEqual([]);
  });

  it('keeps api/deps.ts to types: every row may name what the API is built from, none reaches it at run time', () => {
    const source = ts.createSourceFile('deps.ts', TEXT.get('api/deps.ts')!, ts.ScriptTarget.Latest);
    const valueImports = source.statements
      .filter((s) => ts.isImportDeclaration(s) && !s.importClause?.isTypeOnly)
      .map((s) => s.getText(source));
    expect(valueImports).toEqual([]);
  });

  it('has no route file taking helpers from another area’s route file', () => {
    // an app is an area of its own (api/apps/<app>/)
    const area = (f: string) =>
      f
        .split('/')
        .slice(0, f.startsWith('api/apps/') ? 3 : 2)
        .join('/');
    const crossing = FILES.filter(isRoute).flatMap((f) =>
      GRAPH.get(f)!
        .filter((t) => isRoute(t) && area(t) !== area(f))
        .map((t) => `${f} -> ${t}`),
    );
    expect(crossing).toEqual([]);
  });

  it('has no route file building SQL: a route validates, calls its service and answers', () => {
    const building = FILES.filter(isRoute).flatMap((f) => {
      const found = [
        ...new Set(
          [...TEXT.get(f)!.matchAll(SQL_IN_CODE)].map((m) =>
            m[0].startsWith('import') ? 'sql from kysely' : m[0].replace(/<[^`]*>/, ''),
          ),
        ),
      ];
      return found.length ? [`${f}: ${found.join(' ')}`] : [];
    });
    expect(building).toEqual([]);
  });
});
