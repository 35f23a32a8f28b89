import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, startServer } from './harness';

describe('Watch Tower, ghost mode and customer search in Chromium', () => {
  let server: Awaited<ReturnType<typeof startServer>>;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    server = await startServer({ linkFor: ['staff@provider.test', 'admin@acme.test'] });
    browser = await launchBrowser();
    page = await browser.newPage();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('staff open the dashboard with its charts', async () => {
    await page.goto(server.links['staff@provider.test']!);
    await page.getByRole('heading', { name: 'One-Time Passcode' }).waitFor();
    await page.goto(`${server.url}/watch-tower`);
    await page.getByText('Tasks completed per day (14-day moving average)').waitFor();
    await page.getByText('Paid accounts (cumulative)').waitFor();
    expect(await page.locator('.uplot canvas').count()).toBeGreaterThanOrEqual(2);
    await page.getByRole('button', { name: 'Show per-app charts' }).click();
    await page.getByText(/One-Time Passcode: tasks per day/).waitFor();
  });

  it('the dashboard leads with summary figures', async () => {
    const figures = await page
      .locator('.kpi')
      .evaluateAll((els) => els.map((el) => [el.querySelector('dt')!.textContent, el.querySelector('dd')!.textContent]));
    expect(figures.map(([label]) => label)).toEqual(['Accounts', 'Active accounts', 'Paid accounts', 'Tasks, last 14 days']);
    await page.waitForFunction(() =>
      [...document.querySelectorAll('.kpi dd')].every((dd) => /^\d[\d,]*$/.test(dd.textContent ?? '')),
    );
  });

  it("chart legends show the latest day's figures before anyone hovers", async () => {
    const values = await page.locator('.u-legend .u-value').allTextContents();
    expect(values.length).toBeGreaterThan(0);
    expect(values.filter((v) => v.includes('--'))).toEqual([]);
  });

  it('staff search accounts and Enter opens the first result', async () => {
    await page.getByRole('link', { name: 'Accounts' }).click();
    await page.getByText(/\d+ active accounts/).waitFor();
    const search = page.getByRole('searchbox', { name: 'Search accounts' });
    await search.fill('grace');
    await page.getByRole('link', { name: 'Globex Care' }).waitFor();
    await page.waitForFunction(() => document.querySelectorAll('table tbody tr').length === 1);
    // the Platform column reads the answer's provider (SPEC §3)
    expect(await page.getByRole('row').filter({ hasText: 'Globex Care' }).getByRole('cell').allTextContents()).toContain('Azure');
    await search.press('Enter');
    await page.getByRole('heading', { name: 'Globex Care' }).waitFor();
    expect(page.url()).toMatch(/\/watch-tower\/accounts\/[0-9a-f-]{36}$/);
  });

  it('staff convert an app to Enterprise after confirming', async () => {
    const row = page.getByRole('row').filter({ hasText: 'Payments' });
    await row.getByText('Subscribed').waitFor();
    await row.getByRole('button', { name: 'Convert Payments to Enterprise' }).click();
    const dialog = page.getByRole('dialog', { name: 'Convert Payments to Enterprise?' });
    await dialog.getByRole('button', { name: 'Convert to Enterprise' }).click();
    await row.getByText('Enterprise', { exact: true }).waitFor();
    expect(await row.getByRole('button', { name: /to Enterprise/ }).count()).toBe(0);
  });

  it('each Convert to Enterprise button names its app, and no two headings on the account page read the same', async () => {
    const names = await page.getByRole('button', { name: /^Convert .* to Enterprise$/ }).allTextContents();
    expect(names.length).toBeGreaterThan(1);
    expect(new Set(names).size).toBe(names.length);
    const headings = await page.locator('main h1, main h2, main h3').allTextContents();
    expect(new Set(headings).size).toBe(headings.length);
  });

  it('ghost mode asks first, saying it is audited and seen by the account, and Cancel stays on the page', async () => {
    await page.getByRole('button', { name: 'Ghost Mode' }).click();
    const dialog = page.getByRole('dialog', { name: 'View Globex Care as its admin?' });
    await dialog.waitFor();
    expect(await dialog.textContent()).toMatch(/audit log.*the account's admins can read it/);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await page.getByRole('button', { name: /You're in ghost mode/ }).count()).toBe(0);
  });

  it('ghost mode opens the account as its owner, and the banner ends it back on the account page', async () => {
    const accountUrl = page.url();
    await page.getByRole('button', { name: 'Ghost Mode' }).click();
    await page
      .getByRole('dialog', { name: 'View Globex Care as its admin?' })
      .getByRole('button', { name: 'Enter ghost mode' })
      .click();
    await page.getByRole('button', { name: /You're in ghost mode/ }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
    await page.getByRole('heading', { name: 'Payments' }).waitFor();
    await page.getByRole('button', { name: /You're in ghost mode/ }).click();
    await page.waitForURL(accountUrl);
    await page.getByRole('heading', { name: 'Globex Care' }).waitFor();
    expect(await page.getByRole('button', { name: /You're in ghost mode/ }).count()).toBe(0);
  });

  it('an admin finds a customer with Ctrl+K and opens a result', async () => {
    const admin = await browser.newPage();
    await admin.goto(server.links['admin@acme.test']!);
    await admin.getByRole('heading', { name: 'One-Time Passcode' }).waitFor();
    await admin.keyboard.press('Control+k');
    const input = admin.getByRole('combobox', { name: 'Customer ID or phone number' });
    await input.fill('CUST-100042');
    await admin.getByRole('option').first().waitFor();
    expect(await admin.getByRole('option').first().textContent()).toContain('ses_de…d4e5f6');
    await input.press('Enter');
    await admin.waitForURL(/\/one-time-passcode\/authentications\?session=ses_demo0001/);
    await admin.close();
  });

  it('a search for an unknown customer says so', async () => {
    const admin = await browser.newPage();
    await admin.goto(server.links['admin@acme.test']!);
    await admin.getByRole('heading', { name: 'One-Time Passcode' }).waitFor();
    await admin.keyboard.press('Control+k');
    await admin.getByRole('combobox').fill('NOBODY-0000');
    await admin.getByText('No results found for "NOBODY-0000"').waitFor();
    await admin.getByText('Try searching for a different customer ID.').waitFor();
    await admin.close();
  });
});
