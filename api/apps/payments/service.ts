import crypto from 'node:crypto';
import type { PaymentsTable } from '../../db/schema';
import { sql, type RawBuilder, type Selectable } from 'kysely';
import * as v from 'valibot';
import type Stripe from 'stripe';
import type { Deps } from '../../deps';
import type { Trx } from '../../db/index';
import { audit, type Actor } from '../../audit';
import { sha256Hex } from '../../crypto';
import { ApiError } from '../../http/errors';
import { recordResult } from '../../results/record';
import { createLinkToken, linkUrl, revokeTaskLinks } from '../../customer-pages/links';
import { maskPhone } from '../../contract/platform';
import { formatMinor } from '../../contract/money';
import type { ResultStatus } from '../../contract/results';
import {
  PAYMENTS_APP,
  PAYMENTS_DEFAULT_SETTINGS,
  PAYMENTS_TEMPLATES,
  PaymentsGeneralSettingsSchema,
  type Payment,
  type PaymentRequestBody,
  type PaymentStatus,
  type PaymentsGeneralSettings,
} from '../../contract/apps/payments';
import type { JourneyDelivery } from '../platform/delivery';
import { addTaskEvent } from '../platform/task-events';
import { enqueueWebhookEvent } from '../platform/webhook-events';
import { storedAppSettings } from '../platform/app-settings';
import { chooseLanguage, languageEvent, smsLocaleOf, templateText } from '../../customer-pages/language';
import { assertSmsConfigured, companyName, renderTemplate, sendAppSms } from '../platform/sms';
import { assertAppUsable, releaseCredits } from '../../usage/credits';
import { customerCaller, type Caller } from '../platform/caller';
import { connectFailure, requireConnect } from './stripe';
import { requireConnection } from './connect';

// Payment requests, in one place: the /api/v1 routes, the agent action, the console and the demo
// seed call these. A request is a Checkout Session on the connected account (a direct charge:
// the money is the business's, never the platform's), its link sent by SMS. What happens next is
// Stripe's to say: every Connect event re-reads the session from Stripe and the payment moves
// only forward (requested < opened < failed < expired < succeeded < partially_refunded <
// refunded), so replays and events out of order end in the same state.

export type PaymentsDeps = Pick<Deps, 'db' | 'config' | 'now' | 'log'>;

/** A row of payments as `select *` reads it; the table's status text is one of the contract's statuses (a check constraint). */
export type Row = Omit<Selectable<PaymentsTable>, 'status'> & { status: PaymentStatus };

const RANK: Record<PaymentStatus, number> = {
  requested: 0,
  opened: 1,
  failed: 2,
  expired: 3,
  succeeded: 4,
  partially_refunded: 5,
  refunded: 6,
};
const RESULT_OF: Partial<Record<PaymentStatus, ResultStatus>> = { succeeded: 'success', failed: 'failure', expired: 'timeout' };
export const PAY_PURPOSE = 'payment.pay';

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

export function paymentOf(r: Row): Payment {
  return {
    id: r.id,
    status: r.status,
    amount: Number(r.amount),
    currency: r.currency,
    description: r.description,
    productId: r.product_id,
    priceId: r.price_id,
    phoneNumber: maskPhone(r.phone_number)!,
    customerRef: r.customer_ref,
    agent: r.agent,
    checkoutSessionId: r.checkout_session_id,
    paymentIntentId: r.payment_intent_id,
    refundedAmount: Number(r.refunded_amount),
    createdAt: new Date(r.created_at).toISOString(),
    expiresAt: new Date(r.expires_at).toISOString(),
    paidAt: iso(r.paid_at),
    failureReason: r.failure_reason,
  };
}

/** The webhook payload: never the full number. */
function eventData(r: Row): Record<string, unknown> {
  const p = paymentOf(r);
  return { ...p };
}

