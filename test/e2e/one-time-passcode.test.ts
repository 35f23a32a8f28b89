import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, ROOT, startServer } from './harness';
import { settle } from './harness';
import { json, startPeer, type Peer } from '../api/peers';

// The One-Time Passcode app as an admin uses it, on the built server with the demo account
// (which sends through the development outbox): send a passcode from the dashboard, read it in
// the outbox, check it, find it everywhere; edit the SMS content; receive a webhook test event.

const PHONE = '+15550104567';
const CUSTOMER = 'CUST-E2E-0001';

describe('One-Time Passcode in Chromium', () => {
  let server: Awaited<ReturnType<typeof startServer>>;
  let browser: Browser;
  let page: Page;
  let receiver: Peer;

  beforeAll(async () => {
    receiver = await startPeer((_req, res) => json(res, 200, { received: true }), { tls: true });
    server = await startServer({
      linkFor: ['admin@acme.test'],
      env: { OUTBOUND_ALLOW_HOSTS: receiver.host, OUTBOUND_CA_FILE: path.join(ROOT, 'test/fixtures/loopback-cert.pem') },
    });
    browser = await launchBrowser();
    page = await (await browser.newContext()).newPage();
    await page.goto(server.links['admin@acme.test']!);
    await page.getByRole('heading', { name: 'One-Time Passcode' }).waitFor();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await receiver?.close();
  });

  it('the admin chooses the Development outbox on SMS Configuration', async () => {
    await page.goto(`${server.url}/settings/sms-configuration`);
    const card = page.locator('[data-integration="dev-outbox"]');
    await card.waitFor();
    // the demo account may already send through it; otherwise it is one click
    const connect = card.getByRole('button', { name: 'Connect Development outbox' });
    if (await connect.isVisible()) await connect.click();
    await page
      .locator('[data-integration="dev-outbox"][data-connected="true"]')
      .getByRole('link', { name: 'Open the development outbox' })
      .waitFor();
  });

  it('a number without its country code is said on the field in plain words, focus goes there and the button keeps its label', async () => {
    await page.goto(`${server.url}/one-time-passcode`);
    const send = page.getByRole('form', { name: 'Send passcode' });
    const phone = send.getByLabel('Phone number');
    await phone.fill('020 7946 0018');
    await send.getByRole('button', { name: 'Send passcode' }).click();
    await expect.poll(() => phone.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await phone.getAttribute('aria-invalid')).toBe('true');
    const describedBy = (await phone.getAttribute('aria-describedby'))!.split(' ');
    const said = await Promise.all(describedBy.map((id) => page.locator(`[id="${id}"]`).textContent()));
    expect(said).toContain('Enter the number with its country code, e.g. +44 20 7946 0018');
    expect(await send.getByRole('button', { name: 'Send passcode' }).getAttribute('data-phase')).toBe('idle');
    await phone.fill('');
  });

  it('an admin sends a passcode from the dashboard, reads it in the development outbox and checks it', async () => {
    await page.goto(`${server.url}/one-time-passcode`);
    const send = page.getByRole('form', { name: 'Send passcode' });
    await send.getByLabel('Phone number').fill(PHONE);
    await send.getByLabel('Customer ID').fill(CUSTOMER);
    await send.getByRole('button', { name: 'Send passcode' }).click();
    await page.getByTestId('action-status').getByText('Pending').waitFor();

    const outbox = await page.context().newPage();
    await outbox.goto(`${server.url}/dev/sms-outbox`);
    const message = outbox.getByTestId('outbox-message').filter({ hasText: PHONE }).first();
    await message.waitFor();
    const text = (await message.locator('.sms-bubble').textContent()) ?? '';
    const code = /\b(\d{4,10})\b/.exec(text)?.[1];
    expect(code, `a passcode in "${text}"`).toBeTruthy();
    await outbox.close();

    const check = page.getByRole('form', { name: 'Check code' });
    await check.getByLabel('Code').fill(code!);
    await check.getByRole('button', { name: 'Check code' }).click();
    await page.getByTestId('action-status').getByText('Approved').waitFor();
  });

  it('the approved passcode shows in Authentications, filtered by customer', async () => {
    await page.goto(`${server.url}/one-time-passcode/authentications?customer=${CUSTOMER}`);
    const table = page.getByRole('table', { name: 'Authentications' });
    await table.waitFor();
    const row = table.getByRole('row').filter({ hasText: CUSTOMER });
    expect(await row.count()).toBe(1);
    await row.getByText('Approved').waitFor();
    await row.getByText('+1 •••• •• 4567').waitFor();
  });

  it('the dashboard lists it among the latest authentications', async () => {
    await page.goto(`${server.url}/one-time-passcode`);
    const latest = page.getByRole('table', { name: 'Latest authentications' });
    await latest.getByRole('row').filter({ hasText: CUSTOMER }).getByText('Approved').waitFor();
    await page.getByTestId('kpi-verified').waitFor();
  });

  it('Ctrl+K finds it and opens it in Authentications with its timeline', async () => {
    await page.keyboard.press('Control+k');
    await page.getByRole('combobox', { name: 'Customer ID or phone number' }).fill(CUSTOMER);
    const option = page.getByRole('option').filter({ hasText: 'One-Time Passcode' }).first();
    await option.waitFor();
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/one-time-passcode\/authentications\?session=/);
    const timeline = page.getByRole('list', { name: 'Timeline' });
    await timeline.waitFor();
    expect((await timeline.getByRole('listitem').count()) >= 2).toBe(true);
  });

  it('SMS content previews the message and counts GSM-7 and UCS-2 segments', async () => {
    await page.goto(`${server.url}/one-time-passcode/settings/sms-content`);
    const area = page.getByRole('textbox', { name: 'Passcode message' });
    await area.fill('{{company}}: your code is {{code}} €');
    await expect.poll(() => page.getByTestId('sms-preview').textContent()).toMatch(/^Acme Support: your code is \d+ €$/);
    await expect.poll(() => page.getByTestId('segment-counter').textContent()).toContain('GSM-7');
    await area.fill(`{{code}} ${'a'.repeat(160)}`);
    await expect.poll(() => page.getByTestId('segment-counter').textContent()).toContain('2 segments');
    await area.fill('{{code}} ✓');
    await expect.poll(() => page.getByTestId('segment-counter').textContent()).toContain('UCS-2');
    await area.fill('Hello');
    await page.getByText('The message must contain {{code}}').waitFor();
  });

  it('SMS content sends a test SMS to the development outbox', async () => {
    await page.goto(`${server.url}/one-time-passcode/settings/sms-content`);
    const test = page.getByRole('form', { name: 'Send test SMS' });
    await test.getByLabel('Phone number').fill('+15550109999');
    await test.getByRole('button', { name: 'Send test SMS' }).click();
    await test.getByText('Sent through the development outbox.').waitFor();
    await page.goto(`${server.url}/dev/sms-outbox`);
    await page.getByTestId('outbox-message').filter({ hasText: '+15550109999' }).first().waitFor();
  });

  it('"How your customers see your links" opens the customer page preview', async () => {
    await page.goto(`${server.url}/one-time-passcode/settings/sms-content`);
    const [preview] = await Promise.all([
      page.context().waitForEvent('page'),
      page.getByRole('button', { name: 'How your customers see your links' }).click(),
    ]);
    await preview.waitForURL(/\/c\//);
    await preview.getByText('Acme Support').first().waitFor();
    await preview.close();
  });

  it('a webhook endpoint receives its test event, and the delivery log shows it', async () => {
    await page.goto(`${server.url}/one-time-passcode/settings/webhooks`);
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add an endpoint' });
    await dialog.getByLabel('URL').fill(`${receiver.url}/hooks/otp`);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.getByText('The endpoint has been added').waitFor();
    await page.getByRole('button', { name: 'Send test event' }).click();
    await expect
      .poll(() => receiver.received.filter((r) => r.path === '/hooks/otp').length, { timeout: 30_000 })
      .toBeGreaterThan(0);
    expect(receiver.received.find((r) => r.path === '/hooks/otp')!.headers['x-signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64}/);
    const log = page.getByRole('table', { name: `Deliveries to ${receiver.url}/hooks/otp` });
    await expect
      .poll(
        async () => {
          await page.getByRole('button', { name: 'Refresh' }).click();
          return log.getByText('Succeeded').count();
        },
        { timeout: 30_000 },
      )
      .toBeGreaterThan(0);
    await log.getByRole('cell', { name: '200' }).first().waitFor();
  });

  it('every One-Time Passcode page fits a 360 px side panel without sideways scrolling', async () => {
    const narrow = await browser.newPage({ viewport: { width: 360, height: 740 } });
    await narrow.goto(server.links['admin@acme.test']!);
    await narrow.getByRole('heading', { name: 'One-Time Passcode' }).waitFor();
    const pages: [string, string][] = [
      ['', 'One-Time Passcode'],
      ['/authentications', 'Authentications'],
      ['/settings/general', 'One-Time Passcode: General'],
      ['/settings/sms-content', 'One-Time Passcode: SMS content'],
      ['/settings/webhooks', 'One-Time Passcode: Webhooks'],
    ];
    for (const [path, heading] of pages) {
      await narrow.goto(`${server.url}/one-time-passcode${path}`);
      await narrow.getByRole('heading', { name: heading, level: 1 }).waitFor();
      await settle(narrow);
      const width = await narrow.evaluate(() => document.documentElement.scrollWidth);
      expect(width, `${path || '/'} is ${width} px wide`).toBeLessThanOrEqual(360);
    }
    await narrow.close();
  });
});
