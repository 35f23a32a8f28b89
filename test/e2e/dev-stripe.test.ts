import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from './axe';
import type { Browser, Page } from 'playwright-core';
import { freePort, launchBrowser, pickChoice, settle, startServer } from './harness';

// A new user on `npm start` with no Stripe anywhere: the server starts its development Stripe
// stand-in (DEV_STRIPE defaults on in development; set here because the harness turns it off for
// the other files). In Chromium an admin subscribes to an app through the stand-in's Checkout,
// another connects Stripe, adds a product, requests a payment from the dashboard and the customer
// pays with the test card: each screen that reaches the stand-in says it is the development one.

const ACME = 'owner@acme.test';
const GLOBEX = 'owner@globex.test';

async function expectAccessible(page: Page) {
  await settle(page);
  const violations = await axeViolations(page);
  expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

describe('the development Stripe stand-in on a fresh machine', () => {
  let server: Awaited<ReturnType<typeof startServer>>;
  let browser: Browser;
  let standIn = '';

  beforeAll(async () => {
    const port = await freePort();
    standIn = `http://127.0.0.1:${port}`;
    server = await startServer({ linkFor: [ACME, GLOBEX], env: { DEV_STRIPE: 'true', DEV_STRIPE_PORT: String(port) } });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  async function signedIn(email: string): Promise<Page> {
    const page = await (await browser.newContext()).newPage();
    await page.goto(server.links[email]!);
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    return page;
  }

  it('the server says at start that Stripe is the development stand-in', () => {
    expect(server.output()).toContain(`Development Stripe stand-in on ${standIn}`);
  });

  it('an admin subscribes to an app: Checkout on the stand-in (marked, test cards, a declined card said) and back subscribed', async () => {
    const page = await signedIn(ACME);
    await page.goto(`${server.url}/settings/billing`);
    await page.getByTestId('stripe-stand-in').waitFor();
    expect(await page.getByTestId('billing-not-configured').count()).toBe(0);
    await page.getByRole('button', { name: 'Subscribe to Passkeys' }).click();
    await page.waitForURL((u) => u.toString().startsWith(`${standIn}/checkout/`));
    await page.getByText('Development Stripe stand-in', { exact: false }).first().waitFor();
    await expectAccessible(page);
    await page.getByLabel('Card number').fill('4000 0000 0000 0002');
    await page.getByRole('button', { name: 'Pay and subscribe' }).click();
    await page.getByRole('alert').getByText('Your card was declined').waitFor();
    await page.getByLabel('Card number').fill('4242 4242 4242 4242');
    await page.getByRole('button', { name: 'Pay and subscribe' }).click();
    // back where the admin pressed Subscribe (Settings > Billing), told that it worked
    await page.getByText('Subscribed to Passkeys').waitFor({ timeout: 20_000 });
    expect(new URL(page.url()).pathname).toBe('/settings/billing');
    await page.getByRole('region', { name: 'Passkeys billing' }).getByText('Subscribed').waitFor({ timeout: 20_000 });
    await page.getByTestId('stripe-stand-in').waitFor();
    await page.context().close();
  });

  it('an admin connects Stripe, adds a product, requests a payment; the customer pays with the test card; it shows succeeded', async () => {
    const page = await signedIn(GLOBEX);
    expect(
      (
        await page.request.post(`${server.url}/api/sms`, {
          headers: { authorization: `Bearer ${new URL(server.links[GLOBEX]!).searchParams.get('token')}` },
          data: { provider: 'dev-outbox' },
        })
      ).status(),
    ).toBe(200);
    await page.goto(`${server.url}/payments/settings/stripe`);
    await page.getByTestId('stripe-stand-in').waitFor();
    await page.getByRole('button', { name: 'Connect with Stripe' }).click();
    await page.waitForURL((u) => u.toString().startsWith(`${standIn}/oauth/authorize`));
    await expectAccessible(page);
    await page.getByRole('link', { name: 'Connect my Stripe account' }).click();
    await page.getByText('Stripe is connected').waitFor();
    await page.goto(`${server.url}/payments/products`);
    await page.getByRole('button', { name: 'Add a product' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Name').fill('Gutter cleaning');
    await dialog.getByLabel('Price').fill('85.00');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('table', { name: 'Products' }).getByText('$85.00').waitFor();
    await page.goto(`${server.url}/payments`);
    await page.getByTestId('stripe-stand-in').waitFor();
    const form = page.getByRole('form', { name: 'Request a payment' });
    await form.getByLabel('Phone number').fill('+15550109901');
    await pickChoice(form, 'Product', 'gutter', 'Gutter cleaning');
    await form.getByRole('button', { name: 'Request a payment' }).click();
    await page.getByTestId('action-status').getByText('Requested').waitFor();
    const outbox = await page.context().newPage();
    await outbox.goto(`${server.url}/dev/sms-outbox`);
    const message = outbox.getByTestId('outbox-message').filter({ hasText: '+15550109901' }).first();
    await message.waitFor();
    const link = ((await message.locator('.sms-bubble').textContent()) ?? '').match(/https?:\/\/\S+\/c\/[A-Za-z0-9_-]{43}/)![0];
    await outbox.close();
    // the customer's phone: the page says it is a test payment, Stripe's page says it is the stand-in
    const customer = await (await browser.newContext({ viewport: { width: 320, height: 640 } })).newPage();
    await customer.goto(link);
    await customer.getByText('Test payment: this server uses the development Stripe stand-in.', { exact: false }).waitFor();
    await customer.getByRole('link', { name: 'Pay $85.00 by card' }).click();
    await customer.waitForURL((u) => u.toString().startsWith(`${standIn}/pay/`));
    await expectAccessible(customer);
    expect(await customer.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
    await customer.getByRole('button', { name: 'Pay' }).click();
    await customer.getByRole('heading', { name: 'Payment received' }).waitFor();
    await customer.context().close();
    await page.getByTestId('action-status').getByText('Succeeded').waitFor();
    await page.context().close();
  });
});