export async function paymentsSettings(trx: Trx, accountId: string): Promise<PaymentsGeneralSettings> {
  const { general } = await storedAppSettings(trx, accountId, PAYMENTS_APP);
  const merged = v.safeParse(PaymentsGeneralSettingsSchema, { ...PAYMENTS_DEFAULT_SETTINGS, ...general });
  return merged.success ? merged.output : PAYMENTS_DEFAULT_SETTINGS;
}

async function lockRow(trx: Trx, accountId: string, id: string): Promise<Row> {
  const row = (await sql<Row>`select * from payments where account_id = ${accountId} and id = ${id} for update`.execute(trx))
    .rows[0];
  if (!row) throw new ApiError(404, 'NOT_FOUND', 'There is no payment with this id.');
  return row;
}

export async function getPayment(deps: PaymentsDeps, accountId: string, id: string): Promise<Payment> {
  return deps.db.tenant(accountId, async (trx) => {
    const row = (await sql<Row>`select * from payments where account_id = ${accountId} and id = ${id}`.execute(trx)).rows[0];
    if (!row) throw new ApiError(404, 'NOT_FOUND', 'There is no payment with this id.');
    return paymentOf(row);
  });
}

/** What the payment is for: a catalog product (its default price) or an amount typed in. */
async function lineOf(stripe: Stripe, stripeAccount: string, body: PaymentRequestBody, settings: PaymentsGeneralSettings) {
  if (body.productId) {
    let product: Stripe.Product;
    try {
      product = await stripe.products.retrieve(body.productId, { expand: ['default_price'] }, { stripeAccount });
    } catch (err) {
      const e = connectFailure(err);
      if (e.status === 404)
        throw new ApiError(400, 'VALIDATION_FAILED', 'productId: There is no such product in your catalog', {
          productId: 'There is no such product in your catalog',
        });
      throw e;
    }
    const price = product.default_price as Stripe.Price | null;
    if (!product.active || !price || typeof price !== 'object' || !price.unit_amount) {
      throw new ApiError(400, 'VALIDATION_FAILED', 'productId: This product is archived or has no price', {
        productId: 'This product is archived or has no price',
      });
    }
    return {
      amount: price.unit_amount,
      currency: price.currency,
      description: product.name,
      productId: product.id,
      productName: product.name,
      priceId: price.id,
      item: { price: price.id, quantity: 1 },
    };
  }
  const currency = body.currency ?? settings.defaultCurrency;
  return {
    amount: body.amount!,
    currency,
    description: body.description!,
    productId: null,
    productName: null,
    priceId: null,
    item: { price_data: { currency, unit_amount: body.amount!, product_data: { name: body.description! } }, quantity: 1 },
  };
}

/**
 * Requests a payment: a Checkout Session on the connected account, expiring with the link, and
 * the link to it sent by SMS. A link that could not be sent is expired on Stripe at once, so no
 * one can pay a request that never reached the customer.
 */
