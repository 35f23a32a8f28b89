import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from './axe';
import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';
import { freePort, launchBrowser, startServer } from './harness';
import { settle } from './harness';

// The Passkeys app end to end on the built server: an admin sends an enrollment link from the
// dashboard, the customer creates a passkey on the customer page with Chromium's virtual
// authenticator (the DevTools WebAuthn domain, a real ceremony), verifies with it, the admin
// finds both in Enrollments, Activity and the dashboard, revokes the passkey, and a verification
// link sent before the revocation opens a clear page. The console runs on http://localhost (an
// RP ID must be a domain name, never an IP).

const PHONE = '+15550109876';
const CUSTOMER = 'CUST-E2E-PK1';

async function expectAccessible(page: Page) {
  await settle(page);
  const violations = await axeViolations(page);
  expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

describe('Passkeys in Chromium', () => {
  let server: Awaited<ReturnType<typeof startServer>>;
  let browser: Browser;
  let page: Page;
  let customerContext: BrowserContext;
  let customer: Page;
  let cdp: CDPSession;
  let authenticatorId: string;
  let pendingLink: string;

  beforeAll(async () => {
    const port = await freePort();
    server = await startServer({
      linkFor: ['admin@acme.test'],
      env: { PORT: String(port), PUBLIC_URL: `http://localhost:${port}` },
    });
    browser = await launchBrowser();
    page = await (await browser.newContext()).newPage();
    await page.goto(server.links['admin@acme.test']!);
    await page.getByRole('heading', { name: 'One-Time Passcode' }).waitFor();
    // the customer's phone: its own context, with a platform authenticator that says yes
    customerContext = await browser.newContext();
    customer = await customerContext.newPage();
    cdp = await customerContext.newCDPSession(customer);
    await cdp.send('WebAuthn.enable');
    ({ authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    }));
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  /** Runs an agent action from the dashboard's "Send to a customer" and answers the link it texted. */
  async function sendLink(action: 'Enroll a passkey' | 'Verify with a passkey', fields: Record<string, string>): Promise<string> {
    await page.goto(`${server.url}/passkeys`);
    const form = page.getByRole('form', { name: action });
    for (const [label, value] of Object.entries(fields)) await form.getByLabel(label).fill(value);
    await form.getByRole('button', { name: action }).click();
    await page.getByTestId('action-status').getByText('link sent to').waitFor();
    const outbox = await page.context().newPage();
    await outbox.goto(`${server.url}/dev/sms-outbox`);
    const message = outbox.getByTestId('outbox-message').filter({ hasText: PHONE }).first();
    await message.waitFor();
    const text = (await message.locator('.sms-bubble').textContent()) ?? '';
    await outbox.close();
    const link = /(http:\/\/localhost:\d+\/c\/[A-Za-z0-9_-]{43})/.exec(text)?.[1];
    expect(link, `a link in "${text}"`).toBeTruthy();
    return link!;
  }

  it('the customer creates a passkey on the enrollment page, which is accessible and fits 320 px', async () => {
    const link = await sendLink('Enroll a passkey', {
      'Customer ID': CUSTOMER,
      'Phone number': PHONE,
      'Name on the passkey': 'Ada Lovelace',
    });
    await customer.setViewportSize({ width: 320, height: 640 });
    await customer.goto(link);
    await customer.getByRole('heading', { name: 'Create a passkey' }).waitFor();
    await customer.getByText('Hello Ada Lovelace.').waitFor();
    const button = customer.getByRole('button', { name: 'Create a passkey' });
    await expect.poll(() => button.isEnabled()).toBe(true);
    expect(await customer.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
    await expectAccessible(customer);

    await button.click();
    await customer.getByRole('heading', { name: 'Passkey created' }).waitFor();
    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    expect(credentials.map((c) => c.rpId)).toEqual(['localhost']);
  });

  it('the customer verifies with the passkey on the verification page', async () => {
    const link = await sendLink('Verify with a passkey', { 'Customer ID': CUSTOMER, 'Phone number': PHONE });
    await customer.goto(link);
    await customer.getByRole('heading', { name: 'Confirm it is you' }).waitFor();
    const button = customer.getByRole('button', { name: 'Use my passkey' });
    await expect.poll(() => button.isEnabled()).toBe(true);
    await button.click();
    await customer.getByRole('heading', { name: 'Thank you, you are verified' }).waitFor();
    // the agent's screen followed the task live
    await page.getByTestId('action-status').getByText('The caller is verified with their passkey.').waitFor();
    // the link is spent
    await customer.goto(link);
    await customer.getByRole('heading', { name: 'This link has already been used' }).waitFor();
  });

  it('the admin sees the passkey in Enrollments and both tasks in Activity and on the dashboard; Enrollments and General are accessible', async () => {
    await page.goto(`${server.url}/passkeys/enrollments`);
    const table = page.getByRole('table', { name: 'Passkeys' });
    const row = table.getByRole('row').filter({ hasText: CUSTOMER });
    await row.waitFor();
    await row.getByText('Device-bound').waitFor();
    await row.getByText('This device').waitFor();
    // the sign count the server kept is the one the authenticator holds (it counts registration too)
    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    // (the eighth cell: Sign count, before the credential id, which comes last)
    expect(await row.getByRole('cell').nth(7).textContent()).toBe(String(credentials[0]!.signCount));
    await row.locator('code').filter({ hasText: '…' }).waitFor();
    await expectAccessible(page);

    await page.goto(`${server.url}/passkeys/activity?customer=${CUSTOMER}`);
    const activity = page.getByRole('table', { name: 'Activity' });
    await activity.getByRole('row').filter({ hasText: 'Verification' }).getByText('Succeeded').waitFor();
    await activity.getByRole('row').filter({ hasText: 'Enrollment' }).getByText('Succeeded').waitFor();

    await page.goto(`${server.url}/passkeys`);
    const latest = page.getByRole('table', { name: 'Latest enrollments and verifications' });
    await latest.getByRole('row').filter({ hasText: CUSTOMER }).first().waitFor();
    await page.getByText('Registrations').first().waitFor();
    await page.getByText('Verified rate').first().waitFor();

    await page.goto(`${server.url}/passkeys/settings/general`);
    await page.getByLabel('User verification').waitFor();
    await expectAccessible(page);
  });

  it('after the admin revokes the passkey, a verification link sent before opens a clear page', async () => {
    pendingLink = await sendLink('Verify with a passkey', { 'Customer ID': CUSTOMER, 'Phone number': PHONE });
    await page.goto(`${server.url}/passkeys/enrollments`);
    const row = page.getByRole('table', { name: 'Passkeys' }).getByRole('row').filter({ hasText: CUSTOMER });
    await row.getByRole('button', { name: /^Revoke passkey/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Revoke this passkey?' });
    await dialog.getByRole('button', { name: 'Revoke' }).click();
    await row.getByText('Revoked').waitFor();

    await customer.goto(pendingLink);
    await customer.getByRole('heading', { name: 'You have no passkey with us' }).waitFor();
    expect(await customer.getByRole('button').count()).toBe(0);

    // and the agent is told there is nothing to verify with
    await page.goto(`${server.url}/passkeys`);
    const form = page.getByRole('form', { name: 'Verify with a passkey' });
    await form.getByLabel('Customer ID').fill(CUSTOMER);
    await form.getByLabel('Phone number').fill(PHONE);
    await form.getByRole('button', { name: 'Verify with a passkey' }).click();
    await form
      .getByRole('alert')
      .getByText(/has no passkey/)
      .waitFor();
  });
});
