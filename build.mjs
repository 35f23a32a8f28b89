// Builds the three UI entries (browser, zoom, webex) from one React core, and the API server and
// CLI for plain Node. `--if-stale` skips the work when dist/ is newer than every source file, so
// `npm start` is instant on the second run.
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import fs from 'node:fs';
import path from 'node:path';

const root = path.dirname(new URL(import.meta.url).pathname);
const dist = path.join(root, 'dist');
const args = new Set(process.argv.slice(2));
const watchedDirs = ['api', 'src', 'hosts', 'manifests'];
const stamp = path.join(dist, '.build-stamp');

/** The browser entry's initial JS budget, gzip bytes (pages load lazily past it). */
// 100 KB as served: the 95 KB of before measured gzip -9 of every file, where small chunks now
// travel uncompressed (under 1 KB, no .gz copy: about 2 KB more). The live stream, its reader and
// the header's bell load after the first paint (src/app/lazy-live.tsx). See docs/benchmarks.md.
export const BROWSER_INITIAL_BUDGET = 100 * 1024;

export const ENTRIES = [
  { name: 'web', entry: 'hosts/browser/main.tsx', base: '/' },
  { name: 'zoom', entry: 'hosts/zoom/main.tsx', base: '/zoom/' },
  { name: 'webex', entry: 'hosts/webex/main.tsx', base: '/webex/' },
];

function newestMtime(dir) {
  let newest = 0;
  if (!fs.existsSync(dir)) return 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(p) : fs.statSync(p).mtimeMs);
  }
  return newest;
}

function isStale() {
  if (!fs.existsSync(stamp)) return true;
  const built = fs.statSync(stamp).mtimeMs;
  const sources = Math.max(
    ...watchedDirs.map((d) => newestMtime(path.join(root, d))),
    fs.statSync(path.join(root, 'build.mjs')).mtimeMs,
    fs.statSync(path.join(root, 'package.json')).mtimeMs,
  );
  return sources > built;
}

// The Webex SDK pulls all of core-js for Promise: hosts/webex/core-js-shim.mjs stands in for it.

/** What is worth a compressed copy: text that browsers ask for, at least 1 KB (smaller gains little). */
const PRECOMPRESS = /\.(js|css|html|svg|json|txt)$/;
const PRECOMPRESS_MIN_BYTES = 1024;

/**
 * Writes `<file>.br` (brotli 11) and `<file>.gz` (gzip 9) beside every text file under `dir`, once,
 * at build time: the server picks one by Accept-Encoding (api/static.ts) and never compresses a
 * built file per request.
 */
function precompress(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      precompress(p);
      continue;
    }
    if (!PRECOMPRESS.test(entry.name)) continue;
    const buf = fs.readFileSync(p);
    if (buf.length < PRECOMPRESS_MIN_BYTES) continue;
    fs.writeFileSync(`${p}.gz`, gzipSync(buf, { level: 9 }));
    fs.writeFileSync(
      `${p}.br`,
      brotliCompressSync(buf, {
        params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: buf.length },
      }),
    );
  }
}

/** Bytes a file travels as: its .gz or .br copy when the build made one, else itself. */
function servedSize(file, suffix) {
  return fs.existsSync(file + suffix) ? fs.statSync(file + suffix).size : fs.statSync(file).size;
}

/** JS an entry loads before anything lazy: the entry chunk and its static imports. */
function initialFiles(metafile, entryOut) {
  const seen = new Set();
  const walk = (file) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const imp of metafile.outputs[file]?.imports ?? []) {
      if (imp.kind === 'import-statement' && !imp.external) walk(imp.path);
    }
  };
  walk(entryOut);
  return [...seen];
}