export async function requestPayment(
  deps: PaymentsDeps,
  accountId: string,
  body: PaymentRequestBody,
  caller: Caller,
  delivery?: JourneyDelivery,
): Promise<Payment> {
  const now = deps.now();
  const { stripe } = await requireConnect(deps.config);
  const { connection, settings } = await deps.db.tenant(accountId, async (trx) => {
    // refused before Stripe is asked for a session; the SMS door admits the send again when it sends
    await assertAppUsable(trx, accountId, PAYMENTS_APP, 1);
    await assertSmsConfigured(trx, accountId, deps.config.env === 'production', body.phoneNumber, deps.now());
    return { connection: await requireConnection(trx, accountId), settings: await paymentsSettings(trx, accountId) };
  });
  const stripeAccount = connection.stripe_account_id;
  const line = await lineOf(stripe, stripeAccount, body, settings);
  const minutes = body.expiresInMinutes ?? settings.linkValidityMinutes;
  const expiresAt = new Date(now.getTime() + minutes * 60_000);
  const id = crypto.randomUUID();
  const agent = body.agent ?? (caller.kind === 'api' ? null : caller.label);

  // the row and its link first: an event that beats the SMS still finds its payment
  const { link, language } = await deps.db.tenant(accountId, async (trx) => {
    const language = await chooseLanguage(trx, accountId, body.locale);
    const { token } = await createLinkToken(trx, accountId, {
      app: PAYMENTS_APP,
      purpose: PAY_PURPOSE,
      taskId: id,
      ttlMs: minutes * 60_000,
      now,
      locale: language.locale,
    });
    if (delivery) delivery.token = token;
    // in a journey Stripe sends the caller back to the journey's link, which shows this step
    return { link: delivery ? delivery.returnUrl : await linkUrl(trx, accountId, deps.config.publicUrl, token), language };
  });
  let session: Stripe.Checkout.Session;
  try {
    session = await stripe.checkout.sessions.create(
      {
        mode: 'payment',
        line_items: [line.item],
        // Stripe wants 30 minutes to 24 hours from its own clock: a minute of slack at either end
        expires_at: Math.floor(
          Math.min(Math.max(expiresAt.getTime(), now.getTime() + 31 * 60_000), now.getTime() + 1439 * 60_000) / 1000,
        ),
        client_reference_id: id,
        metadata: { payment_id: id },
        payment_intent_data: {
          metadata: { payment_id: id },
          ...(settings.statementDescriptorSuffix ? { statement_descriptor_suffix: settings.statementDescriptorSuffix } : {}),
        },
        success_url: `${link}?from=stripe`,
        cancel_url: link,
      },
      { stripeAccount, idempotencyKey: `payment-${id}` },
    );
  } catch (err) {
    // no payment was made: the link made for it opens nothing
    await deps.db.tenant(accountId, (trx) => revokeTaskLinks(trx, accountId, id, now));
    throw connectFailure(err);
  }

  const expireSession = async () => {
    try {
      await stripe.checkout.sessions.expire(session.id, {}, { stripeAccount });
    } catch (err) {
      deps.log(`Could not expire the Checkout Session ${session.id} of an undelivered payment link`, err);
    }
  };
  let sent;
  try {
    sent = await sendAppSms(deps, accountId, {
      app: PAYMENTS_APP,
      to: body.phoneNumber,
      // a journey's step: the journey's one SMS carries the link
      handOff: delivery ? () => {} : undefined,
      prepare: async (trx) => {
        const row = (
          await sql<Row>`insert into payments (id, account_id, stripe_account_id, phone_number, customer_ref, agent, status, amount, currency, description,
              product_id, product_name, price_id, checkout_session_id, checkout_url, created_at, expires_at)
            values (${id}, ${accountId}, ${stripeAccount}, ${body.phoneNumber}, ${body.customerRef ?? null}, ${agent}, 'requested', ${line.amount}, ${line.currency},
              ${line.description}, ${line.productId}, ${line.productName}, ${line.priceId}, ${session.id}, ${session.url}, ${now}, ${expiresAt})
            returning *`.execute(trx)
        ).rows[0]!;
        const { templates } = await storedAppSettings(trx, accountId, PAYMENTS_APP);
        const text = renderTemplate(templateText(PAYMENTS_APP, PAYMENTS_TEMPLATES[0]!, templates, smsLocaleOf(language)), {
          link,
          company: await companyName(trx, accountId),
          ttl: String(minutes),
        });
        return { text, credit: { taskId: id, kind: 'request' }, state: row };
      },
      record: async (trx, _row, _written, outcome) => {
        const row = await lockRow(trx, accountId, id);
        const money = formatMinor(Number(row.amount), row.currency, 'en-US');
        const masked = maskPhone(row.phone_number);
        if (!outcome.sent) return { row: await undelivered(trx, accountId, row, outcome.failure, caller, now), delivered: false };
        await addTaskEvent(trx, accountId, {
          app: PAYMENTS_APP,
          taskId: id,
          ts: now,
          type: 'requested',
          description: `Payment link for ${money} sent to ${masked}`,
          caller,
        });
        await addTaskEvent(trx, accountId, { app: PAYMENTS_APP, taskId: id, ts: now, caller, ...languageEvent(language) });
        await audit(trx, accountId, caller.actor, {
          namespace: PAYMENTS_APP,
          description: `Requested a payment of ${money} from ${masked}`,
          event: 'payment.requested',
          at: now,
        });
        await enqueueWebhookEvent(trx, accountId, PAYMENTS_APP, 'payment.requested', eventData(row), now);
        return { row, delivered: true };
      },
    });
  } catch (err) {
    // refused at the door (nothing of the payment stored): no one can pay the session or open the link
    await expireSession();
    await deps.db.tenant(accountId, (trx) => revokeTaskLinks(trx, accountId, id, now));
    throw err;
  }
  // a link that did not reach the customer cannot be paid
  if (!sent.delivered) await expireSession();
  const done = sent.row;
  return paymentOf(done);
}

