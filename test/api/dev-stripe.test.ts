import http from 'node:http';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { getRequestListener } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { DATABASE_KINDS, useTestContext } from './helpers';
import { ConfigError, loadConfig, type Config } from '../../api/config';
import { startDevStripe, type DevStripe } from '../../api/dev-stripe/standin';
import { STAND_IN_BANNER } from '../../api/dev-stripe/peer';
import type { BillingApp } from '../../api/contract/billing';
import type { ActionResult } from '../../api/contract/platform';
import type { Product, StripeConnection } from '../../api/contract/apps/payments';
import type { Bootstrap } from '../../api/contract/session';

// The development Stripe stand-in: what `npm start` runs when no Stripe is configured, the same
// code as the tests' loopback Stripe. Here this server listens for real (the stand-in sends its
// signed events to it) and a new user's jobs are done through it: subscribe to an app with the
// test card, connect a Stripe account, request a payment, the customer pays, refund it; and what
// it holds survives a restart.

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'sb-dev-stripe-'));
const freePort = () =>
  new Promise<number>((resolve) => {
    const s = http.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
const form = (body: Record<string, string>) => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(body).toString(),
  redirect: 'manual' as const,
});

describe('the development Stripe stand-in is chosen by configuration', () => {
  const production = {
    NODE_ENV: 'production',
    SESSION_SECRET: 's'.repeat(32),
    ENCRYPTION_KEY: 'e'.repeat(32),
    PUBLIC_URL: 'https://sb.example',
    DATABASE_URL: 'postgres://x/y',
  };

  it('development without Stripe settings gets it, on PORT + 1, and billing and Connect read their settings from it', () => {
    const c = loadConfig({ DATA_DIR: tmp(), PORT: '4100' });
    expect(c.devStripe).toMatchObject({ port: 4101, url: 'http://127.0.0.1:4101', clientId: 'ca_dev_standin' });
    expect(c.raw).toMatchObject({
      STRIPE_API_BASE: 'http://127.0.0.1:4101',
      STRIPE_CONNECT_CLIENT_ID: 'ca_dev_standin',
      STRIPE_PRICE_ONE_TIME_PASSCODE: 'price_dev_one_time_passcode',
    });
    // derived from the session secret: the same after a restart
    expect(loadConfig({ DATA_DIR: c.dataDir, PORT: '4100' }).devStripe!.webhookSecret).toBe(c.devStripe!.webhookSecret);
  });

  it('never in production, never beside real Stripe settings, never with several workers', () => {
    expect(loadConfig(production).devStripe).toBeNull();
    expect(() => loadConfig({ ...production, DEV_STRIPE: 'true' })).toThrow(/never used in production/);
    expect(
      loadConfig({ DATA_DIR: tmp(), STRIPE_SECRET_KEY: 'sk_test_x', STRIPE_WEBHOOK_SECRET: 'whsec_x' }).devStripe,
    ).toBeNull();
    expect(() => loadConfig({ DATA_DIR: tmp(), DEV_STRIPE: 'true', STRIPE_CONNECT_CLIENT_ID: 'ca_x' })).toThrow(ConfigError);
    expect(loadConfig({ DATA_DIR: tmp(), DEV_STRIPE: 'false' }).devStripe).toBeNull();
    expect(loadConfig({ DATA_DIR: tmp(), WORKERS: '2', DATABASE_URL: 'postgres://x/y', DEV_IDP: 'false' }).devStripe).toBeNull();
  });
});

