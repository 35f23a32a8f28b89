import { spawn, execFile, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { chromium, type Browser, type BrowserContext, type Locator, type Page, type Request } from 'playwright-core';
import { inject } from 'vitest';
import { freePort } from '../support/free-port';
import { signInLink } from '../../api/auth/sessions';

declare module 'vitest' {
  export interface ProvidedContext {
    /** where the run keeps its seeded data directories (test/e2e/global-setup.ts) */
    e2eTemplateDir: string | null;
  }
}

// End-to-end tests drive the built product as a person would: the real server (dist/server.mjs)
// on a temporary data directory, signed in through a CLI sign-in link, in Debian's Chromium.

const run = promisify(execFile);
export const ROOT = path.resolve(import.meta.dirname, '../..');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export { freePort } from '../support/free-port';

export type RunningServer = {
  url: string;
  dataDir: string;
  env: Record<string, string>;
  /** everything the server printed */
  output: () => string;
  stop: () => Promise<void>;
  /** ends the process with SIGKILL (a crash: nothing is finished or handed on) */
  kill: () => Promise<void>;
};

/** The environment a test server runs with: embedded database in a fresh directory. */
export async function serverEnv(extra: Record<string, string> = {}): Promise<Record<string, string>> {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-e2e-'));
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? os.tmpdir(),
    NODE_ENV: 'development',
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: dataDir,
    AUTO_SEED: 'true',
    // each test brings the Stripe it means (a loopback peer, or none); the development stand-in
    // is started only by the tests about it (its port would be PORT + 1, which another test's
    // server may hold)
    ...(Object.keys(extra).some((k) => k.startsWith('STRIPE_')) ? {} : { DEV_STRIPE: 'false' }),
    ...extra,
  };
  return env;
}

/** Runs the built CLI (`node dist/cli.mjs ...`) with the server's environment. */
export async function cli(
  env: Record<string, string>,
  ...args: string[]
): Promise<{ stdout: string; stderr: string; code: number }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [path.join(ROOT, 'dist/cli.mjs'), ...args], { env, cwd: ROOT });
    return { stdout, stderr, code: 0 };
  } catch (err) {
    const e = err as { stdout: string; stderr: string; code: number };
    return { stdout: e.stdout, stderr: e.stderr, code: e.code };
  }
}

/**
 * Seeds the database, prints sign-in links for `linkFor` through the CLI (the embedded database
 * admits one process, so before the server holds it), then starts the server.
 */
export async function startServer(
  options: { env?: Record<string, string>; linkFor?: string[] } = {},
): Promise<RunningServer & { links: Record<string, string> }> {
  const env = await serverEnv(options.env);
  const links: Record<string, string> = {};
  // A server on an empty data directory would seed itself as it starts, and make the apps'
  // history in the background while the tests run: a copy of the run's seeded directory is the
  // same data, there at once.
  const template = seedsAlike(options.env) ? await seededDataDir() : null;
  if (template) fs.cpSync(template, env.DATA_DIR!, { recursive: true });
  if (options.linkFor?.length) {
    if (!template) {
      const seeded = await cli(env, 'seed');
      if (seeded.code !== 0) throw new Error(`seed failed: ${seeded.stderr}`);
    }
    const issued = template ? issuedTokens(template) : {};
    const missing = options.linkFor.filter((email) => !issued[email]);
    for (const email of options.linkFor) if (issued[email]) links[email] = signInLink(env.PUBLIC_URL!, issued[email]);
    if (missing.length) {
      const r = await cli(env, 'link', ...missing); // one process, a link per line in that order
      if (r.code !== 0) throw new Error(`link ${missing.join(' ')} failed: ${r.stderr}`);
      r.stdout
        .trim()
        .split('\n')
        .forEach((link, i) => (links[missing[i]!] = link));
    }
  }
  const server = await startProcess(env);
  return { ...server, links };
}

// `cli seed` is most of a file's start (tens of seconds of CPU: the demo accounts and every
// app's history). The first file of a run that needs it seeds a data directory; the others copy
// it. Only a server whose settings cannot change what the seed writes takes a copy: these keys
// point the server at its test peers or set up sign-in from Zoom and Webex, which the seed does
// not read. The server's own address (PORT, PUBLIC_URL: a passkeys file on http://localhost) is
// in the demo history only, in its texted links and its passkeys' RP ID, which no test follows;
// nor does the seed read the development Stripe stand-in's settings (DEV_STRIPE*), nor how often
// the server polls for due jobs (JOB_POLL_MS).
const SEED_NEUTRAL =
  /^(CNAME_TARGET|DEV_STRIPE|DEV_STRIPE_PORT|DNS_SERVERS|JOB_POLL_MS|OUTBOUND_ALLOW_HOSTS|OUTBOUND_CA_FILE|PORT|PUBLIC_URL|STRIPE_[A-Z_]+|TWILIO_API_URL|WEBEX_[A-Z_]+|ZOOM_[A-Z_]+)$/;