/** No one can pay a request that never reached the customer: its Checkout Session is expired on Stripe. */
async function expireUndelivered(deps: PaymentsDeps, stripe: Stripe, sessionId: string, stripeAccount: string): Promise<void> {
  try {
    await stripe.checkout.sessions.expire(sessionId, {}, { stripeAccount });
  } catch (err) {
    deps.log(`Could not expire the Checkout Session ${sessionId} of an undelivered payment link`, err);
  }
}

/** A payment whose link never reached the customer: failed, its credit given back. */
async function undelivered(trx: Trx, accountId: string, row: Row, failure: string, caller: Caller, now: Date): Promise<Row> {
  await releaseCredits(trx, { accountId, app: PAYMENTS_APP, taskId: row.id, kind: 'request', now });
  const moved =
    RANK[row.status] < RANK.failed
      ? await move(trx, accountId, row, { status: 'failed', failure: `Link not delivered: ${failure}` }, now, caller)
      : row;
  const money = formatMinor(Number(row.amount), row.currency, 'en-US');
  await audit(trx, accountId, caller.actor, {
    namespace: PAYMENTS_APP,
    description: `Payment link for ${money} to ${maskPhone(row.phone_number)} not delivered: ${failure}`,
    event: 'payment.send-failed',
    at: now,
  });
  return moved;
}

/**
 * The SMS that carried a payment's link failed after the payment was requested (a journey's one
 * SMS, api/journeys): it ends exactly as requestPayment ends one whose own SMS failed.
 */
export async function endUndeliveredPayment(
  deps: PaymentsDeps,
  accountId: string,
  id: string,
  failure: string,
  caller: Caller,
): Promise<void> {
  const row = await deps.db.tenant(accountId, (trx) => lockRow(trx, accountId, id));
  if (row.status !== 'requested') return;
  const { stripe } = await requireConnect(deps.config);
  if (row.checkout_session_id) await expireUndelivered(deps, stripe, row.checkout_session_id, row.stripe_account_id);
  const now = deps.now();
  await deps.db.tenant(accountId, async (trx) => {
    const locked = await lockRow(trx, accountId, id);
    if (locked.status === 'requested') await undelivered(trx, accountId, locked, failure, caller, now);
  });
}

/** The customer opened the link (first time only): the one step Stripe does not tell us. */
export async function markOpened(deps: PaymentsDeps, accountId: string, id: string): Promise<Row> {
  const now = deps.now();
  return deps.db.tenant(accountId, async (trx) => {
    const row = await lockRow(trx, accountId, id);
    if (row.status !== 'requested') return row;
    const updated = (
      await sql<Row>`update payments set status = 'opened', opened_at = ${now} where id = ${id} returning *`.execute(trx)
    ).rows[0]!;
    // the customer acted: "By customer", as in every other app's timeline (not "By System")
    await addTaskEvent(trx, accountId, {
      app: PAYMENTS_APP,
      taskId: id,
      ts: now,
      type: 'opened',
      description: 'The customer opened the payment link',
      caller: customerCaller(),
    });
    return updated;
  });
}

