import { sql } from 'kysely';
import type Stripe from 'stripe';
import { ApiError } from '../../http/errors';
import { deauthorized } from './connect';
import { findPayment, move, paymentRefOf, readTruth, type PaymentsDeps, type Row } from './service';
import { requireConnect } from './stripe';

// Stripe's Connect webhook: events of the connected accounts, verified against the raw body with
// the Connect endpoint's secret. An event is applied once (its id is kept with the change it
// made) and applies what Stripe says now, re-read from the Checkout Session, so it does not
// matter in which order, or how many times, events arrive. When Stripe cannot be read the event
// is refused (502) and Stripe sends it again.

const PAYMENT_EVENTS = new Set([
  'checkout.session.completed',
  'checkout.session.expired',
  'checkout.session.async_payment_succeeded',
  'checkout.session.async_payment_failed',
  'payment_intent.payment_failed',
  'charge.refunded',
]);

export type ConnectEventOutcome = 'processed' | 'duplicate' | 'ignored';

export async function handleConnectEvent(
  deps: PaymentsDeps,
  rawBody: string,
  signature: string | undefined,
): Promise<ConnectEventOutcome> {
  const { stripe, settings } = await requireConnect(deps.config);
  if (!settings.webhookSecret)
    throw new ApiError(
      503,
      'STRIPE_CONNECT_NOT_CONFIGURED',
      'The Connect webhook secret (STRIPE_CONNECT_WEBHOOK_SECRET) is not set on this server.',
    );
  if (!signature) throw new ApiError(400, 'BAD_SIGNATURE', 'The Stripe-Signature header is missing.');
  let event: Stripe.Event;
  try {
    event = stripe.webhooks.constructEvent(rawBody, signature, settings.webhookSecret);
  } catch {
    throw new ApiError(400, 'BAD_SIGNATURE', 'The Stripe signature does not match this body.');
  }
  const stripeAccount = typeof event.account === 'string' ? event.account : null;
  if (!stripeAccount) return 'ignored';
  // which of our accounts: the one lookup before a tenant is known
  const owner = await deps.db.system((trx) =>
    sql<{ account_id: string }>`select account_id from stripe_connections where stripe_account_id = ${stripeAccount}`.execute(
      trx,
    ),
  );
  let accountId = owner.rows[0]?.account_id ?? null;
  const object = event.data.object as unknown as Record<string, unknown>;
  const ref = paymentRefOf(object);
  if (!accountId && PAYMENT_EVENTS.has(event.type)) {
    // a payment of an account that disconnected since: its payments still follow Stripe
    const byPayment = await deps.db.system((trx) =>
      sql<{ account_id: string }>`select account_id from payments where stripe_account_id = ${stripeAccount}
        and (${ref.sessionId ? sql`checkout_session_id = ${ref.sessionId}` : sql`false`} or ${ref.intentId ? sql`payment_intent_id = ${ref.intentId}` : sql`false`}
             or ${ref.paymentId ? sql`id = ${ref.paymentId}` : sql`false`}) limit 1`.execute(trx),
    );
    accountId = byPayment.rows[0]?.account_id ?? null;
  }
  if (!accountId) return 'ignored';
  const tenant = accountId;
  const seen = await deps.db.tenant(tenant, (trx) =>
    sql`select 1 from payment_stripe_events where id = ${event.id}`.execute(trx),
  );
  if (seen.rows.length) return 'duplicate';

  let row: Row | null = null;
  if (PAYMENT_EVENTS.has(event.type)) {
    row = await deps.db.tenant(tenant, (trx) => findPayment(trx, tenant, ref));
    if (row && row.stripe_account_id !== stripeAccount) row = null;
  }
  const truth = row?.checkout_session_id ? await readTruth(deps, row) : null;
  const now = deps.now();
  return deps.db.tenant(tenant, async (trx) => {
    const inserted =
      await sql`insert into payment_stripe_events (id, account_id, type) values (${event.id}, ${tenant}, ${event.type}) on conflict (id) do nothing returning id`.execute(
        trx,
      );
    if (!inserted.rows.length) return 'duplicate' as const;
    if (event.type === 'account.application.deauthorized') {
      await deauthorized(trx, tenant, stripeAccount, now);
      return 'processed' as const;
    }
    if (!row || !truth) return 'ignored' as const;
    const locked = (await sql<Row>`select * from payments where id = ${row.id} for update`.execute(trx)).rows[0]!;
    if (truth.status) await move(trx, tenant, locked, { ...truth, status: truth.status }, now, null);
    else if (truth.paymentIntentId && !locked.payment_intent_id)
      await sql`update payments set payment_intent_id = ${truth.paymentIntentId} where id = ${row.id}`.execute(trx);
    return 'processed' as const;
  });
}
