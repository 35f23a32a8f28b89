import type Stripe from 'stripe';
import type { Config } from '../../config';
import { ApiError } from '../../http/errors';
import { STATE_MESSAGES } from '../../contract/stripe-states';
import { traceStripe } from '../../observability/tracing';

// The platform's Stripe Connect settings, read from the environment by this app alone:
//   STRIPE_CONNECT_CLIENT_ID        the platform's Connect client id (ca_…)
//   STRIPE_CONNECT_SECRET_KEY       the platform's secret key (defaults to STRIPE_SECRET_KEY)
//   STRIPE_CONNECT_WEBHOOK_SECRET   the signing secret of the Connect webhook endpoint
//   STRIPE_API_BASE                 another Stripe API address (a loopback peer in tests); the
//                                   stripe package sends OAuth calls there too
//   STRIPE_CONNECT_AUTHORIZE_URL    Stripe's authorize page (default
//                                   https://connect.stripe.com/oauth/authorize); built here
//                                   because the package's authorizeUrl() drops ports

export type ConnectSettings = {
  clientId: string;
  secretKey: string;
  webhookSecret: string | null;
  authorizeUrl: string;
  apiBase: URL | null;
};

export function connectSettings(config: Config): ConnectSettings | null {
  const raw = config.raw ?? {};
  const clientId = raw.STRIPE_CONNECT_CLIENT_ID?.trim();
  const secretKey = (raw.STRIPE_CONNECT_SECRET_KEY ?? raw.STRIPE_SECRET_KEY)?.trim();
  if (!clientId || !secretKey) return null;
  let apiBase: URL | null = null;
  if (raw.STRIPE_API_BASE) {
    try {
      apiBase = new URL(raw.STRIPE_API_BASE);
    } catch {
      throw new Error(`STRIPE_API_BASE must be a URL (got ${JSON.stringify(raw.STRIPE_API_BASE)})`);
    }
  }
  return {
    clientId,
    secretKey,
    webhookSecret: raw.STRIPE_CONNECT_WEBHOOK_SECRET?.trim() || null,
    authorizeUrl: raw.STRIPE_CONNECT_AUTHORIZE_URL?.trim() || 'https://connect.stripe.com/oauth/authorize',
    apiBase,
  };
}

type Connect = { settings: ConnectSettings; stripe: Stripe };
const clients = new WeakMap<Config, Connect | null>();

/**
 * A failure the stripe package raised (its errors carry a `type` such as StripeCardError); told
 * apart by shape so that this module need not load the package to check.
 */
export function isStripeError(err: unknown): err is Error & { type: string; statusCode?: number } {
  return (
    err instanceof Error &&
    typeof (err as { type?: unknown }).type === 'string' &&
    String((err as unknown as { type: string }).type).startsWith('Stripe')
  );
}

/** The platform's Stripe client for Connect, or null when Connect is not configured. */
export async function connectOf(config: Config): Promise<Connect | null> {
  if (clients.has(config)) return clients.get(config)!;
  const settings = connectSettings(config);
  let value: Connect | null = null;
  if (settings) {
    const base = settings.apiBase;
    // loaded on first use: most server starts never talk to Stripe
    const { default: Stripe } = await import('stripe');
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
      appInfo: { name: 'Switchboard Payments' },
    });
    traceStripe(stripe);
    value = { settings, stripe };
  }
  clients.set(config, value);
  return value;
}

export async function requireConnect(config: Config): Promise<Connect> {
  const value = await connectOf(config);
  if (!value) {
    // the operator's part (STRIPE_CONNECT_CLIENT_ID and a Stripe secret key) is in docs/operations.md
    throw new ApiError(503, 'STRIPE_CONNECT_NOT_CONFIGURED', STATE_MESSAGES.STRIPE_CONNECT_NOT_CONFIGURED);
  }
  return value;
}

/** A failed Stripe call as a clear answer: Stripe's own message for what the caller can fix. */
export function connectFailure(err: unknown): ApiError {
  if (isStripeError(err)) {
    if (err.type === 'StripeInvalidRequestError' || err.type === 'StripeCardError') {
      const status = err.statusCode === 404 ? 404 : 400;
      return new ApiError(status, status === 404 ? 'NOT_FOUND' : 'STRIPE_REFUSED', `Stripe refused this: ${err.message}`);
    }
    if (err.type === 'StripePermissionError' || err.type === 'StripeAuthenticationError') {
      return new ApiError(409, 'STRIPE_ACCESS_REVOKED', STATE_MESSAGES.STRIPE_ACCESS_REVOKED);
    }
  }
  const message = err instanceof Error ? err.message : String(err);
  return new ApiError(502, 'STRIPE_UNAVAILABLE', `Stripe did not answer as expected: ${message}`);
}