/** What Stripe says of a payment, read from its Checkout Session. */
export type Truth = {
  status: PaymentStatus | null;
  paymentIntentId: string | null;
  refunded: number;
  failure: string | null;
  paidAt: Date | null;
};

export function truthOf(session: Stripe.Checkout.Session): Truth {
  const pi = typeof session.payment_intent === 'object' ? session.payment_intent : null;
  const paymentIntentId = pi?.id ?? (typeof session.payment_intent === 'string' ? session.payment_intent : null);
  const charge = pi && typeof pi.latest_charge === 'object' ? pi.latest_charge : null;
  const refunded = charge?.amount_refunded ?? 0;
  const failure = pi?.last_payment_error?.message ?? null;
  if (session.payment_status === 'paid' || pi?.status === 'succeeded') {
    const total = charge?.amount ?? session.amount_total ?? 0;
    const paidAt = charge?.created ? new Date(charge.created * 1000) : null;
    const status: PaymentStatus = refunded > 0 ? (refunded >= total ? 'refunded' : 'partially_refunded') : 'succeeded';
    return { status, paymentIntentId, refunded, failure: null, paidAt };
  }
  if (session.status === 'expired') return { status: 'expired', paymentIntentId, refunded: 0, failure: null, paidAt: null };
  if (failure || pi?.status === 'canceled')
    return { status: 'failed', paymentIntentId, refunded: 0, failure: failure ?? 'The payment was canceled.', paidAt: null };
  return { status: null, paymentIntentId, refunded: 0, failure: null, paidAt: null };
}

/**
 * Moves a payment forward to what Stripe says, never back: each step writes the timeline, the
 * webhook event and (once) the customer result in the caller's transaction.
 */
export async function move(
  trx: Trx,
  accountId: string,
  row: Row,
  truth: Partial<Truth> & { status: PaymentStatus },
  now: Date,
  caller: Caller | null,
): Promise<Row> {
  let current = row;
  const refundedBefore = Number(row.refunded_amount);
  const refundedNow = Math.max(refundedBefore, Math.min(truth.refunded ?? 0, Number(row.amount)));
  if (truth.paymentIntentId && !row.payment_intent_id) {
    current = (
      await sql<Row>`update payments set payment_intent_id = ${truth.paymentIntentId} where id = ${row.id} returning *`.execute(
        trx,
      )
    ).rows[0]!;
  }
  const target = truth.status;
  const money = (n: number) => formatMinor(n, row.currency, 'en-US');
  const step = async (
    status: PaymentStatus,
    set: RawBuilder<unknown>,
    type: string,
    description: string,
    webhook: string | null,
  ) => {
    current = (await sql<Row>`update payments set status = ${status}, ${set} where id = ${row.id} returning *`.execute(trx))
      .rows[0]!;
    await addTaskEvent(trx, accountId, { app: PAYMENTS_APP, taskId: row.id, ts: now, type, description, caller });
    const result = RESULT_OF[status];
    // once per outcome: a success after a declined card is a result of its own
    if (result && (status === 'succeeded' || !row.ended_at)) {
      await recordResult(trx, accountId, {
        app: PAYMENTS_APP,
        status: result,
        ts: now,
        sessionRef: row.id,
        phoneNumber: row.phone_number,
        customerRef: row.customer_ref,
      });
    }
    if (webhook) await enqueueWebhookEvent(trx, accountId, PAYMENTS_APP, webhook, eventData(current), now);
  };
  const paid = target === 'succeeded' || target === 'partially_refunded' || target === 'refunded';
  if (RANK[target] > RANK[current.status]) {
    if (paid && RANK[current.status] < RANK.succeeded) {
      const paidAt = truth.paidAt ?? now;
      await step(
        'succeeded',
        sql`paid_at = ${paidAt}, ended_at = ${paidAt}, failure_reason = null`,
        'succeeded',
        `Paid ${money(Number(row.amount))}`,
        'payment.succeeded',
      );
    } else if (target === 'failed') {
      await step(
        'failed',
        sql`failure_reason = ${truth.failure ?? null}, ended_at = coalesce(ended_at, ${now})`,
        'failed',
        `Payment failed${truth.failure ? `: ${truth.failure}` : ''}`,
        'payment.failed',
      );
    } else if (target === 'expired') {
      await step(
        'expired',
        sql`ended_at = coalesce(ended_at, ${now})`,
        'expired',
        'The payment link expired unpaid',
        'payment.expired',
      );
    }
  }
  if (paid && refundedNow > refundedBefore) {
    const status: PaymentStatus = refundedNow >= Number(row.amount) ? 'refunded' : 'partially_refunded';
    const description =
      status === 'refunded'
        ? `Refunded in full (${money(refundedNow)})`
        : `Refunded ${money(refundedNow - refundedBefore)} (${money(refundedNow)} of ${money(Number(row.amount))} in all)`;
    await step(status, sql`refunded_amount = ${refundedNow}`, 'refunded', description, 'payment.refunded');
  }
  return current;
}