function html({ base, script, css }) {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Switchboard</title>
<link rel="icon" href="${base}favicon.svg" type="image/svg+xml">
${css.map((c) => `<link rel="stylesheet" href="${base}${c}">`).join('\n')}
</head>
<body>
<div id="root"></div>
<script type="module" src="${base}${script}"></script>
</body>
</html>
`;
}

async function buildUi() {
  const sizes = {};
  for (const e of ENTRIES) {
    const outdir = path.join(dist, e.name);
    fs.rmSync(outdir, { recursive: true, force: true });
    const result = await esbuild.build({
      entryPoints: { main: path.join(root, e.entry) },
      outdir,
      bundle: true,
      splitting: true,
      format: 'esm',
      minify: true,
      sourcemap: true,
      target: ['chrome110', 'safari16', 'firefox115'],
      entryNames: '[name]-[hash]',
      chunkNames: 'chunks/[name]-[hash]',
      assetNames: 'assets/[name]-[hash]',
      metafile: true,
      jsx: 'automatic',
      define: { 'process.env.NODE_ENV': '"production"' },
      loader: { '.svg': 'file', '.png': 'file' },
      plugins: e.name === 'webex' ? [coreJsShim] : [],
      logLevel: 'warning',
    });
    const outputs = Object.keys(result.metafile.outputs);
    // Lazy chunks carry an entryPoint too (their dynamic-import target): match the host entry itself.
    const entryOut = outputs.find((o) => o.endsWith('.js') && result.metafile.outputs[o].entryPoint === e.entry);
    const cssOut = outputs.filter((o) => o.endsWith('.css') && path.dirname(o) === path.relative(root, outdir));
    const rel = (o) => path.relative(outdir, path.join(root, o));
    fs.writeFileSync(path.join(outdir, 'index.html'), html({ base: e.base, script: rel(entryOut), css: cssOut.map(rel) }));
    fs.copyFileSync(path.join(root, 'src/assets/favicon.svg'), path.join(outdir, 'favicon.svg'));
    // pdf.js for the document field editor, served as its own files and imported at run time
    // (bundling it would put esbuild's class-field helpers into the entry's shared chunk)
    fs.mkdirSync(path.join(outdir, 'vendor/pdfjs'), { recursive: true });
    for (const f of ['pdf.min.mjs', 'pdf.worker.min.mjs']) {
      fs.copyFileSync(
        path.join(root, 'node_modules/pdfjs-dist/legacy/build', f),
        path.join(outdir, 'vendor/pdfjs', f.replace(/\.mjs$/, '.js')),
      );
    }
    precompress(outdir);
    // what a browser receives: the precompressed copies the server sends (api/static.ts)
    let min = 0;
    let gzip = 0;
    let br = 0;
    for (const f of initialFiles(result.metafile, entryOut)) {
      const file = path.join(root, f);
      min += fs.statSync(file).size;
      gzip += servedSize(file, '.gz');
      br += servedSize(file, '.br');
    }
    let total = 0;
    for (const o of outputs) if (o.endsWith('.js')) total += result.metafile.outputs[o].bytes;
    sizes[e.name] = { initialMin: min, initialGzip: gzip, initialBrotli: br, allJsMin: total };
  }
  fs.writeFileSync(path.join(dist, 'sizes.json'), JSON.stringify(sizes, null, 2));
  const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
  console.log('entry   initial JS (min)   as served (gzip)   as served (br)   all JS (min)');
  for (const [name, s] of Object.entries(sizes)) {
    console.log(
      `${name.padEnd(7)} ${kb(s.initialMin).padStart(16)} ${kb(s.initialGzip).padStart(18)} ${kb(s.initialBrotli).padStart(16)} ${kb(s.allJsMin).padStart(14)}`,
    );
  }
  if (sizes.web.initialGzip > BROWSER_INITIAL_BUDGET) {
    console.warn(
      `warning: browser initial JS ${kb(sizes.web.initialGzip)} gzip is over the ${kb(BROWSER_INITIAL_BUDGET)} budget`,
    );
  }
  return sizes;
}

/**
 * Scripts of the customer pages (/c/<token>): one small bundle per file in src/customer-pages,
 * hashed, under dist/web/customer-pages (served with the year-long cache of hashed assets), and
 * dist/customer-pages.json naming each one's file for the frame to reference with its nonce.
 */
async function buildCustomerScripts() {
  const srcDir = path.join(root, 'src/customer-pages');
  const outdir = path.join(dist, 'web/customer-pages');
  fs.rmSync(outdir, { recursive: true, force: true });
  const names = fs
    .readdirSync(srcDir)
    .filter((f) => f.endsWith('.ts'))
    .map((f) => f.slice(0, -3));
  const result = await esbuild.build({
    entryPoints: Object.fromEntries(names.map((n) => [n, path.join(srcDir, `${n}.ts`)])),
    outdir,
    bundle: true,
    format: 'iife',
    minify: true,
    target: ['chrome110', 'safari16', 'firefox115'],
    entryNames: '[name]-[hash]',
    metafile: true,
    logLevel: 'warning',
  });
  const manifest = {};
  for (const [out, meta] of Object.entries(result.metafile.outputs)) {
    if (meta.entryPoint) manifest[path.basename(meta.entryPoint, '.ts')] = `/customer-pages/${path.basename(out)}`;
  }
  fs.writeFileSync(path.join(dist, 'customer-pages.json'), JSON.stringify(manifest, null, 2));
  precompress(outdir);
}

// Pure-JS packages every start loads, bundled into the server: kysely alone is 265 small module
// files (about half a second of resolving and reading under load), jose, hono and valibot another
// hundred. Everything else stays in node_modules: packages with files of their own (PGlite's
// WebAssembly), native or large ones loaded lazily (pg, stripe, undici, the AWS SDK).
const BUNDLED_IN_SERVER = new Set([
  'kysely',
  'hono',
  '@hono/node-server',
  'jose',
  'valibot',
  '@valibot/to-json-schema',
  'csv-stringify',
  'ipaddr.js',
]);

/** esbuild's `packages: 'external'`, except for the named packages. */
function externalExcept(bundled) {
  return {
    name: 'external-except',
    setup(build) {
      build.onResolve({ filter: /^[^./]/ }, (args) => {
        if (args.path.startsWith('node:')) return { external: true };
        const name = args.path.startsWith('@') ? args.path.split('/').slice(0, 2).join('/') : args.path.split('/')[0];
        return bundled.has(name) ? undefined : { external: true };
      });
    },
  };
}

async function buildServer() {
  // Split, so what the server imports lazily (the SVG sanitiser and jsdom, seconds of loading)
  // stays out of the start-up path; server and CLI share the chunks.
  fs.rmSync(path.join(dist, 'server-chunks'), { recursive: true, force: true });
  await esbuild.build({
    entryPoints: { server: path.join(root, 'api/server.ts'), cli: path.join(root, 'api/cli.ts') },
    outdir: dist,
    splitting: true,
    chunkNames: 'server-chunks/[name]-[hash]',
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    plugins: [externalExcept(BUNDLED_IN_SERVER)],
    sourcemap: true,
    logLevel: 'warning',
  });
  // The PDF worker threads' script (api/apps/document-signature/pdf-sandbox.ts, the same options
  // as PDF_WORKER_BUILD there): one file with pdf-lib inside, which loads in half the time of
  // pdf-lib's few hundred module files.
  await esbuild.build({
    entryPoints: { 'pdf-worker': path.join(root, 'api/apps/document-signature/pdf-worker.ts') },
    outdir: dist,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: true,
    logLevel: 'warning',
  });
}

if (args.has('--if-stale') && !isStale()) process.exit(0);
// Loaded only when there is something to build: `npm start` on a built tree pays for none of it.
const esbuild = await import('esbuild');
const { coreJsShim } = await import('./hosts/webex/core-js-shim.mjs');
fs.mkdirSync(dist, { recursive: true });
// the UI build empties dist/web's entry folder first, so the customer scripts come after it
await Promise.all([buildUi().then(buildCustomerScripts), buildServer()]);
fs.writeFileSync(stamp, new Date().toISOString());
