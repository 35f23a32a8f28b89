// The screen walk: every screen of the console at 1440, 400 and 360 px, photographed full page
// for a person to look at, with what a machine can tell about each (the tab's title, sideways
// scrolling, text wider than its box, wrapping badges, console errors) and the automatic checks
// every screen is held to (docs/console.md, "How a screen is judged"): no sideways scroll, no
// text cut by its box, an app dashboard's "Send to a customer" starting within the first 600 px
// at 400 px, no id as a list's first column, axe: no serious or critical violation. `npm run walk` builds if
// stale and runs it; the built server runs on a fresh seeded embedded database on a free
// loopback port, signed in through CLI sign-in links, with test/e2e/harness.ts itself (bundled
// here for plain Node) starting the server and the browser as the end-to-end tests do.
//
//   WALK_DIR=/tmp/walk        where screenshots/<width>/<screen>.png and summary.json go
//   WALK_WIDTHS=1440,400,360  the widths
//   WALK_ONLY=regexp          only the screens whose name matches
//   WALK_SEEDED=dir           copy this seeded data directory instead of seeding (90 s saved)
//
// One browser, one page at a time: it is meant to run beside other work.
import fs from 'node:fs';
import path from 'node:path';
import { importTypeScript } from '../support/import-typescript.mjs';

const OUT = process.env.WALK_DIR ?? '/tmp/walk';
const WIDTHS = (process.env.WALK_WIDTHS ?? '1440,400,360').split(',').map(Number);
const ONLY = process.env.WALK_ONLY ? new RegExp(process.env.WALK_ONLY) : null;
const HEIGHT = 900;

/** The registries the router is made from (app routes, settings sections) and the e2e harness. */
const load = () =>
  importTypeScript(
    'walk',
    "export { APPS } from './api/contract/apps'; export { SETTINGS_SECTIONS } from './src/pages/settings/sections'; export * from './test/e2e/harness'; export { axeViolations } from './test/e2e/axe';",
  );

/** Where an app dashboard's main action must start at the side panel's width. */
const MAIN_ACTION_PX = 600;
const SIDE_PANEL_PX = 400;

/** Seeds (or copies WALK_SEEDED), makes sign-in links, starts the server: startServer of the harness, with the copy. */
async function startServer(harness, emails) {
  // the development Stripe stand-in, as `npm start` runs it (on PORT + 1): Payments is walked connected
  const env = await harness.serverEnv({ DEV_STRIPE: 'true' });
  if (process.env.WALK_SEEDED) fs.cpSync(process.env.WALK_SEEDED, env.DATA_DIR, { recursive: true });
  else await checked(harness.cli(env, 'seed'));
  const links = {};
  // the embedded database admits one process: links before the server holds it (one per line)
  const lines = (await checked(harness.cli(env, 'link', ...emails))).stdout.trim().split('\n');
  emails.forEach((email, i) => (links[email] = lines[i]));
  const server = await harness.startProcess(env);
  const stop = async () => {
    await server.stop();
    fs.rmSync(env.DATA_DIR, { recursive: true, force: true });
  };
  // the server's own last lines, said when a screen finds it gone (the walk's pages only show 'connection refused')
  return { url: server.url, links, stop, output: () => server.output() };
}

async function checked(ran) {
  const r = await ran;
  if (r.code !== 0) throw new Error(r.stderr);
  return r;
}

const tokenOf = (link) => new URL(link).searchParams.get('token');