describe.each(DATABASE_KINDS)('jobs done on a fresh machine through the development Stripe stand-in (%s)', (kind) => {
  const overrides: Partial<Config> = {};
  let server: http.Server;
  let standIn: DevStripe;
  beforeAll(async () => {
    const [appPort, stripePort] = [await freePort(), await freePort()];
    const dev = loadConfig({ DATA_DIR: tmp(), PORT: String(appPort), DEV_STRIPE_PORT: String(stripePort) });
    Object.assign(overrides, {
      port: appPort,
      dataDir: dev.dataDir,
      devStripe: dev.devStripe,
      raw: dev.raw,
      publicUrl: `http://127.0.0.1:${appPort}`,
    });
  });
  const t = useTestContext(kind, overrides);
  beforeAll(async () => {
    server = http.createServer(getRequestListener(t.app.fetch));
    await new Promise<void>((resolve) => server.listen(t.config.port, '127.0.0.1', resolve));
    standIn = await startDevStripe(t.config);
  });
  afterAll(async () => {
    await standIn?.close();
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
  });

  it('the console is told Stripe here is the stand-in, and every app can be subscribed', async () => {
    const bootstrap = (await (await t.call('GET', '/admins/bootstrap', { as: 'owner@acme.test' })).json()) as Bootstrap;
    expect(bootstrap.stripeStandIn).toBe(true);
    expect(bootstrap.subscribable).toEqual(
      expect.arrayContaining(['passkeys', 'e-form', 'payments', 'document-signature', 'one-time-passcode']),
    );
  });

  it('subscribing: Checkout on the stand-in (marked as development) refuses the declined test card and takes 4242; the signed events make the app subscribed', async () => {
    const res = await t.call('POST', '/passkeys/billing/checkout', { as: 'owner@acme.test' });
    expect(res.status, await res.clone().text()).toBe(201);
    const { url } = (await res.json()) as { url: string };
    expect(url.startsWith(standIn.url)).toBe(true);
    const page = await (await fetch(url)).text();
    expect(page).toContain(STAND_IN_BANNER);
    expect(page).toContain('$99.00 a month');
    const declined = await fetch(`${url}/pay`, form({ card: '4000 0000 0000 0002' }));
    expect(declined.status).toBe(402);
    expect(await declined.text()).toContain('Your card was declined');
    const paid = await fetch(`${url}/pay`, form({ card: '4242 4242 4242 4242' }));
    expect(paid.status).toBe(303);
    const billing = (await (await t.call('GET', '/passkeys/billing', { as: 'owner@acme.test' })).json()) as BillingApp;
    expect(billing).toMatchObject({ status: 'subscription', plan: 'subscription' });
  });

  let productId = '';
  it("Payments: connecting goes through the stand-in's authorize page; a product is added", async () => {
    const started = await t.call('POST', '/payments/stripe/connect', { as: 'owner@globex.test' });
    const authorize = new URL(((await started.json()) as { url: string }).url);
    expect(authorize.origin).toBe(standIn.url);
    const page = await (await fetch(authorize)).text();
    expect(page).toContain(STAND_IN_BANNER);
    const allow = new URL(page.match(/href="([^"]+code=[^"]+)"/)![1]!.replace(/&amp;/g, '&'));
    const cookie = (started.headers.get('set-cookie') ?? '').split(';')[0]!;
    const connected = await t.call('POST', '/payments/stripe/callback', {
      as: 'owner@globex.test',
      body: { state: allow.searchParams.get('state'), code: allow.searchParams.get('code') },
      headers: { cookie },
    });
    expect(connected.status, await connected.clone().text()).toBe(200);
    expect(((await connected.json()) as StripeConnection).name).toBe('Your business (test account)');
    const product = await t.call('POST', '/payments/products', {
      as: 'owner@globex.test',
      body: { name: 'Window cleaning', unitAmount: 6500, currency: 'usd' },
    });
    expect(product.status).toBe(201);
    productId = ((await product.json()) as Product).id;
  });

  it('Payments: an agent requests the payment, the customer pays with the test card on the stand-in, and a refund comes back signed', async () => {
    expect((await t.call('POST', '/sms', { as: 'owner@globex.test', body: { provider: 'dev-outbox' } })).status).toBe(200);
    const sent = await t.call('POST', '/payments/actions/request', {
      as: 'owner@globex.test',
      body: { input: { productId, phoneNumber: '+14155550199' } },
    });
    expect(sent.status, await sent.clone().text()).toBe(201);
    const taskId = ((await sent.json()) as ActionResult).taskId;
    const checkout = (
      await t.db.system((trx) =>
        sql<{ checkout_url: string }>`select checkout_url from payments where id = ${taskId}`.execute(trx),
      )
    ).rows[0]!.checkout_url;
    expect(checkout.startsWith(standIn.url)).toBe(true);
    expect(await (await fetch(checkout)).text()).toContain('Pay $65.00');
    expect((await fetch(checkout, form({ card: '4242 4242 4242 4242' }))).status).toBe(303);
    const status = async () =>
      ((await (await t.call('GET', `/payments/tasks/${taskId}/status`, { as: 'owner@globex.test' })).json()) as ActionResult)
        .status;
    expect(await status()).toBe('succeeded');
    const refund = await t.call('POST', `/payments/tasks/${taskId}/refund`, { as: 'owner@globex.test', body: {} });
    expect(refund.status, await refund.clone().text()).toBe(200);
    expect(await status()).toBe('refunded');
  });

  it('what the stand-in holds survives a restart: the connected account and its catalog are still there', async () => {
    await standIn.close();
    standIn = await startDevStripe(t.config);
    const products = (await (await t.call('GET', '/payments/products', { as: 'owner@globex.test' })).json()) as Product[];
    expect(products.map((p) => p.name)).toContain('Window cleaning');
  });
});
