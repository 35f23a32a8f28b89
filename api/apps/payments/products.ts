import type Stripe from 'stripe';
import type { Deps } from '../../deps';
import type { Session } from '../../auth/context';
import { audit, actorOf } from '../../audit';
import { ApiError } from '../../http/errors';
import { formatMinor } from '../../contract/money';
import type { ActionChoicesAnswer } from '../../contract/platform';
import { choicesAnswer } from '../platform/choices';
import { PAYMENTS_APP, type Product, type ProductBody, type ProductUpdateBody } from '../../contract/apps/payments';
import { connectFailure, requireConnect } from './stripe';
import { requireConnection } from './connect';

// The Product Catalog lives on the connected account, in Stripe: nothing is copied here, so what
// the business edits in its own Stripe Dashboard shows here too. A price never changes on Stripe;
// a new amount is a new default price and the old one is archived.

type D = Pick<Deps, 'db' | 'config' | 'now'>;

/** The listing reads at most this many products (newest first); the search filters them. */
export const CATALOG_LIMIT = 100;

function productOf(p: Stripe.Product): Product {
  const price = typeof p.default_price === 'object' && p.default_price ? p.default_price : null;
  return {
    id: p.id,
    name: p.name,
    description: p.description ?? null,
    active: p.active,
    priceId: price?.id ?? (typeof p.default_price === 'string' ? p.default_price : null),
    unitAmount: price?.unit_amount ?? null,
    currency: price?.currency ?? null,
    updatedAt: new Date((p.updated ?? p.created) * 1000).toISOString(),
  };
}

async function connected(deps: D, accountId: string) {
  const { stripe } = await requireConnect(deps.config);
  const row = await deps.db.tenant(accountId, (trx) => requireConnection(trx, accountId));
  return { stripe, stripeAccount: row.stripe_account_id };
}

async function call<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw connectFailure(err);
  }
}

export async function listProducts(deps: D, accountId: string, q?: string): Promise<Product[]> {
  const { stripe, stripeAccount } = await connected(deps, accountId);
  const page = await call(() =>
    stripe.products.list({ limit: CATALOG_LIMIT, expand: ['data.default_price'] }, { stripeAccount }),
  );
  const needle = q?.trim().toLowerCase();
  return page.data
    .map(productOf)
    .filter(
      (p) =>
        !needle ||
        p.name.toLowerCase().includes(needle) ||
        (p.description ?? '').toLowerCase().includes(needle) ||
        p.id.toLowerCase() === needle,
    )
    .sort((a, b) => Number(b.active) - Number(a.active) || a.name.localeCompare(b.name));
}

/**
 * The products an agent can request a payment for (active, with a price), for the picker: read
 * from the connected account like the catalog, so what the business changes in Stripe shows.
 */
export async function sendableProducts(deps: D, accountId: string, q: string): Promise<ActionChoicesAnswer> {
  const products = (await listProducts(deps, accountId, q)).filter(
    (p) => p.active && p.priceId && p.unitAmount !== null && p.currency,
  );
  return choicesAnswer(
    products.map((p) => ({
      id: p.id,
      title: p.name,
      editedAt: p.updatedAt,
      price: { amount: p.unitAmount!, currency: p.currency! },
      ...(p.description ? { detail: p.description } : {}),
    })),
  );
}

export async function createProduct(deps: D, session: Session, body: ProductBody): Promise<Product> {
  const { stripe, stripeAccount } = await connected(deps, session.accountId);
  const product = await call(() =>
    stripe.products.create(
      {
        name: body.name,
        ...(body.description ? { description: body.description } : {}),
        default_price_data: { currency: body.currency, unit_amount: body.unitAmount },
        expand: ['default_price'],
      },
      { stripeAccount },
    ),
  );
  await deps.db.tenant(session.accountId, (trx) =>
    audit(trx, session.accountId, actorOf(session), {
      namespace: PAYMENTS_APP,
      description: `Added the product ${body.name} at ${formatMinor(body.unitAmount, body.currency, 'en-US')}`,
      event: 'payments.product-created',
      at: deps.now(),
    }),
  );
  return productOf(product);
}

export async function updateProduct(deps: D, session: Session, id: string, body: ProductUpdateBody): Promise<Product> {
  const { stripe, stripeAccount } = await connected(deps, session.accountId);
  const current = productOf(await call(() => stripe.products.retrieve(id, { expand: ['default_price'] }, { stripeAccount })));
  const changes: string[] = [];
  const params: Stripe.ProductUpdateParams = {};
  if (body.name !== undefined && body.name !== current.name) (params.name = body.name), changes.push(`name ${body.name}`);
  if (body.description !== undefined && (body.description || null) !== current.description)
    (params.description = body.description ?? ''), changes.push('description');
  if (body.active !== undefined && body.active !== current.active)
    (params.active = body.active), changes.push(body.active ? 'restored' : 'archived');
  const amount = body.unitAmount ?? current.unitAmount;
  const currency = body.currency ?? current.currency;
  const newPrice =
    (body.unitAmount !== undefined || body.currency !== undefined) &&
    (amount !== current.unitAmount || currency !== current.currency);
  if (newPrice) {
    if (!amount || !currency)
      throw new ApiError(400, 'VALIDATION_FAILED', 'unitAmount: A price needs an amount and a currency', {
        unitAmount: 'A price needs an amount and a currency',
      });
    const price = await call(() => stripe.prices.create({ product: id, currency, unit_amount: amount }, { stripeAccount }));
    params.default_price = price.id;
    changes.push(`price ${formatMinor(amount, currency, 'en-US')}`);
  }
  if (!changes.length) return current;
  const updated = await call(() => stripe.products.update(id, { ...params, expand: ['default_price'] }, { stripeAccount }));
  if (newPrice && current.priceId) {
    // the old price stays on past payments but is no longer offered
    await call(() => stripe.prices.update(current.priceId!, { active: false }, { stripeAccount }));
  }
  await deps.db.tenant(session.accountId, (trx) =>
    audit(trx, session.accountId, actorOf(session), {
      namespace: PAYMENTS_APP,
      description: `Updated the product ${updated.name}: ${changes.join(', ')}`,
      event: 'payments.product-updated',
      at: deps.now(),
    }),
  );
  return productOf(updated);
}