/** Re-reads the payment's Checkout Session from Stripe (outside any transaction). */
export async function readTruth(deps: PaymentsDeps, row: Pick<Row, 'checkout_session_id' | 'stripe_account_id'>): Promise<Truth> {
  const { stripe } = await requireConnect(deps.config);
  try {
    const session = await stripe.checkout.sessions.retrieve(
      row.checkout_session_id!,
      { expand: ['payment_intent.latest_charge'] },
      { stripeAccount: row.stripe_account_id },
    );
    return truthOf(session);
  } catch (err) {
    throw connectFailure(err);
  }
}

/**
 * Refunds all that is left, or `amount` (minor units) of it, on the connected account. The
 * amount is reserved on the payment (refunding_amount) in the transaction that checks what is
 * left, then asked of Stripe, then settled; a refund Stripe refuses gives its reservation back.
 * Parallel refunds of one payment each see the others' reservations (six parallel 700s on a
 * 2,000 payment: two reach Stripe, four are refused), and Stripe's own cap stays behind it.
 */
export async function refundPayment(
  deps: PaymentsDeps,
  accountId: string,
  id: string,
  amount: number | undefined,
  caller: Caller & { actor: Actor },
): Promise<Payment> {
  const { stripe } = await requireConnect(deps.config);
  const { row, give, reservedBefore } = await deps.db.tenant(accountId, async (trx) => {
    const row = await lockRow(trx, accountId, id);
    if (row.status !== 'succeeded' && row.status !== 'partially_refunded') {
      throw new ApiError(
        409,
        'NOT_REFUNDABLE',
        row.status === 'refunded'
          ? 'This payment is already refunded in full.'
          : 'Only a payment that succeeded can be refunded.',
      );
    }
    const reservedBefore = Number(row.refunded_amount) + Number(row.refunding_amount);
    const left = Number(row.amount) - reservedBefore;
    const give = amount ?? left;
    if (give > left || give <= 0) {
      const inFlight = Number(row.refunding_amount) > 0 ? ' (other refunds of this payment are being made)' : '';
      throw new ApiError(
        400,
        'VALIDATION_FAILED',
        `amount: At most ${formatMinor(left, row.currency, 'en-US')} is left to refund${inFlight}`,
        { amount: `At most ${formatMinor(left, row.currency, 'en-US')} is left to refund${inFlight}` },
      );
    }
    if (!row.payment_intent_id)
      throw new ApiError(409, 'NOT_REFUNDABLE', 'Stripe has not told us the payment of this request yet. Try again in a moment.');
    await sql`update payments set refunding_amount = refunding_amount + ${give} where id = ${id}`.execute(trx);
    return { row, give, reservedBefore };
  });
  const release = () =>
    deps.db.tenant(accountId, (trx) =>
      sql`update payments set refunding_amount = refunding_amount - ${give} where id = ${id}`.execute(trx),
    );
  try {
    await stripe.refunds.create(
      { payment_intent: row.payment_intent_id!, amount: give, metadata: { payment_id: id } },
      // the same refund asked twice (a retry after a lost answer) is made once
      { stripeAccount: row.stripe_account_id, idempotencyKey: `refund-${id}-${reservedBefore}-${give}` },
    );
  } catch (err) {
    await release();
    throw connectFailure(err);
  }
  const truth = await readTruth(deps, row).catch(() => null);
  const now = deps.now();
  const done = await deps.db.tenant(accountId, async (trx) => {
    await sql`update payments set refunding_amount = refunding_amount - ${give} where id = ${id}`.execute(trx);
    const locked = await lockRow(trx, accountId, id);
    // Stripe's own answer, or at least what it just accepted
    // (Stripe's webhook for this refund may have been counted already: never add it twice)
    const refunded = Math.min(
      Number(locked.amount),
      Math.max(truth?.refunded ?? 0, Number(locked.refunded_amount), Number(row.refunded_amount) + give),
    );
    const status: PaymentStatus = refunded >= Number(locked.amount) ? 'refunded' : 'partially_refunded';
    const updated = await move(
      trx,
      accountId,
      locked,
      { ...(truth ?? { paymentIntentId: row.payment_intent_id, failure: null, paidAt: null }), status, refunded },
      now,
      caller,
    );
    await audit(trx, accountId, caller.actor, {
      namespace: PAYMENTS_APP,
      description: `Refunded ${formatMinor(give, row.currency, 'en-US')} of the payment of ${formatMinor(Number(row.amount), row.currency, 'en-US')} from ${maskPhone(row.phone_number)}`,
      event: 'payment.refunded',
      at: now,
    });
    return updated;
  });
  return paymentOf(done);
}