async function api(url, token, p, init = {}) {
  const res = await fetch(`${url}/api/${p}`, {
    ...init,
    headers: { Authorization: `Bearer ${token}`, 'content-type': 'application/json', ...init.headers },
  });
  if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${p}: ${res.status} ${await res.text()}`);
  return res.json();
}

/**
 * Globex's Payments with Stripe connected, as an admin connects it: through the stand-in's
 * authorize page, then a product and a payment requested, so its screens show a working app.
 */
async function connectStripe(browser, server) {
  const GLOBEX = 'owner@globex.test';
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(server.links[GLOBEX]);
    await page.locator('main h1').first().waitFor({ timeout: 20_000 });
    await page.goto(`${server.url}/payments/settings/stripe`);
    await page.getByRole('button', { name: 'Connect with Stripe' }).click();
    await page.getByRole('link', { name: 'Connect my Stripe account' }).click();
    await page.getByText('Stripe is connected').waitFor();
  } finally {
    await context.close();
  }
  const token = tokenOf(server.links[GLOBEX]);
  await api(server.url, token, 'sms', { method: 'POST', body: JSON.stringify({ provider: 'dev-outbox' }) });
  await api(server.url, token, 'payments/products', {
    method: 'POST',
    body: JSON.stringify({ name: 'Gutter cleaning', unitAmount: 8500, currency: 'usd' }),
  });
  await api(server.url, token, 'payments/actions/request', {
    method: 'POST',
    body: JSON.stringify({
      input: { phoneNumber: '+15550109901', amount: '12.50', description: 'Deposit', customerRef: 'CUST-WALK' },
    }),
  });
}

/** Every screen: [name, who, path]. `who` is a demo e-mail, 'visitor' (signed out) or 'ghost'. */
async function screens(server, { APPS, SETTINGS_SECTIONS }) {
  const OWNER = 'owner@acme.test';
  const STAFF = 'staff@provider.test';
  const SIGNER = 'owner@umbrella.test';
  const owner = tokenOf(server.links[OWNER]);
  const staff = tokenOf(server.links[STAFF]);
  const list = [
    ['sign-in', 'visitor', '/'],
    ['sign-up', 'visitor', '/sign-up'],
    ['zoom-in-browser', 'visitor', '/zoom/'],
    ['webex-in-browser', 'visitor', '/webex/'],
    ['apps', OWNER, '/'],
    ['apps-supervisor', 'supervisor@acme.test', '/'],
    ['support', OWNER, '/support'],
    ['support-ticket', OWNER, '/support/ticket'],
    ['sales', OWNER, '/sales'],
    ['resources', OWNER, '/resources'],
    ['legal-dpa', OWNER, '/legal/data-processing-addendum'],
    ['not-found', OWNER, '/no-such-page'],
    ['dev-sms-outbox', OWNER, '/dev/sms-outbox'],
    ...SETTINGS_SECTIONS.map((s) => [`settings-${s.slug}`, OWNER, `/settings/${s.slug}`]),
  ];
  const accounts = await api(server.url, staff, 'watch-tower/accounts').catch(() => ({ accounts: [] }));
  const globex = accounts.accounts.find((a) => a.name === 'Globex Care');
  const ghost = globex
    ? (await api(server.url, staff, 'watch-tower/ghost-mode', { method: 'POST', body: JSON.stringify({ accountId: globex.id }) }))
        .token
    : null;
  // ids for the routes with parameters, from the API the pages use: [who, id, version]
  const forms = await api(server.url, owner, 'e-form/forms').catch(() => []);
  const documents = await api(server.url, tokenOf(server.links[SIGNER]), 'document-signature/documents').catch(() => []);
  const published = documents.find((d) => d.publishedVersion);
  const records = {
    'e-form': forms[0] && [OWNER, forms[0].id],
    'document-signature': published && [SIGNER, published.id, published.publishedVersion],
  };
  // Acme's Document Signature and Payments are not started (their screens say so): the apps are
  // walked where the demo has them running, Umbrella's signatures and Globex's payments (Stripe
  // connected: connectStripe)
  const RUNS_IT = { 'document-signature': SIGNER, payments: 'owner@globex.test' };
  for (const app of APPS) {
    const who = RUNS_IT[app.id] ?? (app.released ? OWNER : STAFF);
    if (RUNS_IT[app.id]) list.push([`${app.id}-not-started`, OWNER, `/${app.id}`]);
    for (const route of app.routes) {
      if (route.endsWith('/callback')) continue; // Stripe's return address, not a screen
      const name = `${app.id}${route ? `-${route.replace(/[/:]+/g, '-')}` : ''}`;
      if (!route.includes(':')) {
        list.push([name, who, `/${app.id}${route ? `/${route}` : ''}`]);
        continue;
      }
      const record = records[app.id];
      if (!record) {
        console.warn(`skipped /${app.id}/${route}: no record to open`);
        continue;
      }
      list.push([name, record[0], `/${app.id}/${route.replace(':id', record[1]).replace(':version', String(record[2]))}`]);
    }
  }
  list.push(['watch-tower', STAFF, '/watch-tower'], ['watch-tower-accounts', STAFF, '/watch-tower/accounts']);
  if (globex)
    list.push(
      ['watch-tower-account', STAFF, `/watch-tower/accounts/${globex.id}`],
      ['ghost-confirm', STAFF, `/watch-tower/accounts/${globex.id}#ghost`],
    );
  list.push(
    ['ghost-apps', 'ghost', '/'],
    ['ghost-developers', 'ghost', '/settings/developers'],
    ['ghost-billing', 'ghost', '/settings/billing'],
  );
  // customer pages: a fresh link of each kind, sent as an agent would (the demo history's are used)
  const send = async (token, app, key, input) => {
    const phone = `+1555010${String(Math.floor(Math.random() * 10000)).padStart(4, '0')}`;
    await api(server.url, token, `${app}/actions/${key}`, {
      method: 'POST',
      body: JSON.stringify({ input: { phoneNumber: phone, ...input } }),
    });
    const sent = (await api(server.url, token, 'dev/sms-outbox')).find((m) => m.to === phone);
    return new URL(/(https?:\/\/\S+\/c\/[\w-]+)/.exec(sent.body)[1]).pathname;
  };
  const signer = tokenOf(server.links[SIGNER]);
  const fresh = [
    [
      'customer-passkey-enroll',
      () => send(owner, 'passkeys', 'enroll', { customerRef: 'CUST-WALK', displayName: 'Ada Lovelace' }),
    ],
    ['customer-form', () => send(owner, 'e-form', 'send', { form: forms.find((f) => f.status === 'published')?.id })],
    [
      'customer-signature',
      () => send(signer, 'document-signature', 'send', { documentId: published?.id, signerName: 'Ada Lovelace' }),
    ],
  ];
  for (const [name, make] of fresh) {
    if (ONLY && !ONLY.test(name)) continue;
    try {
      list.push([name, 'customer', await make()]);
    } catch (error) {
      console.warn(`skipped ${name}: ${String(error).slice(0, 200)}`);
    }
  }
  // and one the caller already used
  const used = (await api(server.url, owner, 'dev/sms-outbox')).filter((m) => /fill in/.test(m.body)).at(-1);
  if (used) list.push(['customer-used-link', 'customer', new URL(/(https?:\/\/\S+\/c\/[\w-]+)/.exec(used.body)[1]).pathname]);
  return { ghost, list: list.filter(([name]) => !ONLY || ONLY.test(name)) };
}

