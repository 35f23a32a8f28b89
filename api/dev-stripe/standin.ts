import path from 'node:path';
import type { Config } from '../config';
import { devStripePriceId } from '../config';
import { APPS } from '../contract/apps';
import { CURRENCY, plansOf } from '../contract/plans';
import { shaped } from './shapes';

// The development Stripe stand-in: the tests' loopback Stripe (./peer.ts with ./connect.ts, the
// same code) started by `npm start` when no Stripe is configured (api/config.ts decides; never
// in production), so a new user can subscribe to an app and take a payment on a fresh machine:
// Connect's authorize page, Checkout with the test cards, refunds, the billing portal, and
// events signed with the secrets the server verifies, delivered to this server's webhooks.
// It listens on loopback (DEV_STRIPE_PORT, default PORT + 1) and keeps its objects in
// DATA_DIR/dev-stripe.json, so connected accounts, products and subscriptions survive a restart.

export type DevStripe = { url: string; close(): Promise<void> };

export async function startDevStripe(config: Config): Promise<DevStripe> {
  const settings = config.devStripe;
  if (!settings || config.env === 'production') throw new Error('The development Stripe stand-in runs only in development');
  const { startStripePeer } = await import('./peer');
  const { addStripeConnect } = await import('./connect');
  // events go to this server's own webhooks, on loopback
  const own = `http://127.0.0.1:${config.port}`;
  const deliverTo = (route: string) => async (payload: string, signature: string) => {
    try {
      const res = await fetch(`${own}${route}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'stripe-signature': signature },
        body: payload,
      });
      await res.arrayBuffer();
      return res.status;
    } catch {
      return 0;
    }
  };
  let peer;
  try {
    peer = await startStripePeer({
      webhookSecret: settings.webhookSecret,
      deliver: deliverTo('/api/stripe/webhook'),
      port: settings.port,
      store: path.join(config.dataDir, 'dev-stripe.json'),
      secretKeys: [settings.secretKey],
    });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      throw new Error(
        `The development Stripe stand-in cannot listen on 127.0.0.1:${settings.port} (in use): set DEV_STRIPE_PORT to a free port, or DEV_STRIPE=false.`,
      );
    }
    throw err;
  }
  addStripeConnect(peer, {
    clientId: settings.clientId,
    webhookSecret: settings.connectWebhookSecret,
    deliver: deliverTo('/api/payments/stripe/webhook'),
    accountName: 'Your business (test account)',
    secretKey: settings.secretKey,
  });
  // each app's monthly price, as STRIPE_PRICE_<APP> names it
  for (const app of APPS.filter((a) => a.billable)) {
    const plans = plansOf(app.id);
    if (!plans) continue;
    const id = devStripePriceId(app.id);
    peer.objects.set(
      id,
      shaped({
        id,
        object: 'price',
        unit_amount: plans.monthlyPriceCents,
        currency: CURRENCY,
        recurring: { interval: 'month', interval_count: 1, meter: null, usage_type: 'licensed', trial_period_days: null },
        nickname: `${app.title} subscription`,
      }),
    );
  }
  return { url: peer.url, close: peer.close };
}