const seedsAlike = (env: Record<string, string> = {}) => Object.keys(env).every((k) => SEED_NEUTRAL.test(k));
// The seed is dated when it is made; a copy older than this is made anew, so the demo data never
// lags the clock by more than twenty minutes (a whole e2e run takes less: one seed per run).
const SEED_MAX_AGE_MS = 1_200_000;

/** What the run's global setup provided (test/e2e/global-setup.ts), or null outside a vitest worker. */
export function injected(key: 'e2eTemplateDir'): string | null {
  try {
    return inject(key) ?? null;
  } catch {
    return null; // outside a vitest worker
  }
}

/**
 * This run's current seeded data directory, made if there is none younger than SEED_MAX_AGE_MS
 * (test/e2e/global-setup.ts starts the first before any file), or null outside a run with that
 * setup. `dir` is where the run keeps them.
 */
export async function seededDataDir(dir = injected('e2eTemplateDir')): Promise<string | null> {
  if (!dir) return null;
  return madeOncePerRun(dir, 'seeded', async (box) => {
    const env = await serverEnv();
    const seeded = await cli(env, 'seed');
    if (seeded.code !== 0) throw new Error(`seed failed: ${seeded.stderr}`);
    // Each `cli link` is a process that opens the database: 2-5 s, and most files asked for one
    // or two. The sessions of the admins most files sign in as are made here, once (one process,
    // a link per line in the order asked): every copy of this directory holds them (and the
    // secret that signs them), unused, so each file's link is as fresh as one it made itself.
    // They last the session's 12 hours.
    const made = await cli(env, 'link', ...PRE_ISSUED);
    if (made.code !== 0) throw new Error(`link ${PRE_ISSUED.join(' ')} failed: ${made.stderr}`);
    const lines = made.stdout.trim().split('\n');
    const tokens = Object.fromEntries(PRE_ISSUED.map((email, i) => [email, new URL(lines[i]!).searchParams.get('token')!]));
    fs.writeFileSync(path.join(env.DATA_DIR!, ISSUED_FILE), JSON.stringify(tokens));
    fs.renameSync(env.DATA_DIR!, box);
  });
}

/** The admins whose sign-in sessions the seeded directory carries (see seededDataDir). */
const PRE_ISSUED = ['owner@acme.test', 'admin@acme.test', 'owner@globex.test', 'staff@provider.test'];
const ISSUED_FILE = 'e2e-sign-in-tokens.json';
const issuedTokens = (dataDir: string): Record<string, string> => {
  const file = path.join(dataDir, ISSUED_FILE);
  return fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, string>) : {};
};

/**
 * The run's newest `<name>-<when it began>` in `dir` younger than SEED_MAX_AGE_MS, else made by
 * `make` (which must leave it at the path it is given, whole): one maker at a time, across the
 * run's workers; the others wait for what it makes. Null if making it failed.
 */
export async function madeOncePerRun(dir: string, name: string, make: (box: string) => Promise<void>): Promise<string | null> {
  // The newest copy made less than SEED_MAX_AGE_MS ago (its name is when its seed began), so a
  // run makes one every SEED_MAX_AGE_MS at most, not one at every such mark of the clock.
  const pattern = new RegExp(`^${name}-\\d+$`);
  const fresh = () => {
    const made = fs.readdirSync(dir).flatMap((n) => (pattern.test(n) ? [Number(n.slice(name.length + 1))] : []));
    const newest = Math.max(-Infinity, ...made);
    return Date.now() - newest < SEED_MAX_AGE_MS ? path.join(dir, `${name}-${newest}`) : null;
  };
  const found = fresh();
  if (found) return found;
  const lock = path.join(dir, `${name}.making`);
  const failed = path.join(dir, `${name}.failed`);
  let maker = false;
  try {
    fs.writeFileSync(lock, String(process.pid), { flag: 'wx' });
    maker = true;
  } catch {
    /* another file, or the run's setup, is making it */
  }
  if (maker) {
    try {
      const box = path.join(dir, `${name}-${Date.now()}`);
      await make(`${box}.part`);
      fs.renameSync(`${box}.part`, box); // appears whole
      return box;
    } catch (err) {
      fs.writeFileSync(failed, String(err));
      throw err;
    } finally {
      fs.rmSync(lock, { force: true });
    }
  }
  for (const end = Date.now() + 600_000; ; await new Promise((r) => setTimeout(r, 100))) {
    const box = fresh();
    if (box) return box;
    if (fs.existsSync(failed) || Date.now() > end) return null;
  }
}

