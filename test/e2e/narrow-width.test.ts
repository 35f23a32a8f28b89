import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { APPS } from '../../api/contract/apps';
import { launchBrowser, startServer, visit } from './harness';
import { settle as settleNetwork } from './harness';
import { startDnsServer, type DnsServer } from '../support/dns-server';

// The console lives in 360 px side panels (Zoom, Webex) and on phones: every page, dialog and
// popover must fit without the page scrolling sideways, and whatever is open must be on screen.

// Each screen is opened once, at 360 px, and checked there and at 400 px by resizing the window
// (as a side panel is resized): the layout is what changes between the two, not the data, and
// opening every screen twice cost half of this file's time. What is positioned when it opens
// (dialogs, popovers) is opened at each width.
const WIDTHS = [360, 400] as const;
const [NARROWEST] = WIDTHS;

const PAGES = [
  '/',
  '/support',
  '/support/ticket',
  '/sales',
  '/resources',
  '/legal/data-processing-addendum',
  '/no-such-page',
  '/dev/sms-outbox',
  ...[
    'branding',
    'domain',
    'admin-management',
    'sms-configuration',
    'customer-lookup',
    'single-sign-on',
    'billing',
    'logging',
    'audit-log',
    'developers',
  ].map((s) => `/settings/${s}`),
  ...APPS.flatMap((app) => app.routes.filter((r) => !r.includes(':')).map((r) => `/${app.id}${r ? `/${r}` : ''}`)),
];

// provider staff see every app, the unreleased one included, and Watch Tower
const STAFF_PAGES = [
  ...APPS.filter((app) => !app.released).flatMap((app) =>
    app.routes.filter((r) => !r.includes(':')).map((r) => `/${app.id}${r ? `/${r}` : ''}`),
  ),
  '/watch-tower',
  '/watch-tower/accounts',
];

/** How far the page reaches past the viewport's right edge, and which elements do it. */
async function overflow(page: Page): Promise<{ extra: number; culprits: string[] }> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const extra = document.documentElement.scrollWidth - width;
    const culprits: string[] = [];
    if (extra > 0) {
      for (const el of document.querySelectorAll<HTMLElement>('body *')) {
        const r = el.getBoundingClientRect();
        if (r.right > width + 1 && r.width > 0)
          culprits.push(`${el.tagName.toLowerCase()}.${[...el.classList].join('.')} (${Math.round(r.right)})`);
        if (culprits.length > 8) break;
      }
    }
    return { extra, culprits };
  });
}

/** Every open dialog panel and popover panel lies inside the viewport. */
async function offscreenPanels(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    for (const el of document.querySelectorAll<HTMLElement>('[role="dialog"], .popover-panel')) {
      const r = el.getBoundingClientRect();
      if (r.left < 0 || r.right > document.documentElement.clientWidth)
        out.push(`${el.className} spans ${Math.round(r.left)}..${Math.round(r.right)}`);
    }
    return out;
  });
}

async function settle(page: Page) {
  await settleNetwork(page);
  await page
    .waitForFunction(() => !document.querySelector('[aria-busy="true"], .spinner'), undefined, { timeout: 15_000 })
    .catch(() => {});
}

/** Two frames: what resizing the window set off (media queries, resize observers) has been drawn. */
const nextFrames = (page: Page) =>
  page.evaluate(() => new Promise<void>((r) => requestAnimationFrame(() => requestAnimationFrame(() => r()))));

async function setWidth(page: Page, width: number) {
  if (page.viewportSize()?.width === width) return;
  await page.setViewportSize({ width, height: 720 });
  await nextFrames(page);
}

async function fitsNow(page: Page, what: string) {
  const width = page.viewportSize()!.width;
  const { extra, culprits } = await overflow(page);
  expect(extra, `${what} at ${width} px scrolls sideways by ${extra}px: ${culprits.join(', ')}`).toBeLessThanOrEqual(0);
  expect(await offscreenPanels(page), `${what} at ${width} px: panels off screen`).toEqual([]);
}

/** The screen as it is fits at every width (resized in place), and is left at the narrowest. */
async function expectFits(page: Page, what: string) {
  await settle(page);
  for (const width of WIDTHS) {
    await setWidth(page, width);
    await fitsNow(page, what);
  }
  await setWidth(page, NARROWEST);
}

/** `open` (a dialog, a popover) opened at each width in turn, and closed with Escape. */
async function expectOpensFitting(page: Page, what: string, open: () => Promise<void>) {
  for (const width of WIDTHS) {
    await setWidth(page, width);
    await open();
    await settle(page);
    await fitsNow(page, what);
    await page.keyboard.press('Escape');
  }
  await setWidth(page, NARROWEST);
}

