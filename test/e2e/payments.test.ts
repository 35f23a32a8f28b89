import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from './axe';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, pickChoice, startServer } from './harness';
import { settle } from './harness';
import { STATE_MESSAGES } from '../../api/contract/stripe-states';
import { PAYMENTS_TEMPLATES } from '../../api/contract/apps/payments';
import { builtInSmsText } from '../../api/contract/sms-translations';
import { formatMinor } from '../../api/contract/money';
import type { TaskDetail } from '../../api/contract/platform';
import { translate } from '../../api/customer-pages/i18n/index';
import { startStripePeer, type StripePeer } from '../support/stripe-peer';
import { addStripeConnect, connectServerEnv, type ConnectPeer } from '../support/stripe-connect-peer';

// The Payments app as an admin of Globex uses it, on the built server against the loopback
// Stripe: connect the Stripe account through Stripe's (loopback) authorize page, add a product,
// request a payment, the customer pays on the (loopback) Checkout page and Stripe's signed event
// reaches the server, the payment shows succeeded on the list and the dashboard, and is refunded.

const ADMIN = 'owner@globex.test';

async function expectAccessible(page: Page) {
  await settle(page);
  const violations = await axeViolations(page);
  expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}
const PHONE = '+15550107788';
const CUSTOMER = 'CUST-PAY-E2E';