/** What the page shows once its data is in: the harness's settle, then no spinner. */
async function settle(harness, page) {
  await harness.settle(page, 250);
  await page
    .waitForFunction(() => !document.querySelector('[aria-busy="true"], .spinner'), undefined, { timeout: 8_000 })
    .catch(() => {});
  await page.waitForTimeout(200);
}

/** What a machine can see wrong on the page as it is. */
function inspect() {
  const width = document.documentElement.clientWidth;
  const describe = (el) =>
    `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${[...el.classList].map((c) => `.${c}`).join('')}`;
  const visible = (el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
  const text = (el) => (el.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 60);
  const textOverflow = [];
  const wrappingBadges = [];
  for (const el of document.querySelectorAll('body *')) {
    if (!visible(el) || el.clientWidth <= 2) continue; // visually hidden text is 1 px on purpose
    const cs = getComputedStyle(el);
    const scrolls = cs.overflowX === 'auto' || cs.overflowX === 'scroll';
    const ownText = [...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.textContent.trim());
    if (!scrolls && el.scrollWidth > el.clientWidth + 1 && (ownText || cs.overflowX !== 'visible') && text(el)) {
      const how = cs.textOverflow === 'ellipsis' ? 'ellipsis' : cs.overflowX === 'visible' ? 'spills' : 'clipped';
      textOverflow.push({ how, el: describe(el), text: text(el), over: el.scrollWidth - el.clientWidth });
    }
    if (/\bbadge\b/.test(el.className)) {
      const range = document.createRange();
      range.selectNodeContents(el);
      const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
      if (lines.size > 1) wrappingBadges.push({ el: describe(el), text: text(el) });
    }
  }
  const scroller = document.scrollingElement ?? document.documentElement;
  // an id as the first column a person reads: a UUID, a Stripe id or one shortened to "abcdef…123456"
  const ID =
    /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-f]{6}…[0-9a-f]{6}|(cs|pi|cus|sub|in)_[\w…]+)$/i;
  const idFirst = [...document.querySelectorAll('table')]
    .filter(visible)
    .map((t) => ({
      caption: text(t.querySelector('caption') ?? t),
      first: text(t.querySelector('tbody tr td, tbody tr th') ?? t),
    }))
    .filter((t) => t.first && ID.test(t.first))
    .map((t) => `${t.caption}: ${t.first}`);
  const send = [...document.querySelectorAll('h2')].find((h) => h.textContent?.trim() === 'Send to a customer');
  const mainAction = document.querySelector('.dashboard-layout')
    ? send
      ? Math.round((send.closest('.card') ?? send).getBoundingClientRect().top + window.scrollY)
      : -1
    : null;
  return {
    title: document.title,
    idFirst,
    mainAction,
    sideways: scroller.scrollWidth - scroller.clientWidth,
    viewport: width,
    h1: [...document.querySelectorAll('h1')].map(text),
    textOverflow: textOverflow.slice(0, 12),
    wrappingBadges,
  };
}