describe(`the console at ${WIDTHS.join(' and ')} px wide in Chromium`, () => {
  const width = NARROWEST;
  let server: Awaited<ReturnType<typeof startServer>>;
  let dns: DnsServer;
  let browser: Browser;
  let page: Page;
  let staff: Page;

  async function signedIn(email: string): Promise<Page> {
    const context: BrowserContext = await browser.newContext({ viewport: { width, height: 720 } });
    const p = await context.newPage();
    await p.goto(server.links[email]!);
    await p.getByRole('heading', { name: 'One-Time Passcode' }).waitFor();
    return p;
  }

  beforeAll(async () => {
    dns = await startDnsServer();
    server = await startServer({ linkFor: ['owner@acme.test', 'staff@provider.test'], env: { DNS_SERVERS: dns.address } });
    browser = await launchBrowser();
    page = await signedIn('owner@acme.test');
    staff = await signedIn('staff@provider.test');
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await dns?.close();
  });

  it('the header is one row and shows the company name in full beside the credits, the tools and the app switcher', async () => {
    await page.goto(`${server.url}/one-time-passcode`);
    await page.getByRole('heading', { name: 'One-Time Passcode', level: 1 }).waitFor();
    await page.locator('.credit-info').waitFor();
    for (const width of WIDTHS) {
      await setWidth(page, width);
      const header = await page.locator('.header-row').evaluate((row) => {
        const parts = [...row.querySelectorAll<HTMLElement>(':scope > *, .header-tools > *')].filter(
          (el) => el.getBoundingClientRect().width > 0 && !el.classList.contains('header-tools'),
        );
        const middles = parts.map((el) => el.getBoundingClientRect().top + el.getBoundingClientRect().height / 2);
        const name = row.querySelector<HTMLElement>('.logo-name')!;
        return {
          height: row.getBoundingClientRect().height,
          spread: Math.max(...middles) - Math.min(...middles),
          name: name.textContent,
          truncated: name.scrollWidth > name.clientWidth,
          parts: parts.length,
        };
      });
      expect(header.parts).toBeGreaterThanOrEqual(7); // name, switcher, live, search, credits, bell, settings
      expect(header.height).toBeLessThanOrEqual(56);
      expect(header.spread, 'every part of the header on one row').toBeLessThanOrEqual(4);
      expect(header, `at ${width} px`).toMatchObject({ name: 'Acme Support', truncated: false });
      expect(await page.locator('.credit-info').textContent()).toMatch(/^⚠ [\d,]+ \/ 1,000 credits/);
    }
    await setWidth(page, NARROWEST);
  });

  /** A bar of tabs: whether it overflows, its edge shadows, and whether its current tab is in view. */
  async function tabBar(p: Page, path: string, name: string, width: number) {
    await setWidth(p, width);
    await p.goto(`${server.url}${path}`);
    await p.getByRole('heading', { level: 1 }).first().waitFor();
    const list = p.getByRole('navigation', { name, exact: true }).locator('ul');
    await list.locator('[aria-current="page"]').waitFor();
    return list.evaluate((ul) => {
      const current = ul.querySelector('[aria-current="page"]')!.getBoundingClientRect();
      const box = ul.getBoundingClientRect();
      return {
        overflows: ul.scrollWidth > ul.clientWidth,
        background: getComputedStyle(ul).backgroundImage,
        currentInView: current.left >= box.left - 1 && current.right <= box.right + 1,
        current: ul.querySelector('[aria-current="page"]')!.textContent,
      };
    });
  }

  it('the app tab bar shows it scrolls when its tabs are wider than the panel, and keeps the current tab in view', async () => {
    for (const width of WIDTHS) {
      const bar = await tabBar(page, '/passkeys/settings/general', 'Passkeys sections', width);
      expect(bar.current).toBe('Configuration');
      expect(bar.currentInView, `at ${width} px`).toBe(true);
      if (width === 360) expect(bar.overflows).toBe(true);
      // the edge shadows that say "more this way" (uncovered at the clipped edge as the tabs scroll)
      expect(bar.background.match(/radial-gradient/g)?.length).toBe(2);
    }
    await setWidth(page, NARROWEST);
  });

  it('the settings menu, a bar here, shows it scrolls and keeps the current section in view (Developers, the last)', async () => {
    for (const width of WIDTHS) {
      const bar = await tabBar(page, '/settings/developers', 'Settings', width);
      expect(bar, `at ${width} px`).toMatchObject({ current: 'Developers', currentInView: true, overflows: true });
      expect(bar.background.match(/radial-gradient/g)?.length).toBe(2);
    }
    await setWidth(page, NARROWEST);
  });

  it('the settings menu shows a chevron at the edge past which sections are hidden, and at the other edge once scrolled', async () => {
    for (const width of WIDTHS) {
      await tabBar(page, '/settings/branding', 'Settings', width);
      const nav = page.getByRole('navigation', { name: 'Settings', exact: true });
      const edges = () =>
        nav.evaluate((el) => ({
          end: el.hasAttribute('data-more-end'),
          start: el.hasAttribute('data-more-start'),
          after: getComputedStyle(el, '::after').content,
          before: getComputedStyle(el, '::before').content,
        }));
      expect(await edges(), `at ${width} px`).toMatchObject({ end: true, start: false });
      expect((await edges()).after).toContain('›');
      await nav.locator('ul').evaluate((ul) => ul.scrollTo({ left: ul.scrollWidth }));
      await expect.poll(edges).toMatchObject({ end: false, start: true });
      expect((await edges()).before).toContain('‹');
    }
    await setWidth(page, NARROWEST);
  });

  it('every app dashboard shows "Send to a customer" with its top within the first 600 px at 400 px', async () => {
    await setWidth(page, 400);
    await setWidth(staff, 400);
    const checked: string[] = [];
    for (const app of APPS) {
      const p = app.released ? page : staff;
      await p.goto(`${server.url}/${app.id}`);
      await p.getByRole('heading', { level: 1 }).first().waitFor();
      await settle(p);
      // an app the account has not started shows its start screen instead of a dashboard
      if (!(await p.locator('.dashboard-layout').count())) continue;
      const send = p.getByRole('heading', { name: 'Send to a customer' });
      const top = await send.evaluate((el) => el.closest('.card')!.getBoundingClientRect().top + window.scrollY);
      expect(top, `${app.id}: "Send to a customer" starts ${Math.round(top)} px down`).toBeLessThanOrEqual(600);
      checked.push(app.id);
    }
    expect(checked).toEqual(expect.arrayContaining(['one-time-passcode', 'passkeys', 'e-form', 'identity-verification']));
    await setWidth(page, NARROWEST);
    await setWidth(staff, NARROWEST);
  });

  it('an activity list stacks into one card per row: no header row, every value under its column name, nothing cut or scrolling sideways', async () => {
    for (const width of WIDTHS) {
      await setWidth(page, width);
      await page.goto(`${server.url}/one-time-passcode/authentications`);
      const table = page.getByRole('table', { name: 'Authentications' });
      await table.locator('tbody tr').first().waitFor();
      const seen = await table.evaluate((t) => {
        const cells = [...t.querySelectorAll<HTMLElement>('tbody td')];
        const headers = [...t.querySelectorAll('thead th')].map((h) => h.textContent);
        return {
          headerHeight: t.querySelector('thead')!.getBoundingClientRect().height,
          tableRight: t.getBoundingClientRect().right,
          viewport: document.documentElement.clientWidth,
          boxScrolls: t.parentElement!.scrollWidth > t.parentElement!.clientWidth + 1,
          labels: cells
            .slice(0, headers.length)
            .map((c) => getComputedStyle(c, '::before').content.replace(/^"|"( \/ "")?$/g, '')),
          headers,
          cut: cells.filter((c) => c.scrollWidth > c.clientWidth + 1).map((c) => c.getAttribute('data-label')),
        };
      });
      expect(seen.headerHeight, `at ${width} px the header row takes no room`).toBeLessThanOrEqual(1);
      expect(seen.boxScrolls, `at ${width} px`).toBe(false);
      expect(seen.tableRight).toBeLessThanOrEqual(seen.viewport);
      expect(seen.cut, `at ${width} px`).toEqual([]);
      expect(seen.labels[0]).toContain(seen.headers[0]);
      expect(seen.labels.at(-1)).toContain(seen.headers.at(-1));
    }
    await setWidth(page, NARROWEST);
  });

  it("an app's configuration tabs keep the current one in view", async () => {
    for (const width of WIDTHS) {
      const bar = await tabBar(staff, '/identity-verification/settings/webhooks', 'Identity Verification configuration', width);
      expect(bar, `at ${width} px`).toMatchObject({ current: 'Webhooks', currentInView: true });
      expect(bar.background.match(/radial-gradient/g)?.length).toBe(2);
    }
    await setWidth(staff, NARROWEST);
  });

  it.each(PAGES)('%s fits without sideways scrolling', async (path) => {
    await visit(page, path);
    await page.locator('main h1, main [role="alert"]').first().waitFor();
    await expectFits(page, path);
  });

  it.each(STAFF_PAGES)('%s fits without sideways scrolling (provider staff)', async (path) => {
    await visit(staff, path);
    await staff.locator('main h1, main [role="alert"]').first().waitFor();
    await expectFits(staff, path);
  });

  it('a Watch Tower account page fits', async () => {
    await staff.goto(`${server.url}/watch-tower/accounts`);
    await staff.getByRole('link', { name: 'Globex Care' }).click();
    await staff.getByRole('heading', { name: 'Globex Care', level: 1 }).waitFor();
    await expectFits(staff, 'the account page');
  });

  it('the Watch Tower conversion confirmation fits', async () => {
    await expectOpensFitting(staff, 'the conversion confirmation', async () => {
      await staff
        .getByRole('button', { name: /Convert .* to Enterprise/ })
        .first()
        .click();
      await staff.getByRole('dialog').waitFor();
    });
  });

  it('the ghost mode confirmation fits', async () => {
    await expectOpensFitting(staff, 'the ghost mode confirmation', async () => {
      await staff.getByRole('button', { name: 'Ghost Mode' }).click();
      await staff.getByRole('dialog', { name: /as its admin\?/ }).waitFor();
    });
  });

  it('the domain page waiting for DNS records of a long domain fits, its record table scrolling inside a named region', async () => {
    await page.goto(`${server.url}/settings/domain`);
    const input = page.getByRole('textbox', { name: /^Domain/ });
    const verifying = page.getByRole('heading', { name: 'Verifying your domain' });
    await input.or(verifying).first().waitFor();
    if (await input.count()) {
      await input.fill(`console-for-customers-${width}.acme-support-services.test`);
      await page.getByRole('button', { name: 'Verify domain' }).click();
    }
    await verifying.waitFor();
    await expectFits(page, 'domain verifying');
    const region = page.getByRole('region', { name: /DNS records/ });
    expect(await region.getAttribute('tabindex')).toBe('0');
  });

  it('the sign-in and sign-up pages fit, and the addendum dialog too', async () => {
    const visitor = await (await browser.newContext({ viewport: { width, height: 720 } })).newPage();
    await visitor.goto(`${server.url}/`);
    await visitor.getByRole('button', { name: 'Sign in using SSO' }).waitFor();
    await expectFits(visitor, 'sign-in');
    await visitor.goto(`${server.url}/sign-up`);
    await visitor.getByRole('heading', { name: 'Create your account', level: 1 }).waitFor();
    await expectFits(visitor, 'sign-up');
    await expectOpensFitting(visitor, 'the addendum dialog', async () => {
      await visitor
        .getByRole('button', { name: /Data Processing Addendum/ })
        .first()
        .click();
      await visitor.getByRole('dialog').waitFor();
    });
    await visitor.context().close();
  });

  const popovers: [string, string][] = [
    ['the notifications panel', '^Notifications'],
    ['the settings menu', '^Settings menu$'],
    ['the app switcher', '^Switch app'],
  ];
  it.each(popovers)('%s opens fully on screen', async (_what, name) => {
    await page.goto(`${server.url}/one-time-passcode`);
    await expectOpensFitting(page, name, async () => {
      await page.getByRole('button', { name: new RegExp(name) }).click();
      await page.locator('.popover-panel').waitFor();
    });
  });

  const dialogs: [string, string, RegExp][] = [
    ['add administrator', '/settings/admin-management', /^Add an Administrator$/],
    ['archive confirmation', '/settings/admin-management', /^Archive /],
    ['key rotation', '/settings/developers', /^Rotate Webhook secret$/],
    ['Twilio', '/settings/sms-configuration', /Twilio/],
    ['logging destination', '/settings/logging', /Datadog/],
    ['single sign-on provider', '/settings/single-sign-on', /Okta/],
    ['eForm submissions export', '/e-form/submissions', /^Export CSV$/],
  ];
  it.each(dialogs)('the %s dialog fits', async (what, path, button) => {
    await page.goto(`${server.url}${path}`);
    await page.locator('main h1').first().waitFor();
    await expectOpensFitting(page, what, async () => {
      await page.locator('main').getByRole('button', { name: button }).first().click();
      await page.getByRole('dialog').waitFor();
    });
  });

  it('the customer search dialog with results fits', async () => {
    await page.goto(`${server.url}/`);
    await page.getByRole('heading', { name: 'One-Time Passcode' }).waitFor();
    await expectOpensFitting(page, 'customer search', async () => {
      await page.keyboard.press('Control+k');
      await page.getByRole('combobox', { name: 'Customer ID or phone number' }).fill('CUST');
      await page.getByRole('dialog').waitFor();
    });
  });

  it('an open dialog dims and blocks the whole header, its top edge included', async () => {
    await page.goto(`${server.url}/settings/admin-management`);
    for (const width of WIDTHS) {
      await setWidth(page, width);
      await page.getByRole('button', { name: 'Add an Administrator' }).click();
      await page.getByRole('dialog').waitFor();
      const top = await page.evaluate(() => [2, 8, 15].map((y) => document.elementFromPoint(20, y)?.className ?? ''));
      expect(top, `at ${width} px`).toEqual(['dialog-backdrop', 'dialog-backdrop', 'dialog-backdrop']);
      await page.keyboard.press('Escape');
    }
    await setWidth(page, NARROWEST);
  });
});