describe('Payments in Chromium', () => {
  let server: Awaited<ReturnType<typeof startServer>>;
  let browser: Browser;
  let page: Page;
  let peer: StripePeer;
  let connect: ConnectPeer;
  let webhookUrl = '';

  beforeAll(async () => {
    peer = await startStripePeer({ webhookSecret: 'whsec_billing_unused' });
    connect = addStripeConnect(peer, {
      clientId: 'ca_e2e_platform',
      webhookSecret: 'whsec_connect_e2e',
      secretKey: 'sk_test_e2e_platform',
      deliver: async (payload, signature) => {
        const res = await fetch(webhookUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'stripe-signature': signature },
          body: payload,
        });
        await res.arrayBuffer();
        return res.status;
      },
    });
    server = await startServer({
      linkFor: [ADMIN],
      env: connectServerEnv(peer, 'ca_e2e_platform', 'whsec_connect_e2e', 'sk_test_e2e_platform'),
    });
    webhookUrl = `${server.url}/api/payments/stripe/webhook`;
    browser = await launchBrowser();
    page = await (await browser.newContext()).newPage();
    await page.goto(server.links[ADMIN]!);
    await page.getByRole('heading', { level: 1 }).first().waitFor();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await peer?.close();
  });

  it('the admin sends through the development outbox', async () => {
    await page.goto(`${server.url}/settings/sms-configuration`);
    const card = page.locator('[data-integration="dev-outbox"]');
    await card.waitFor();
    const button = card.getByRole('button', { name: 'Connect Development outbox' });
    if (await button.isVisible()) await button.click();
    await page.locator('[data-integration="dev-outbox"][data-connected="true"]').waitFor();
  });

  it('without Stripe the dashboard keeps the send form off and links to connecting Stripe', async () => {
    await page.goto(`${server.url}/payments`);
    const notice = page.getByTestId('actions-unavailable');
    await notice.getByText(STATE_MESSAGES.STRIPE_NOT_CONNECTED).waitFor();
    const form = page.getByRole('form', { name: 'Request a payment' });
    expect(await form.getByRole('button', { name: 'Request a payment' }).isDisabled()).toBe(true);
    await notice.getByRole('link', { name: 'Connect Stripe' }).click();
    await page.waitForURL(`${server.url}/payments/settings/stripe`);
    await page.getByRole('button', { name: 'Connect with Stripe' }).waitFor();
  });

  it('without Stripe the catalog says how to connect; Connect with Stripe goes through Stripe and back', async () => {
    await page.goto(`${server.url}/payments/products`);
    await page.getByText(STATE_MESSAGES.STRIPE_NOT_CONNECTED).waitFor();
    await page.goto(`${server.url}/payments/settings/stripe`);
    await page.getByRole('button', { name: 'Connect with Stripe' }).click();
    await page.waitForURL((u) => u.toString().startsWith(`${peer.url}/oauth/authorize`));
    await page.getByRole('link', { name: 'Connect my Stripe account' }).click();
    await page.getByText('Stripe is connected').waitFor();
    expect(new URL(page.url()).search).toBe('');
    await page.goto(`${server.url}/payments/settings/stripe`);
    const facts = page.getByRole('definition');
    await facts.filter({ hasText: 'Globex Care Payments' }).waitFor();
    await facts.filter({ hasText: /^acct_/ }).waitFor();
    await facts.filter({ hasText: 'USD' }).waitFor();
  });

  let productId = '';
  it('the admin adds a product to the catalog', async () => {
    await page.goto(`${server.url}/payments/products`);
    await page.getByRole('button', { name: 'Add a product' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Name').fill('Boiler service');
    await dialog.getByLabel('Price').fill('49.00');
    await dialog.getByRole('button', { name: 'Save' }).click();
    const row = page.getByRole('table', { name: 'Products' }).getByRole('row').filter({ hasText: 'Boiler service' });
    await row.getByText('$49.00').waitFor();
    productId = (await row.locator('code').textContent())!;
    expect(productId).toMatch(/^prod_/);
  });

  let sms = '';
  it('a payment is requested from the dashboard and its link sent by SMS', async () => {
    await page.goto(`${server.url}/payments`);
    const form = page.getByRole('form', { name: 'Request a payment' });
    await form.getByLabel('Phone number').fill(PHONE);
    await form.getByLabel('Customer ID').fill(CUSTOMER);
    await pickChoice(form, 'Product', 'boiler', 'Boiler service');
    await form.getByRole('button', { name: 'Request a payment' }).click();
    await page.getByTestId('action-status').getByText('Requested').waitFor();
    const outbox = await page.context().newPage();
    await outbox.goto(`${server.url}/dev/sms-outbox`);
    const message = outbox.getByTestId('outbox-message').filter({ hasText: PHONE }).first();
    await message.waitFor();
    sms = (await message.locator('.sms-bubble').textContent()) ?? '';
    await outbox.close();
    expect(sms).toMatch(/\/c\/[A-Za-z0-9_-]{43}/);
  });

  it('the customer opens the link and pays on Stripe; the signed event marks it succeeded', async () => {
    // the customer's phone: a browser of its own, 320 px wide
    const customer = await (await browser.newContext({ viewport: { width: 320, height: 640 } })).newPage();
    await customer.goto(sms.match(/https?:\/\/\S+\/c\/[A-Za-z0-9_-]{43}/)![0]);
    await customer.getByRole('heading', { name: 'Pay $49.00' }).waitFor();
    await expectAccessible(customer);
    expect(await customer.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
    await customer.getByRole('link', { name: 'Pay $49.00 by card' }).click();
    await customer.getByRole('button', { name: 'Pay' }).click();
    await customer.getByRole('heading', { name: 'Payment received' }).waitFor();
    await customer.context().close();
    // the agent's status follows it live
    await page.getByTestId('action-status').getByText('Succeeded').waitFor();
    expect(connect.events.find((e) => e.event.type === 'checkout.session.completed')!.status).toBe(200);
  });

  it('the list and the dashboard show it succeeded', async () => {
    await page.goto(`${server.url}/payments/payments?customer=${CUSTOMER}`);
    const row = page.getByRole('table', { name: 'Payments' }).getByRole('row').filter({ hasText: CUSTOMER });
    await row.getByText('Succeeded').waitFor();
    await row.getByText('$49.00').first().waitFor();
    await expectAccessible(page);
    await page.goto(`${server.url}/payments/products`);
    await page.getByRole('table', { name: 'Products' }).waitFor();
    await expectAccessible(page);
    await page.goto(`${server.url}/payments/settings/stripe`);
    await page.getByRole('button', { name: 'Disconnect' }).waitFor();
    await expectAccessible(page);
    await page.goto(`${server.url}/payments`);
    await page.getByTestId('kpi-net').getByText('$49.00').waitFor();
    await page.getByTestId('kpi-requests').getByText('1').waitFor();
  });

  it('in Arabic: requested through /api/v1 in Arabic, the SMS and the page are in it (right to left), the customer pays; the timeline names the language', async () => {
    const session = `Bearer ${new URL(server.links[ADMIN]!).searchParams.get('token')}`;
    const call = (method: string, p: string, body: unknown, auth: string) =>
      fetch(`${server.url}/api${p}`, {
        method,
        headers: { authorization: auth, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    const { secretKey } = (await (await call('GET', '/accounts/developer', undefined, session)).json()) as { secretKey: string };
    const to = '+15550107799';
    const sent = await call(
      'POST',
      '/v1/payments',
      { productId, phoneNumber: to, customerRef: 'CUST-PAY-AR', locale: 'ar' },
      `Bearer ${secretKey}`,
    );
    expect(sent.status, await sent.clone().text()).toBe(201);
    const payment = (await sent.json()) as { id: string };
    const outbox = (await (await call('GET', '/dev/sms-outbox', undefined, session)).json()) as { to: string; body: string }[];
    const sms = outbox.find((m) => m.to === to)!.body;
    expect(
      sms.startsWith(
        builtInSmsText('payments', 'payment_link', 'ar', PAYMENTS_TEMPLATES[0]!.defaultBody)
          .split('{{link}}')[0]!
          .replace('{{company}}', 'Globex Care'),
      ),
    ).toBe(true);

    const t = (key: Parameters<typeof translate>[1], values?: Parameters<typeof translate>[2]) => translate('ar', key, values);
    const amount = formatMinor(4900, 'usd', 'ar');
    const customer = await (await browser.newContext({ viewport: { width: 320, height: 640 } })).newPage();
    await customer.goto(sms.match(/https?:\/\/\S+\/c\/[A-Za-z0-9_-]{43}/)![0]);
    expect(await customer.getAttribute('html', 'lang')).toBe('ar');
    expect(await customer.getAttribute('html', 'dir')).toBe('rtl');
    await customer.getByRole('heading', { name: t('pay.title', { amount }) }).waitFor();
    await expectAccessible(customer);
    expect(await customer.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
    await customer.getByRole('link', { name: t('pay.button', { amount }) }).click();
    await customer.getByRole('button', { name: 'Pay' }).click();
    // back from Stripe, in Arabic
    await customer.getByRole('heading', { name: t('pay.received.title') }).waitFor();
    expect(await customer.getAttribute('html', 'dir')).toBe('rtl');
    await expectAccessible(customer);
    await customer.context().close();

    const task = async () =>
      (await (await call('GET', `/payments/tasks/${payment.id}`, undefined, session)).json()) as TaskDetail;
    await expect.poll(async () => (await task()).status).toBe('succeeded');
    expect((await task()).events.map((e) => e.description)).toContain("Caller's language: Arabic (the agent's choice)");
  });

  it('the admin refunds it after a confirmation', async () => {
    await page.goto(`${server.url}/payments/payments?customer=${CUSTOMER}`);
    const row = page.getByRole('table', { name: 'Payments' }).getByRole('row').filter({ hasText: CUSTOMER });
    await row.getByRole('button', { name: /Open payment/ }).click();
    const panel = page.getByRole('dialog');
    await panel.getByRole('button', { name: 'Refund' }).click();
    await page
      .getByRole('dialog', { name: /Refund \$49\.00\?/ })
      .getByRole('button', { name: 'Refund' })
      .click();
    await page.getByText('Refunded in full ($49.00)').waitFor();
    await page.keyboard.press('Escape');
    await page
      .getByRole('table', { name: 'Payments' })
      .getByRole('row')
      .filter({ hasText: CUSTOMER })
      .getByText('Refunded', { exact: true })
      .waitFor();
  });
});