/** The payment a Connect event is about, by the ids Stripe gives (ours in metadata first). */
export function paymentRefOf(object: Record<string, unknown>): {
  paymentId: string | null;
  sessionId: string | null;
  intentId: string | null;
} {
  const metadata = (object.metadata ?? {}) as Record<string, string>;
  const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
  const paymentId = typeof metadata.payment_id === 'string' && uuid.test(metadata.payment_id) ? metadata.payment_id : null;
  if (object.object === 'checkout.session')
    return {
      paymentId,
      sessionId: String(object.id),
      intentId: typeof object.payment_intent === 'string' ? object.payment_intent : null,
    };
  if (object.object === 'payment_intent') return { paymentId, sessionId: null, intentId: String(object.id) };
  if (object.object === 'charge')
    return { paymentId, sessionId: null, intentId: typeof object.payment_intent === 'string' ? object.payment_intent : null };
  return { paymentId, sessionId: null, intentId: null };
}

export async function findPayment(trx: Trx, accountId: string, ref: ReturnType<typeof paymentRefOf>): Promise<Row | null> {
  const conditions = [
    ref.paymentId ? sql`id = ${ref.paymentId}` : null,
    ref.sessionId ? sql`checkout_session_id = ${ref.sessionId}` : null,
    ref.intentId ? sql`payment_intent_id = ${ref.intentId}` : null,
  ].filter((c): c is NonNullable<typeof c> => c !== null);
  if (!conditions.length) return null;
  return (
    (
      await sql<Row>`select * from payments where account_id = ${accountId} and (${sql.join(conditions, sql` or `)}) limit 1`.execute(
        trx,
      )
    ).rows[0] ?? null
  );
}

export const browserNonce = () => crypto.randomBytes(24).toString('base64url');
export const hashOf = sha256Hex;