/** The checks every screen is held to, each failure in words ([] when it passes them all). */
function checksOf(seen, width) {
  const failed = [];
  if (seen.sideways > 0) failed.push(`scrolls sideways ${seen.sideways}px`);
  const cut = seen.textOverflow.filter((t) => t.how !== 'ellipsis');
  if (cut.length)
    failed.push(
      `text cut: ${cut
        .map((t) => `${t.el} "${t.text.slice(0, 24)}"`)
        .slice(0, 3)
        .join(', ')}`,
    );
  if (width === SIDE_PANEL_PX && seen.mainAction !== null && (seen.mainAction < 0 || seen.mainAction > MAIN_ACTION_PX))
    failed.push(`main action at ${seen.mainAction < 0 ? 'none' : `${seen.mainAction}px`}`);
  if (seen.idFirst.length) failed.push(`id first: ${seen.idFirst.slice(0, 2).join(', ')}`);
  if (seen.axe.length) failed.push(`axe: ${seen.axe.join(', ')}`);
  return failed;
}

async function main() {
  const reg = await load();
  const emails = ['owner@acme.test', 'supervisor@acme.test', 'staff@provider.test', 'owner@umbrella.test', 'owner@globex.test'];
  console.log(process.env.WALK_SEEDED ? 'Copying the seeded data…' : 'Seeding the demo data (about 90 s)…');
  const server = await startServer(reg, emails);
  const browser = await reg.launchBrowser();
  const results = [];
  try {
    await connectStripe(browser, server).catch((error) =>
      console.warn(`Payments is walked without Stripe: ${String(error).slice(0, 200)}`),
    );
    const { ghost, list } = await screens(server, reg);
    const ghostLink = ghost && `${server.url}/?token=${ghost}`;
    console.log(`${list.length} screens × ${WIDTHS.length} widths → ${OUT}`);
    for (const width of WIDTHS) {
      fs.mkdirSync(path.join(OUT, String(width)), { recursive: true });
      const contexts = new Map();
      const pageFor = async (who) => {
        if (contexts.has(who)) return contexts.get(who);
        const context = await browser.newContext({ viewport: { width, height: HEIGHT }, reducedMotion: 'reduce' });
        const page = await context.newPage();
        const errors = [];
        page.on('console', (m) => m.type() === 'error' && errors.push(m.text().slice(0, 200)));
        page.on('pageerror', (e) => errors.push(String(e).slice(0, 200)));
        const link = who === 'ghost' ? ghostLink : server.links[who];
        if (link) {
          await page.goto(link);
          await page
            .locator('main h1')
            .first()
            .waitFor({ timeout: 20_000 })
            .catch(() => {});
        }
        const entry = { page, errors };
        contexts.set(who, entry);
        return entry;
      };
      for (const [name, who, p] of list) {
        const { page, errors } = await pageFor(who);
        errors.length = 0;
        const [pathname, hash] = p.split('#');
        await page.goto(`${server.url}${pathname}`).catch((e) => errors.push(`navigation: ${e.message}`));
        await settle(reg, page);
        if (hash === 'ghost') {
          await page.getByRole('button', { name: 'Ghost Mode' }).click();
          await page
            .getByRole('dialog')
            .waitFor()
            .catch(() => {});
          await page.waitForTimeout(200);
        }
        const seen = await page.evaluate(inspect);
        const axe = await reg
          .axeViolations(page)
          .catch((e) => [{ id: 'axe-failed', impact: 'critical', help: String(e).slice(0, 120), nodes: [] }]);
        seen.axe = axe
          .filter((v) => v.impact === 'serious' || v.impact === 'critical')
          .map((v) => `${v.id} (${v.impact}, ${v.nodes.length})`);
        seen.checks = checksOf(seen, width);
        const file = path.join(OUT, String(width), `${name}.png`);
        // the whole page, up to three screens: a longer one is the same rows again, unreadable when whole
        const height = Math.min(await page.evaluate(() => document.documentElement.scrollHeight), 3 * HEIGHT);
        await page.screenshot({ path: file, fullPage: true, clip: { x: 0, y: 0, width, height } });
        if (hash === 'ghost') await page.keyboard.press('Escape');
        results.push({ name, width, who, path: p, ...seen, consoleErrors: [...errors], file });
        const flags = [
          ...seen.checks,
          seen.wrappingBadges.length && `${seen.wrappingBadges.length} wrapping badges`,
          errors.length && `${errors.length} console errors`,
        ].filter(Boolean);
        console.log(`${String(width).padStart(4)}  ${name.padEnd(44)} ${seen.title.padEnd(60).slice(0, 60)} ${flags.join(', ')}`);
      }
      for (const { page } of contexts.values()) await page.context().close();
    }
  } catch (err) {
    console.error(`The walk stopped; the server's last output:\n${server.output().slice(-4000)}`);
    throw err;
  } finally {
    await browser.close();
    await server.stop();
  }
  fs.writeFileSync(path.join(OUT, 'summary.json'), JSON.stringify(results, null, 2));
  // the automatic checks, screen by screen: what docs/console.md's table is made from
  const byScreen = new Map();
  for (const r of results) {
    const row = byScreen.get(r.name) ?? { screen: r.name };
    row[r.width] = r.checks.length ? r.checks.join('; ') : 'pass';
    byScreen.set(r.name, row);
  }
  const failing = results.filter((r) => r.checks.length);
  fs.writeFileSync(path.join(OUT, 'checks.json'), JSON.stringify([...byScreen.values()], null, 2));
  console.log(
    `\nAutomatic checks: ${results.length - failing.length} of ${results.length} screenshots pass every check (per screen: ${path.join(OUT, 'checks.json')})`,
  );
  if (failing.length)
    console.table(failing.map((r) => ({ screen: r.name, width: r.width, failed: r.checks.join('; ').slice(0, 110) })));
  const flagged = results.filter(
    (r) =>
      r.sideways > 0 ||
      r.textOverflow.length ||
      r.wrappingBadges.length ||
      r.consoleErrors.length ||
      (/Page not found/.test(r.title) && r.name !== 'not-found'),
  );
  console.log(
    `\n${results.length} screenshots; ${flagged.length} with something a machine can see (details in ${path.join(OUT, 'summary.json')}):`,
  );
  console.table(
    flagged.map((r) => ({
      screen: r.name,
      width: r.width,
      title: r.title.slice(0, 40),
      sideways: r.sideways,
      overflowing: r.textOverflow
        .map((t) => `${t.how} ${t.el}`)
        .join('; ')
        .slice(0, 80),
      badges: r.wrappingBadges.length,
      errors: r.consoleErrors.length,
    })),
  );
}

await main();