export async function startProcess(env: Record<string, string>): Promise<RunningServer> {
  let output = '';
  const child: ChildProcess = spawn(process.execPath, [path.join(ROOT, 'dist/server.mjs')], {
    env,
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const url = env.PUBLIC_URL!;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${output}`);
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.ok) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not start within 60 s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  return {
    url,
    dataDir: env.DATA_DIR!,
    env,
    output: () => output,
    kill: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGKILL');
      await exited;
    },
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
    },
  };
}

const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * The browser of a test file; each test takes a new context from it. (One Chromium shared by the
 * whole run through launchServer/connect was tried: a remote connection has no download.path()
 * and reports route handlers of closed contexts as unhandled errors, and a launch costs a second.)
 */
export async function launchBrowser(extraArgs: string[] = []): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`Chromium is not installed at ${CHROMIUM}: apt-get install chromium`);
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: [...CHROMIUM_ARGS, ...extraArgs] });
  // Every context counts its requests from the first one, so settle() knows what is in flight
  // even when it is called after the page started loading.
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (...args) => track(await newContext(...args));
  browser.newPage = async (...args) => {
    const context = await browser.newContext(...args);
    const page = await context.newPage();
    // as Playwright's own newPage does: the page owns its context
    page.on('close', () => void context.close().catch(() => {}));
    return page;
  };
  return browser;
}

const inFlight = new WeakMap<BrowserContext, Set<Request>>();

/** The live-updates stream stays open for as long as the tab: it is never "in flight" work. */
const isLiveStream = (request: Request) => new URL(request.url()).pathname === '/api/live';

function track(context: BrowserContext): BrowserContext {
  const pending = new Set<Request>();
  inFlight.set(context, pending);
  context.on('request', (request) => {
    if (!isLiveStream(request)) pending.add(request);
  });
  context.on('requestfinished', (request) => pending.delete(request));
  context.on('requestfailed', (request) => pending.delete(request));
  return context;
}

/**
 * The longest a test waits for a page to settle before it looks at it anyway.
 */
export const SETTLE_MS = 2_000;

/**
 * Waits until the page has loaded and no request but the live stream has been in flight for
 * `quietMs` (Playwright's 'networkidle' never comes on a signed-in tab, whose live stream stays
 * open), at most SETTLE_MS: what a test then sees is what the user sees once the data is in.
 */
export async function settle(page: Page, quietMs = 150): Promise<void> {
  const deadline = Date.now() + SETTLE_MS;
  await page.waitForLoadState('load', { timeout: SETTLE_MS }).catch(() => {});
  const pending = inFlight.get(page.context());
  if (!pending) {
    await page.waitForLoadState('networkidle', { timeout: Math.max(0, deadline - Date.now()) }).catch(() => {});
    return;
  }
  let quietSince = Date.now();
  while (Date.now() < deadline) {
    if (pending.size > 0) quietSince = Date.now();
    else if (Date.now() - quietSince >= quietMs) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * Opens `path` in the console already loaded in `page`, as its own links do (the router follows
 * the history): each screen then costs what a click costs, not a reload of the console.
 */
export async function visit(page: Page, path: string): Promise<void> {
  await page.evaluate((to) => {
    history.pushState(null, '', to);
    dispatchEvent(new PopStateEvent('popstate'));
  }, path);
  await page.waitForFunction((to) => location.pathname === to, path);
}

/**
 * Chooses in a picker of "Send to a customer" from the keyboard, as an agent on a call does: types
 * `search`, waits for the list, and Enter takes the first match, which must be titled `title`.
 */
export async function pickChoice(scope: Locator, label: string | RegExp, search: string, title: string): Promise<void> {
  const box = scope.getByRole('combobox', { name: label });
  await box.fill(search);
  const first = scope.getByRole('listbox', { name: label }).getByRole('option').first();
  await first.and(scope.locator('[aria-selected="true"]')).waitFor();
  const name = (await first.getAttribute('aria-label')) ?? '';
  if (!name.startsWith(`${title}, `) && name !== title)
    throw new Error(`the first ${String(label)} matching "${search}" is "${name}", not "${title}"`);
  await box.press('Enter');
  if ((await box.inputValue()) !== title)
    throw new Error(`the ${String(label)} picker holds "${await box.inputValue()}" after Enter, not "${title}"`);
}
