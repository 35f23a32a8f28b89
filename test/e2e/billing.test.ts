import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, startServer } from './harness';
import { startStripePeer, type StripePeer } from '../support/stripe-peer';

// An admin's whole billing journey in Chromium against the built server and a loopback Stripe:
// start a trial, see its end date and usage, subscribe through (the peer's) Stripe Checkout,
// see the subscription and its invoice, cancel at the end of the period.

const WEBHOOK_SECRET = 'whsec_e2e_loopback_secret';

describe('billing in Chromium', () => {
  let server: Awaited<ReturnType<typeof startServer>>;
  let peer: StripePeer;
  let browser: Browser;
  let page: Page;
  let webhookUrl = '';

  beforeAll(async () => {
    peer = await startStripePeer({
      webhookSecret: WEBHOOK_SECRET,
      secretKeys: ['sk_test_e2e'],
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
    peer.objects.set('price_payments_monthly', {
      id: 'price_payments_monthly',
      object: 'price',
      unit_amount: 12_900,
      currency: 'usd',
      recurring: { interval: 'month' },
    });
    server = await startServer({
      linkFor: ['owner@acme.test'],
      env: {
        STRIPE_SECRET_KEY: 'sk_test_e2e',
        STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
        STRIPE_API_BASE: peer.url,
        STRIPE_PRICE_PAYMENTS: 'price_payments_monthly',
      },
    });
    webhookUrl = `${server.url}/api/stripe/webhook`;
    browser = await launchBrowser();
    page = await (await browser.newContext()).newPage();
    await page.goto(server.links['owner@acme.test']!);
    await page.getByRole('heading', { name: 'Payments' }).waitFor();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await peer?.close();
  });

  it("starting a free trial shows its end date and usage on the app's billing page", async () => {
    await page.getByRole('button', { name: 'Start Free Trial' }).first().waitFor();
    const card = page.locator('li.app-card', { has: page.getByRole('heading', { name: 'Payments' }) });
    await card.getByRole('button', { name: 'Start Free Trial' }).click();
    await page.waitForURL(/\/payments$/);
    await page.goto(`${server.url}/payments/settings/billing`);
    await page.getByRole('heading', { name: 'Payments billing', level: 1 }).waitFor();
    await page.getByText(/^Trial ends on /).waitFor();
    await page.getByText('0 of 100 credits used').waitFor();
  }, 60_000);

  it('the price Checkout will charge stands beside Subscribe', async () => {
    await page.getByTestId('subscribe-price').getByText('$129.00 a month').waitFor();
  });

  it('subscribing goes through Stripe Checkout, which names the app by its title, and comes back subscribed with a word of success', async () => {
    await page.getByRole('button', { name: 'Subscribe' }).click();
    await page.waitForURL(new RegExp(`^${peer.url}/checkout/`));
    await page.getByText('Subscribe to Payments: $129.00 a month.').waitFor();
    expect(await page.getByText('Checkout for payments').count()).toBe(0);
    await page.getByRole('button', { name: 'Pay and subscribe' }).click();
    await page.getByText('Subscribed to Payments').waitFor({ timeout: 20_000 });
    expect(new URL(page.url()).pathname).toBe('/payments/settings/billing');
    expect(new URL(page.url()).search).toBe('');
    await page.locator('.card').getByText('Subscribed').first().waitFor({ timeout: 20_000 });
    await page.getByText(/^Renews on /).waitFor();
  }, 60_000);

  it('Settings > Billing shows the subscription and its paid invoice', async () => {
    await page.goto(`${server.url}/settings/billing`);
    await page.getByRole('heading', { name: 'Billing', level: 1 }).waitFor();
    const card = page.getByRole('region', { name: 'Payments billing' });
    await card.getByText('Subscribed').waitFor();
    const invoices = page.getByRole('table', { name: 'Invoices' });
    await invoices.getByText('Paid', { exact: true }).waitFor({ timeout: 20_000 });
    expect(await invoices.getByText('paid', { exact: true }).count()).toBe(0);
    await invoices.getByText('$129.00').waitFor();
    expect(await invoices.getByRole('link', { name: /PDF/ }).getAttribute('href')).toMatch(/\.pdf$/);
  }, 60_000);

  it('cancelling asks first, says when it takes effect, and keeps the subscription until then', async () => {
    await page.goto(`${server.url}/payments/settings/billing`);
    await page.getByRole('button', { name: 'Cancel subscription' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText(/The subscription ends on /).waitFor();
    await dialog.getByRole('button', { name: 'Cancel at period end' }).click();
    await page.getByText(/^Ends on /).waitFor({ timeout: 20_000 });
    await page.getByRole('button', { name: 'Keep subscription' }).waitFor();
    const sub = [...peer.objects.values()].find((o) => o.object === 'subscription');
    expect(sub?.cancel_at_period_end).toBe(true);
  }, 60_000);
});
