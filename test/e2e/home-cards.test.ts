import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser, startServer } from './harness';

// Home as a person sees it: an icon per app (no two alike, no letters), and for owners and admins
// each active app's usage this period beside SPEC's 'Launch app'; a supervisor sees no usage.
// At 1440 px and at 400 px.

describe('Home cards in Chromium', () => {
  let server: Awaited<ReturnType<typeof startServer>>;
  let browser: Browser;

  beforeAll(async () => {
    server = await startServer({ linkFor: ['owner@acme.test', 'supervisor@acme.test'] });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  for (const width of [1440, 400]) {
    it(`at ${width} px an owner sees an icon on every card and the usage of each active app beside Launch app`, async () => {
      const page = await (await browser.newContext({ viewport: { width, height: 900 } })).newPage();
      await page.goto(server.links['owner@acme.test']!);
      await page.getByRole('heading', { name: /^Welcome/ }).waitFor();
      const cards = page.locator('li.app-card');
      const n = await cards.count();
      expect(n).toBeGreaterThan(1);
      const icons = await cards.locator('.app-card-icon').evaluateAll((els) =>
        els.map((e) => ({
          svg: !!e.querySelector('svg'),
          text: e.textContent,
          html: e.innerHTML,
          w: e.getBoundingClientRect().width,
        })),
      );
      expect(icons.every((i) => i.svg && i.text === '' && i.w > 0)).toBe(true);
      expect(new Set(icons.map((i) => i.html)).size).toBe(n);
      const launch = cards.filter({ has: page.getByRole('link', { name: /^Launch app/ }) });
      expect(await launch.count()).toBeGreaterThan(0);
      for (let i = 0; i < (await launch.count()); i++) {
        await expect
          .poll(() => launch.nth(i).getByTestId('app-card-usage').textContent())
          .toMatch(/^[\d,]+ (of [\d,]+ )?credits used this period$/);
      }
      const starting = cards.filter({ has: page.getByRole('button', { name: 'Start Free Trial' }) });
      for (let i = 0; i < (await starting.count()); i++)
        expect(await starting.nth(i).getByTestId('app-card-usage').count()).toBe(0);
      await page.context().close();
    });
  }

  it('a supervisor sees the cards without usage', async () => {
    const page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
    await page.goto(server.links['supervisor@acme.test']!);
    await page.getByRole('heading', { name: /^Welcome/ }).waitFor();
    await page.locator('li.app-card .app-card-icon svg').first().waitFor();
    expect(await page.getByTestId('app-card-usage').count()).toBe(0);
    await page.context().close();
  });
});
