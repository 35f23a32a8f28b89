import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, startServer } from './harness';
import { axeViolations, describeViolations } from './axe';

// Customer data (issue 42) in Chromium against the built server, as an admin at 1440 px and at
// 360 px: find a caller by a number typed in another spelling, see what is held by app, export it
// and download the ZIP through its link, erase it through the confirmation dialog and download the
// receipt; a supervisor cannot reach any of it. The export job polls every half second here
// (JOB_POLL_MS), so the ZIP is made while the page asks for it.

const PHONE = '+15550142042';
const TYPED = '+1 (555) 014-2042';

describe('Customer data in Chromium', () => {
  let server: Awaited<ReturnType<typeof startServer>>;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    server = await startServer({ linkFor: ['owner@acme.test', 'supervisor@acme.test'], env: { JOB_POLL_MS: '500' } });
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: { width: 1440, height: 900 }, acceptDownloads: true })).newPage();
    await page.goto(server.links['owner@acme.test']!);
    await page.getByRole('heading', { name: 'One-Time Passcode' }).waitFor();
    // the caller: a passcode sent to them through the console's own action
    const token = await page.evaluate(() => localStorage.getItem('switchboard.token'));
    const sent = await fetch(`${server.url}/api/one-time-passcode/actions/send`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ input: { phoneNumber: PHONE, customerRef: 'CUST-E2E-42' } }),
    });
    expect(sent.status).toBe(201);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const search = async (p: Page, typed: string) => {
    await p.goto(`${server.url}/settings/privacy`);
    await p.getByRole('heading', { name: 'Customer data', level: 1 }).waitFor();
    await p.getByRole('textbox', { name: 'Phone number' }).fill(typed);
    await p.getByRole('form', { name: 'Find a caller' }).getByRole('button', { name: 'Search' }).click();
  };
  const noViolations = async (p: Page) => {
    const violations = await axeViolations(p);
    expect(violations, describeViolations(violations)).toEqual([]);
  };

  it('an admin finds the caller by another spelling of the number and sees what is held, by app', async () => {
    await search(page, TYPED);
    const held = page.locator('.card', { has: page.getByRole('heading', { name: 'What is held' }) });
    await held.getByRole('heading', { name: /One-Time Passcode/ }).waitFor();
    expect(await held.getByText(/Passcode verifications: phone number/).innerText()).toMatch(/^1 ×/);
    await noViolations(page);
  });

  it('an export is made by the job and downloaded through its link as a ZIP', async () => {
    await page.getByRole('button', { name: 'Export as ZIP' }).click();
    await page.getByText(/The export (is ready|is being made)/).waitFor();
    const zip = page.getByRole('link', { name: 'ZIP' }).first();
    await zip.waitFor({ timeout: 15_000 });
    const [download] = await Promise.all([page.waitForEvent('download'), zip.click()]);
    expect(download.suggestedFilename()).toMatch(/\.zip$/);
    const bytes = fs.readFileSync((await download.path())!);
    expect(bytes.subarray(0, 2).toString('latin1')).toBe('PK');
    expect(bytes.includes(Buffer.from('one-time-passcode.json'))).toBe(true);
  });

  it('erasure asks for confirmation, leaves nothing held, and its receipt downloads without the number', async () => {
    await page.getByRole('button', { name: 'Erase…' }).click();
    const dialog = page.getByRole('dialog', { name: "Erase this caller's data?" });
    await dialog.waitFor();
    await noViolations(page);
    await dialog.getByRole('button', { name: 'Erase' }).click();
    await page.getByText("The caller's data has been erased").waitFor();
    await page.getByText('Nothing is held about this caller.').waitFor();
    const row = page.getByRole('row', { name: /Erasure/ }).first();
    const [download] = await Promise.all([page.waitForEvent('download'), row.getByRole('button', { name: 'Receipt' }).click()]);
    const receipt = fs.readFileSync((await download.path())!, 'utf8');
    expect(JSON.parse(receipt)).toMatchObject({ kind: 'erasure', state: 'done' });
    expect(receipt).not.toContain(PHONE.slice(2));
    expect(receipt).not.toContain('CUST-E2E-42');
  });

  it('at 360 px the screen fits without scrolling sideways and has no WCAG A/AA violations', async () => {
    const narrow = await (await browser.newContext({ viewport: { width: 360, height: 720 } })).newPage();
    await narrow.goto(server.links['owner@acme.test']!);
    await narrow.getByRole('heading', { name: 'One-Time Passcode' }).waitFor();
    await search(narrow, '+1.555.014.2042');
    await narrow.getByText('Nothing is held about this caller.').waitFor();
    await narrow.getByRole('table', { name: 'Erasure and export requests' }).waitFor();
    expect(
      await narrow.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
    ).toBeLessThanOrEqual(0);
    await noViolations(narrow);
    await narrow.context().close();
  });

  it('a supervisor cannot reach it: brought back to their apps with the reason, and the API refuses', async () => {
    const sup = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
    await sup.goto(server.links['supervisor@acme.test']!);
    await sup.waitForFunction(() => !!localStorage.getItem('switchboard.token'));
    await sup.goto(`${server.url}/settings/privacy`);
    await sup.getByText('That page is for administrators').waitFor();
    await sup.waitForURL((url) => !url.pathname.startsWith('/settings'));
    expect(await sup.getByRole('heading', { name: 'Customer data' }).count()).toBe(0);
    const token = await sup.evaluate(() => localStorage.getItem('switchboard.token'));
    const res = await fetch(`${server.url}/api/privacy/search`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ phoneNumber: PHONE }),
    });
    expect(res.status).toBe(403);
    await sup.context().close();
  });
});
