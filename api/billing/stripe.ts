import type Stripe from 'stripe';
import type { Config } from '../config';
import { APPS, type AppId } from '../contract/apps';
import { ApiError } from '../http/errors';
import { STATE_MESSAGES } from '../contract/stripe-states';
import { traceStripe } from '../observability/tracing';

// The provider's own Stripe account: this is the platform charging the business (the Payments
// app's Stripe Connect is a different thing). Read from the environment by this area alone:
//   STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET, STRIPE_PRICE_<APP> (monthly price per app, e.g.
//   STRIPE_PRICE_ONE_TIME_PASSCODE), STRIPE_OVERAGE_PRICE_<APP> (optional metered price of the
//   extra credits), STRIPE_METER_EVENT (meter event name, default switchboard_credits) and
//   STRIPE_API_BASE (another Stripe API address, e.g. a loopback peer in tests).

export type StripeSettings = {
  secretKey: string;
  webhookSecret: string;
  prices: Partial<Record<AppId, string>>;
  overagePrices: Partial<Record<AppId, string>>;
  meterEvent: string;
  apiBase: URL | null;
};

const envName = (app: AppId) => app.toUpperCase().replace(/-/g, '_');

// A config never changes once loaded (stripeOf below keeps one client per config on the same
// grounds), and the bootstrap asks for every app on every request: read the environment once.
const settingsOf = new WeakMap<Config, StripeSettings | null>();

export function stripeSettings(config: Config): StripeSettings | null {
  if (settingsOf.has(config)) return settingsOf.get(config)!;
  const settings = readStripeSettings(config);
  settingsOf.set(config, settings);
  return settings;
}

function readStripeSettings(config: Config): StripeSettings | null {
  const raw = config.raw ?? {};
  const secretKey = raw.STRIPE_SECRET_KEY?.trim();
  const webhookSecret = raw.STRIPE_WEBHOOK_SECRET?.trim();
  if (!secretKey || !webhookSecret) return null;
  const prices: StripeSettings['prices'] = {};
  const overagePrices: StripeSettings['overagePrices'] = {};
  for (const app of APPS) {
    const price = raw[`STRIPE_PRICE_${envName(app.id)}`]?.trim();
    if (price) prices[app.id] = price;
    const overage = raw[`STRIPE_OVERAGE_PRICE_${envName(app.id)}`]?.trim();
    if (overage) overagePrices[app.id] = overage;
  }
  let apiBase: URL | null = null;
  if (raw.STRIPE_API_BASE) {
    try {
      apiBase = new URL(raw.STRIPE_API_BASE);
    } catch {
      throw new Error(`STRIPE_API_BASE must be a URL (got ${JSON.stringify(raw.STRIPE_API_BASE)})`);
    }
  }
  return {
    secretKey,
    webhookSecret,
    prices,
    overagePrices,
    meterEvent: raw.STRIPE_METER_EVENT?.trim() || 'switchboard_credits',
    apiBase,
  };
}

/** Whether billing is configured, without loading the Stripe library. */
export function stripeConfigured(config: Config): boolean {
  return stripeSettings(config) !== null;
}

type Configured = { settings: StripeSettings; stripe: Stripe };
const clients = new WeakMap<Config, Promise<Configured | null>>();

/**
 * The Stripe client and settings of this server, or null when billing is not configured. The
 * library is loaded with the first Stripe call, not with every start.
 */
export function stripeOf(config: Config): Promise<Configured | null> {
  let value = clients.get(config);
  if (!value) {
    value = makeClient(config);
    clients.set(config, value);
  }
  return value;
}

async function makeClient(config: Config): Promise<Configured | null> {
  const settings = stripeSettings(config);
  if (!settings) return null;
  const { default: Stripe } = await import('stripe');
  const base = settings.apiBase;
  const stripe = new Stripe(settings.secretKey, {
    ...(base
      ? {
          host: base.hostname,
          port: Number(base.port || (base.protocol === 'http:' ? 80 : 443)),
          protocol: base.protocol === 'http:' ? ('http' as const) : ('https' as const),
        }
      : {}),
    maxNetworkRetries: base ? 0 : 2,
    timeout: 20_000,
    appInfo: { name: 'Switchboard' },
  });
  traceStripe(stripe);
  return { settings, stripe };
}

/**
 * A configuration state of the server, said as every screen says it; what the operator must set
 * (STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET, STRIPE_PRICE_<APP>) is in docs/operations.md.
 */
export function notConfigured(): ApiError {
  return new ApiError(503, 'BILLING_NOT_CONFIGURED', STATE_MESSAGES.BILLING_NOT_CONFIGURED);
}

/** Whether this server can take a subscription to `app`: Stripe billing and the app's price are set. */
export function subscribable(config: Config, app: AppId): boolean {
  return !!stripeSettings(config)?.prices[app];
}

/** Stripe and the app's price, or BILLING_NOT_CONFIGURED. */
export async function requireStripe(config: Config, app?: AppId): Promise<Configured & { price: string }> {
  const value = await stripeOf(config);
  if (!value) throw notConfigured();
  const price = app ? value.settings.prices[app] : '';
  if (app && !price) throw notConfigured();
  return { ...value, price: price ?? '' };
}

/** A Stripe call that failed becomes a clear 502, never a stack trace. */
export function stripeFailure(err: unknown): ApiError {
  const message = err instanceof Error ? err.message : String(err);
  return new ApiError(502, 'STRIPE_UNAVAILABLE', `Stripe did not answer as expected: ${message}`);
}
