import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, ROOT, startServer } from './harness';
import { json, startPeer, type Peer } from '../api/peers';
import { axeViolations, describeViolations } from './axe';

// The three integration screens against real peers on loopback: a fake Twilio REST API, a
// customer API over https (test CA) and a Sumo Logic style https receiver.

const SID = 'AC0123456789abcdef0123456789abcdef';
const TOKEN = 'e2e-twilio-token';

describe('integration settings in Chromium', () => {
  let server: Awaited<ReturnType<typeof startServer>>;
  let browser: Browser;
  let page: Page;
  let twilio: Peer;
  let customers: Peer;
  let receiver: Peer;

  beforeAll(async () => {
    twilio = await startPeer((req, res) => {
      const ok = req.headers.authorization === `Basic ${Buffer.from(`${SID}:${TOKEN}`).toString('base64')}`;
      if (req.path === `/2010-04-01/Accounts/${SID}.json` && ok) return json(res, 200, { sid: SID, status: 'active' });
      json(res, 401, { code: 20003, message: 'Authenticate' });
    });
    customers = await startPeer(
      (req, res) => {
        if (req.headers['x-api-key'] !== 'k-123') return json(res, 401, { error: 'bad key' });
        if (req.path === '/broken') return json(res, 500, { error: 'database down' });
        const phone = req.query.get('phoneNumber');
        json(res, 200, {
          data: {
            customers:
              phone === '+447700900123'
                ? [
                    { id: 'c-1', name: { first: 'Ada', last: 'Lovelace' }, plan: 'gold' },
                    { id: 'c-2', name: { first: 'Alan', last: 'Turing' }, plan: 'silver' },
                  ]
                : [],
          },
        });
      },
      { tls: true },
    );
    receiver = await startPeer((_req, res) => json(res, 200, {}), { tls: true });
    server = await startServer({
      linkFor: ['owner@acme.test'],
      env: {
        TWILIO_API_URL: twilio.url,
        OUTBOUND_ALLOW_HOSTS: [twilio.host, customers.host, receiver.host].join(','),
        OUTBOUND_CA_FILE: path.join(ROOT, 'test/fixtures/loopback-cert.pem'),
      },
    });
    browser = await launchBrowser();
    page = await browser.newPage();
    await page.goto(server.links['owner@acme.test']!);
    await page.getByRole('heading', { name: 'One-Time Passcode' }).waitFor();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await Promise.all([twilio?.close(), customers?.close(), receiver?.close()]);
  });

  it('SMS: Cisco and Zoom are disabled; Twilio connects, sorts first and disconnects', async () => {
    await page.goto(`${server.url}/settings/sms-configuration`);
    await page.getByText('Contact Journey to enable Cisco SMS').waitFor();
    await page.getByText('Contact Journey to enable Zoom SMS').waitFor();
    await page.getByRole('button', { name: 'Connect Twilio' }).click();
    const dialog = page.getByRole('dialog', { name: 'Connect Twilio' });
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByText('Account SID is required').waitFor();
    await dialog.getByLabel('Account SID').fill(SID);
    await dialog.getByLabel('Auth Token').fill(TOKEN);
    await dialog.getByLabel('Phone number').fill('4155550100');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByText('Phone number must be in e164 format (with leading + and country code)').waitFor();
    await dialog.getByLabel('Phone number').fill('+14155550100');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Twilio has been configured').waitFor();
    await page.locator('[data-integration="twilio"][data-connected="true"]').waitFor();
    const first = page.locator('[data-integration]').first();
    expect(await first.getAttribute('data-integration')).toBe('twilio');
    expect(await first.getAttribute('data-connected')).toBe('true');
    await first.getByText('Connected').waitFor();
    // Managing: the token is never shown; left blank, the stored one is kept (Twilio checks it).
    await page.getByRole('button', { name: 'Manage Twilio' }).click();
    const manage = page.getByRole('dialog', { name: 'Manage Twilio' });
    expect(await manage.getByLabel('Auth Token').inputValue()).toBe('');
    await manage.getByText('Leave blank to keep the current value').waitFor();
    await manage.getByLabel('Phone number').fill('+14155550199');
    await manage.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Sending from +14155550199', { exact: false }).waitFor();
    await page.getByRole('button', { name: 'Disconnect Twilio' }).click();
    await page.getByRole('dialog', { name: 'Disconnect Twilio?' }).getByRole('button', { name: 'Disconnect' }).click();
    await page.getByText('Twilio has been disconnected').waitFor();
    await page.getByRole('button', { name: 'Connect Twilio' }).waitFor();
  });

  it('Customer lookup: saving, and the test panel finding customers, none, or failing', async () => {
    await page.goto(`${server.url}/settings/customer-lookup`);
    await page.getByText('Run a test to see which customers your endpoint finds for a phone number.').waitFor();
    await page.getByLabel('URL').fill('http://crm.example.com');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('URL must start with https://').waitFor();
    await page.getByLabel('URL').fill(`${customers.url}/customers`);
    await page.getByRole('button', { name: 'Add header' }).click();
    await page.getByLabel('Header 1 name').fill('X-Api-Key');
    await page.getByLabel('Header 1 value').fill('k-123');
    await page.getByLabel('Customers array path').fill('data.customers');
    await page.getByLabel('Customer ID path').fill('id');
    await page.getByLabel('Title template').fill('{name.first} {name.last}');
    await page.getByLabel('Description template').fill('Plan: {plan}');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Customer lookup settings have been saved').waitFor();

    const panel = page.getByRole('region', { name: 'Test panel' });
    await panel.getByLabel('Phone number').fill('+447700900123');
    await panel.getByRole('button', { name: 'Run test' }).click();
    await panel.getByText('Found 2 customers').waitFor();
    await panel.getByText('Ada Lovelace').waitFor();
    await panel.getByText('Plan: silver').waitFor();
    await panel.getByText('c-1', { exact: true }).waitFor();

    await panel.getByLabel('Phone number').fill('+15550000000');
    await panel.getByRole('button', { name: 'Run test' }).click();
    await panel.getByText('No Results').waitFor();
    await panel.getByText('API succeeded but found no customers. Check your path configuration.').waitFor();

    // a saved header value belongs to the URL it was entered for: another URL needs it typed again
    await page.getByLabel('URL').fill(`${customers.url}/broken`);
    await panel.getByRole('button', { name: 'Run test' }).click();
    await panel.getByText('Request Failed').waitFor();
    await panel.getByText('Fix the settings first: Value is required').waitFor();
    await page.getByText('Value is required', { exact: true }).waitFor();
    await page.getByLabel('Header 1 value').fill('k-123');
    await panel.getByRole('button', { name: 'Run test' }).click();
    await panel.getByText('Request Failed').waitFor();
    await panel.getByText(/The endpoint answered 500/).waitFor();

    // after a reload the header value is not shown, only kept
    await page.reload();
    await page.getByLabel('Header 1 name').waitFor();
    expect(await page.getByLabel('Header 1 value').inputValue()).toBe('');
    expect(await page.content()).not.toContain('k-123');
  });

  it('Customer lookup at 400 px: Test fetches the sample answer, clicking values fills the paths, and the saved lookup works', async () => {
    await page.setViewportSize({ width: 400, height: 800 });
    try {
      await page.goto(`${server.url}/settings/customer-lookup`);
      await page.getByLabel('URL').waitFor();
      // the text boxes of the form (the sample answer's radios carry the same names)
      const field = (name: string) => page.getByRole('textbox', { name: new RegExp(`^${name}`) });
      await page.getByLabel('URL').fill(`${customers.url}/customers`);
      if ((await page.getByLabel('Header 1 name').count()) === 0) await page.getByRole('button', { name: 'Add header' }).click();
      await page.getByLabel('Header 1 name').fill('X-Api-Key');
      await page.getByLabel('Header 1 value').fill('k-123');
      for (const label of ['Customers array path', 'Customer ID path', 'Title template', 'Description template'])
        await field(label).fill('');

      const panel = page.getByRole('region', { name: 'Test panel' });
      await panel.getByLabel('Phone number').fill('+447700900123');
      await panel.getByRole('button', { name: 'Run test' }).click();
      await panel.getByText('Sample answer received').waitFor();
      const sample = panel.getByRole('region', { name: 'Sample answer' });
      const value = (text: string) => sample.getByRole('button', { name: text, exact: true }).first();

      // the first field still empty is chosen: the customers list
      expect(await sample.getByRole('radio', { name: 'Customers array path' }).isChecked()).toBe(true);
      await value('[2 items]').click();
      expect(await field('Customers array path').inputValue()).toBe('data.customers');
      await sample.getByRole('radio', { name: 'Customer ID path' }).check();
      await value('"c-1"').click();
      expect(await field('Customer ID path').inputValue()).toBe('id');
      await sample.getByRole('radio', { name: 'Title template' }).check();
      await value('"Ada"').click();
      await value('"Lovelace"').click();
      expect(await field('Title template').inputValue()).toBe('{name.first} {name.last}');
      // by keyboard: focus the value and press Enter
      await sample.getByRole('radio', { name: 'Description template' }).check();
      await value('"gold"').focus();
      await page.keyboard.press('Enter');
      expect(await field('Description template').inputValue()).toBe('{plan}');
      // a single value is not a list of customers: said, and nothing is filled
      await sample.getByRole('radio', { name: 'Customers array path' }).check();
      await value('"silver"').click();
      await sample.getByText('choose a list (or one customer), not a single value', { exact: false }).waitFor();
      expect(await field('Customers array path').inputValue()).toBe('data.customers');

      // nothing runs wider than the window, the sample answer included
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(400);
      const box = await sample.boundingBox();
      expect(box!.x + box!.width).toBeLessThanOrEqual(400);
      const violations = await axeViolations(page, { include: '.sample-answer' });
      expect(
        violations.map((v) => v.id),
        describeViolations(violations),
      ).toEqual([]);

      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByText('Customer lookup settings have been saved').waitFor();
      await panel.getByRole('button', { name: 'Run test' }).click();
      await panel.getByText('Found 2 customers').waitFor();
      await panel.getByText('Ada Lovelace').waitFor();
      await panel.getByText('Alan Turing').waitFor();
      await panel.getByText('silver', { exact: true }).waitFor();
    } finally {
      await page.setViewportSize({ width: 1280, height: 720 });
    }
  });

  it('Logging: a Sumo Logic test passes, connecting ships the account events, disconnecting works', async () => {
    await page.goto(`${server.url}/settings/logging`);
    await page.getByText('Contact Journey to enable SFTP log delivery').waitFor();
    await page.getByRole('button', { name: 'Connect Sumo Logic' }).click();
    const dialog = page.getByRole('dialog', { name: 'Connect Sumo Logic' });
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByText('Collector URL is required').waitFor();
    await dialog.getByLabel('Collector URL').fill(`${receiver.url}/receiver/v1/http/token`);
    await dialog.getByRole('button', { name: 'Send test event' }).click();
    await dialog.getByRole('button', { name: 'Test passed' }).waitFor();
    expect(receiver.received.some((r) => r.body.includes('"event":"logging.test"'))).toBe(true);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Sumo Logic has been configured').waitFor();
    await page.locator('[data-integration="sumologic"][data-connected="true"]').waitFor();
    const first = page.locator('[data-integration]').first();
    expect(await first.getAttribute('data-integration')).toBe('sumologic');
    // the server's worker delivers the audit entry of the connection itself
    const deadline = Date.now() + 15_000;
    while (!receiver.received.some((r) => r.body.includes('"event":"logging.configured"'))) {
      if (Date.now() > deadline) throw new Error('the logging.configured event was not shipped');
      await new Promise((r) => setTimeout(r, 200));
    }
    // Managing: the collector URL is left blank and the test uses the stored one.
    await page.getByRole('button', { name: 'Manage Sumo Logic' }).click();
    const manage = page.getByRole('dialog', { name: 'Manage Sumo Logic' });
    expect(await manage.getByLabel('Collector URL').inputValue()).toBe('');
    await manage.getByText('Leave blank to keep the current value').waitFor();
    await manage.getByRole('button', { name: 'Send test event' }).click();
    await manage.getByRole('button', { name: 'Test passed' }).waitFor();
    await manage.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('button', { name: 'Disconnect Sumo Logic' }).click();
    await page.getByRole('dialog', { name: 'Disconnect Sumo Logic?' }).getByRole('button', { name: 'Disconnect' }).click();
    await page.getByText('Sumo Logic has been disconnected').waitFor();
  });

  it('Logging: a test that fails says so', async () => {
    await page.getByRole('button', { name: 'Connect Rapid7' }).click();
    const dialog = page.getByRole('dialog', { name: 'Connect Rapid7' });
    await dialog.getByLabel('Webhook URL').fill(`${customers.url}/webhook`); // answers 401: no API key
    await dialog.getByRole('button', { name: 'Send test event' }).click();
    await dialog.getByText('Test failed. Please check your credentials and try again.').waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
  });
});
