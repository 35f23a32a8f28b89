import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, startServer } from './harness';
import { startDnsServer, type DnsServer } from '../support/dns-server';

// The five account-settings screens, driven in Chromium against the built server, with custom
// domains checked against a DNS server on loopback.

const CNAME_TARGET = 'custom.switchboard.example';
const LOGO =
  '<svg xmlns="http://www.w3.org/2000/svg" width="80" height="20"><rect width="40" height="20" fill="#FF6600"/><rect x="40" width="40" height="20" fill="#0F766E"/><script>alert(1)</script></svg>';

describe('account settings in Chromium', () => {
  let server: Awaited<ReturnType<typeof startServer>>;
  let dns: DnsServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    dns = await startDnsServer();
    server = await startServer({ linkFor: ['owner@acme.test'], env: { DNS_SERVERS: dns.address, CNAME_TARGET } });
    browser = await launchBrowser();
    context = await browser.newContext({ acceptDownloads: true, timezoneId: 'Asia/Tokyo' });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    page = await context.newPage();
    await page.goto(server.links['owner@acme.test']!);
    await page.getByRole('heading', { name: 'One-Time Passcode' }).waitFor();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await dns?.close();
  });

  it('branding: uploads an SVG logo, offers its colours, saves and shows the logo in the header', async () => {
    await page.goto(`${server.url}/settings/branding`);
    await page.getByLabel('Company name').waitFor();
    // a PNG is ignored without a word
    await page
      .getByTestId('logo-file')
      .setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: Buffer.from([0x89, 0x50, 0x4e, 0x47]) });
    expect(await page.getByAltText('Logo preview').count()).toBe(0);
    await page.getByTestId('logo-file').setInputFiles({ name: 'logo.svg', mimeType: 'image/svg+xml', buffer: Buffer.from(LOGO) });
    await page.getByAltText('Logo preview').waitFor();
    await page.getByRole('button', { name: 'Use #0F766E' }).click();
    expect(await page.getByLabel('Brand color', { exact: true }).inputValue()).toBe('#0F766E');
    await page.getByLabel('Company name').fill('Acme Care');
    await page.getByRole('form', { name: 'Branding' }).getByRole('button', { name: 'Save' }).click();
    await page.getByText('Branding has been updated').waitFor();
    // the header shows the new name and the cleaned logo, as an image
    await page.locator('.app-header').getByText('Acme Care').waitFor();
    const src = await page.locator('.app-header img.logo-image').getAttribute('src');
    const svg = Buffer.from(src!.replace('data:image/svg+xml;base64,', ''), 'base64').toString('utf8');
    expect(svg).toContain('viewBox="0 0 80 20"');
    expect(svg).not.toContain('<script');
  });

  it('branding: the brand color field shows all seven characters of #2563EB, none clipped (at 360 px too)', async () => {
    await page.goto(`${server.url}/settings/branding`);
    const field = page.getByLabel('Brand color', { exact: true });
    await field.fill('#2563eb');
    expect(await field.inputValue()).toBe('#2563EB');
    for (const width of [1440, 360]) {
      await page.setViewportSize({ width, height: 800 });
      // a clipped last 'B' reads as an 'E': the text must fit the box it is drawn in
      expect(await field.evaluate((el: HTMLInputElement) => el.scrollWidth <= el.clientWidth)).toBe(true);
    }
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('domain: the verify button waits for a valid domain, then the page re-checks every 10 seconds until the CNAME and the TXT proof are right', async () => {
    await page.goto(`${server.url}/settings/domain`);
    const input = page.getByLabel('Domain');
    await input.waitFor();
    expect(await page.getByTestId('cname-target').textContent()).toBe(CNAME_TARGET);
    const token = (await page.getByTestId('txt-value').textContent())!;
    expect(token).toMatch(/^switchboard-verification=[0-9a-f]{32}$/);
    await page.getByRole('button', { name: 'Copy the TXT value' }).click();
    await page.getByText('TXT value copied to clipboard').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token);
    const verify = page.getByRole('button', { name: 'Verify domain' });
    await input.fill('Console.Acme');
    expect(await verify.isDisabled()).toBe(true);
    await input.fill('console.acme-e2e.com');
    expect(await verify.isDisabled()).toBe(false);
    await page.getByText('_switchboard-challenge.console.acme-e2e.com').waitFor();
    await verify.click();

    await page.getByText('generally takes 1-2 minutes').waitFor();
    await page.getByText('up to 48 hours', { exact: false }).waitFor();
    await page.getByTestId('domain-status').getByText("DNS settings are invalid or haven't propagated yet").waitFor();
    const countdown = page.getByTestId('domain-countdown');
    await countdown.getByText(/Checking again in \d+ s/).waitFor();
    const first = Number((await countdown.textContent())!.match(/(\d+) s/)![1]);
    expect(first).toBeLessThanOrEqual(10);
    // the countdown ticks down (a check in between starts it again, at most from 10)
    await expect
      .poll(async () => Number((await countdown.textContent())!.match(/(\d+) s/)?.[1] ?? -1), { timeout: 5_000 })
      .toBeLessThan(first);

    // the CNAME alone is not enough: the page says the TXT proof is still missing
    dns.records.set('console.acme-e2e.com', { cname: CNAME_TARGET });
    await page.getByRole('button', { name: 'Check now' }).click();
    await page.getByTestId('cname-status').getByText('Found').waitFor();
    await page.getByTestId('txt-status').getByText('Not found yet').waitFor();
    expect(await page.getByText('The console is available at').count()).toBe(0);

    const queriesBefore = dns.queries;
    dns.records.set('_switchboard-challenge.console.acme-e2e.com', { txt: [token] });
    await page.getByText('The console is available at').waitFor({ timeout: 15_000 });
    expect(dns.queries).toBeGreaterThan(queriesBefore);
    await page.getByRole('link', { name: 'https://console.acme-e2e.com' }).waitFor();
  });

  it('admin management: adds an administrator, changes a role, revokes and archives', async () => {
    await page.goto(`${server.url}/settings/admin-management`);
    await page.getByText('Account Owner').waitFor();
    // the owner row has no role select and no archive button
    expect(await page.getByRole('button', { name: 'Archive owner@acme.test' }).count()).toBe(0);

    await page.getByRole('button', { name: 'Add an Administrator' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add an Administrator' });
    await dialog.getByLabel('Email').fill('not-an-email');
    await dialog.getByRole('button', { name: 'Add' }).click();
    await dialog.getByText('Please provide a valid email address').waitFor();
    await dialog.getByLabel('Email').fill('new.admin@acme.test');
    await dialog.getByRole('button', { name: 'Add' }).click();
    await page.getByText('Administrator has been added').waitFor();
    await page.getByRole('cell', { name: 'new.admin@acme.test', exact: true }).waitFor();
    await page
      .getByText(/^Expires /)
      .first()
      .waitFor();

    await page.getByLabel('Role of supervisor@acme.test').selectOption('admin');
    await page.getByText('Role updated successfully').waitFor();

    await page.getByRole('button', { name: 'Revoke invitation of new.admin@acme.test' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click();
    await page.getByText('Invitation has been revoked').waitFor();
    await page.getByRole('cell', { name: 'new.admin@acme.test', exact: true }).waitFor({ state: 'detached' });

    await page.getByRole('button', { name: 'Archive supervisor@acme.test' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Archive' }).click();
    await page.getByText('Admin has been archived').waitFor();
    await page.getByRole('cell', { name: 'supervisor@acme.test', exact: true }).waitFor({ state: 'detached' });
  });

  it('audit log: lists the changes just made, pages, and exports a CSV named with the date', async () => {
    await page.goto(`${server.url}/settings/audit-log`);
    for (const header of ['Date', 'Admin', 'Description', 'Event'])
      await page.getByRole('columnheader', { name: header }).waitFor();
    await page.getByRole('cell', { name: 'Archived Sam Silva (supervisor@acme.test)' }).waitFor();
    // the account's creation (made by the provider) stays on the first page: the demo's
    // One-Time Passcode history is dated over the last 30 days, behind today's changes
    await page.getByRole('cell', { name: 'Provider' }).first().waitFor();
    await page.getByRole('cell', { name: 'Account Acme Support created' }).waitFor();
    expect(await page.getByRole('button', { name: 'Previous' }).isDisabled()).toBe(true);

    // add a page of changes, through the API as any client would
    const token = new URL(server.links['owner@acme.test']!).searchParams.get('token')!;
    for (let i = 0; i < 55; i++) {
      const res = await fetch(`${server.url}/api/branding`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: `Acme ${i}`, logo: '', color: '#0F766E' }),
      });
      expect(res.status).toBe(200);
    }
    await page.reload();
    const pager = page.getByRole('navigation', { name: 'Audit log pages' });
    await pager.getByText(/^1–50 of \d+$/).waitFor();
    const total = Number((await pager.getByText(/of \d+/).textContent())!.match(/of (\d+)/)![1]);
    expect(total).toBeGreaterThan(55);
    await pager.getByRole('button', { name: 'Next' }).click();
    await pager.getByText(new RegExp(`^51–${Math.min(100, total)} of ${total}$`)).waitFor();
    await page.getByRole('cell', { name: 'Archived Sam Silva (supervisor@acme.test)' }).waitFor();
    await pager.getByRole('button', { name: 'Previous' }).click();
    await pager.getByText(/^1–50 of/).waitFor();
    // the last page ends the log: Next is disabled there
    for (let first = 51; first <= total; first += 50) {
      await pager.getByRole('button', { name: 'Next' }).click();
      await pager.getByText(new RegExp(`^${first}–${Math.min(first + 49, total)} of ${total}$`)).waitFor();
    }
    expect(await pager.getByRole('button', { name: 'Next' }).isDisabled()).toBe(true);
    await page
      .getByRole('cell', { name: /^Passcode sent to / })
      .first()
      .waitFor();

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^audit-log-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = fs.readFileSync((await download.path())!, 'utf8');
    expect(csv.split('\n')[0]).toBe('Date (Asia/Tokyo),Admin,Description,Event,Namespace');
    expect(csv).toContain('Invited new.admin@acme.test as admin');
    expect(csv).toMatch(/\+09:00/);
  });

  it('developers: shows the account id and masked secrets, and copies the real values', async () => {
    await page.goto(`${server.url}/settings/developers`);
    const secret = page.getByTestId('key-Secret key');
    await secret.waitFor();
    expect(await secret.textContent()).toMatch(/^sk_\*+$/);
    expect(await page.getByTestId('key-Webhook secret').textContent()).toBe('*'.repeat(32));
    expect(await page.getByTestId('key-Widget key').textContent()).toMatch(/^wk_/);
    expect(await page.getByTestId('key-Account ID').textContent()).toMatch(/^[0-9a-f-]{36}$/);
    await page.getByText('X-Signature').first().waitFor();
    await page.getByRole('button', { name: 'Copy Secret key' }).click();
    await page.getByText('Secret key copied to clipboard').waitFor();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toMatch(/^sk_[A-Za-z0-9_-]{43}$/);
    // not shown inside a plain browser
    expect(await page.getByRole('link', { name: 'Open in browser' }).count()).toBe(0);
  });

  it('developers: rotating the secret key asks first, then shows and copies the new key', async () => {
    await page.goto(`${server.url}/settings/developers`);
    await page.getByTestId('key-Secret key').waitFor();
    await page.getByRole('button', { name: 'Copy Secret key' }).click();
    const old = await page.evaluate(() => navigator.clipboard.readText());

    await page.getByRole('button', { name: 'Rotate Secret key' }).click();
    const dialog = page.getByRole('dialog', { name: 'Rotate the secret key?' });
    await dialog.getByText('stops working at once').waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });

    await page.getByRole('button', { name: 'Rotate Secret key' }).click();
    await dialog.getByRole('button', { name: 'Rotate', exact: true }).click();
    await page.getByText('The secret key has been rotated').waitFor();
    await dialog.waitFor({ state: 'hidden' });
    expect(await page.getByTestId('key-Secret key').textContent()).toMatch(/^sk_\*+$/);
    await page.getByRole('button', { name: 'Copy Secret key' }).click();
    await page.waitForFunction((previous) => navigator.clipboard.readText().then((text) => text !== previous), old);
    const fresh = await page.evaluate(() => navigator.clipboard.readText());
    expect(fresh).toMatch(/^sk_[A-Za-z0-9_-]{43}$/);
    expect(fresh).not.toBe(old);
  });

  it('time zone: the owner sets the account’s zone and the console’s dates follow it', async () => {
    await page.goto(`${server.url}/settings/branding`);
    const form = page.getByRole('form', { name: 'Time zone' });
    await form.getByLabel('Account time zone').selectOption('Pacific/Honolulu');
    await form.getByRole('button', { name: 'Save' }).click();
    await form.getByRole('button', { name: 'Saved' }).waitFor();
    await page.goto(`${server.url}/settings/audit-log`);
    const row = page.getByRole('row').filter({ hasText: "Changed the account's time zone" }).first();
    const time = row.locator('time');
    await time.waitFor();
    const iso = (await time.getAttribute('datetime'))!;
    const title = (await time.getAttribute('title'))!;
    // the browser runs in Tokyo: the console says which zone it shows, and the hour is Honolulu's (UTC-10, no summer time)
    expect(title).toMatch(/HST$/);
    const hour = (new Date(iso).getUTCHours() + 14) % 24;
    expect(title).toContain(`${hour % 12 || 12}:${String(new Date(iso).getUTCMinutes()).padStart(2, '0')}`);
  });
});
