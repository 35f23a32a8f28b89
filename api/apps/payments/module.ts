import { sql } from 'kysely';
import { ApiError } from '../../http/errors';
import type { ActionResult } from '../../contract/platform';
import { formatMinor, parseMajor } from '../../contract/money';
import {
  PAID_STATUSES,
  PAYMENT_ACTIONS,
  PAYMENT_COLUMNS,
  PAYMENT_EVENT_TYPES,
  PAYMENT_STATUSES,
  PAYMENTS_APP,
  PAYMENTS_TEMPLATES,
  PaymentRequestBodySchema,
  PaymentsGeneralSettingsSchema,
  type Payment,
} from '../../contract/apps/payments';
import type { AppModule } from '../platform/registry';
import { registerApp } from '../platform/registry';
import { parseActionInput, taskTableQueries, type TaskTableRow } from '../platform/task-table';
import { getPayment, paymentsSettings, requestPayment } from './service';
import { sendableProducts } from './products';
import { connectSettings } from './stripe';
import { connectionRow } from './connect';
import { STATE_MESSAGES } from '../../contract/stripe-states';
import { PAYMENTS_V1 } from './v1';
import './page';
import { rate } from '../platform/rate';
import { runActions } from '../platform/actions';

type ListRow = TaskTableRow & {
  amount: number;
  currency: string;
  product_name: string | null;
  description: string;
  refunded_amount: number;
  checkout_session_id: string | null;
  payment_intent_id: string | null;
  paid_at: Date | null;
};

const OWN_COLUMNS = sql`amount, currency, product_name, description, refunded_amount, checkout_session_id, payment_intent_id, paid_at`;

const valuesOf = (r: ListRow) => ({
  amount: Number(r.amount),
  currency: r.currency,
  product: r.product_name ?? r.description,
  refunded: Number(r.refunded_amount),
  paidAt: r.paid_at ? new Date(r.paid_at).toISOString() : null,
  checkoutSessionId: r.checkout_session_id,
  paymentIntentId: r.payment_intent_id,
});

function actionResult(p: Payment): ActionResult {
  const money = formatMinor(p.amount, p.currency, 'en-US');
  const messages: Record<string, string> = {
    requested: `Payment link for ${money} sent to ${p.phoneNumber}. Stay on the line while they pay.`,
    opened: `The customer opened the link for ${money}.`,
    succeeded: `Paid: ${money}.`,
    failed: `The payment failed${p.failureReason ? `: ${p.failureReason}` : '.'}`,
    expired: 'The payment link expired unpaid.',
    partially_refunded: `Paid ${money}; ${formatMinor(p.refundedAmount, p.currency, 'en-US')} refunded.`,
    refunded: `Paid ${money}, then refunded in full.`,
  };
  // followed live while the customer may still pay
  return {
    taskId: p.id,
    status: p.status,
    message: messages[p.status] ?? p.status,
    task: p,
    open: p.status === 'requested' || p.status === 'opened',
  };
}

const PAID = sql.join(PAID_STATUSES.map((s) => sql`${s}`));

export const paymentsModule: AppModule = {
  id: PAYMENTS_APP,
  settings: { schema: PaymentsGeneralSettingsSchema, read: paymentsSettings },
  templates: PAYMENTS_TEMPLATES,
  actions: PAYMENT_ACTIONS,
  columns: PAYMENT_COLUMNS,
  statuses: PAYMENT_STATUSES,
  eventTypes: PAYMENT_EVENT_TYPES,
  v1: PAYMENTS_V1,

  runAction: runActions({
    request: {
      run: async (deps, accountId, { input, caller }) => {
        const text = (name: string) => (input[name] ?? '').trim() || undefined;
        const body: Record<string, unknown> = {
          phoneNumber: input.phoneNumber,
          customerRef: text('customerRef'),
          agent: caller.kind === 'api' ? text('agent') : caller.label,
        };
        if (text('locale')) body.locale = text('locale');
        if (text('productId')) body.productId = text('productId');
        else {
          // agents type major units ("12.50"); the API takes minor units
          const currency = (
            text('currency') ?? (await deps.db.tenant(accountId, (trx) => paymentsSettings(trx, accountId))).defaultCurrency
          ).toLowerCase();
          const typed = text('amount');
          const minor = typed ? parseMajor(typed, currency) : null;
          if (typed && minor === null)
            throw new ApiError(
              400,
              'VALIDATION_FAILED',
              `input.amount: Type an amount in ${currency.toUpperCase()} such as 12.50`,
              { 'input.amount': `Type an amount in ${currency.toUpperCase()} such as 12.50` },
            );
          if (minor === null)
            throw new ApiError(
              400,
              'VALIDATION_FAILED',
              'input.productId: Choose a product, or type an amount and what it is for',
              { 'input.productId': 'Choose a product, or type an amount and what it is for' },
            );
          Object.assign(body, { amount: minor, currency, description: text('description') ?? '' });
        }
        return actionResult(await requestPayment(deps, accountId, parseActionInput(PaymentRequestBodySchema, body), caller));
      },
    },
  }),

  choices: { 'request.productId': sendableProducts },

  /** no Connect on the server, or no account connected: said before the agent types anything */
  async unavailable(deps, accountId) {
    const code = !connectSettings(deps.config)
      ? 'STRIPE_CONNECT_NOT_CONFIGURED'
      : !(await deps.db.tenant(accountId, (trx) => connectionRow(trx, accountId)))
        ? 'STRIPE_NOT_CONNECTED'
        : null;
    return code ? { code, message: STATE_MESSAGES[code] } : null;
  },

  async taskStatus(deps, accountId, taskId) {
    return actionResult(await getPayment(deps, accountId, taskId));
  },

  ...taskTableQueries('payments', OWN_COLUMNS, valuesOf),

  /**
   * Money tiles are in the default currency (payments in others are counted, not summed). Volume
   * is net of refunds, the refunds named beside it; tile and chart read the same rows by the day
   * they were paid, so the line sums to the figure.
   */
  async dashboard(trx, accountId, p) {
    const { defaultCurrency: currency } = await paymentsSettings(trx, accountId);
    const totals = (
      await sql<{ period: 'current' | 'previous'; sent: number; ended: number; paid: number }>`
        select case when created_at >= ${p.start} then 'current' else 'previous' end as period,
               count(*)::int as sent,
               count(*) filter (where status not in ('requested', 'opened'))::int as ended,
               count(*) filter (where status in (${PAID}))::int as paid
        from payments where account_id = ${accountId} and created_at >= ${p.previousStart} and created_at < ${p.end}
        group by 1`.execute(trx)
    ).rows;
    const money = (
      await sql<{ period: 'current' | 'previous'; net: number; refunded: number }>`
        select case when paid_at >= ${p.start} then 'current' else 'previous' end as period,
               coalesce(sum(amount - refunded_amount), 0)::int as net,
               coalesce(sum(refunded_amount), 0)::int as refunded
        from payments where account_id = ${accountId} and paid_at >= ${p.previousStart} and paid_at < ${p.end} and currency = ${currency}
        group by 1`.execute(trx)
    ).rows;
    const daily = (
      await sql<{ day: string; net: number }>`
        select to_char(paid_at at time zone ${p.timeZone}, 'YYYY-MM-DD') as day, coalesce(sum(amount - refunded_amount), 0)::int as net
        from payments where account_id = ${accountId} and paid_at >= ${p.start} and paid_at < ${p.end} and currency = ${currency}
        group by 1`.execute(trx)
    ).rows;
    const of = (period: 'current' | 'previous') => totals.find((t) => t.period === period) ?? { sent: 0, ended: 0, paid: 0 };
    const moneyOf = (period: 'current' | 'previous') => money.find((t) => t.period === period) ?? { net: 0, refunded: 0 };
    const byDay = new Map(daily.map((d) => [d.day, d.net]));
    const code = currency.toUpperCase();
    return {
      tiles: [
        {
          key: 'net',
          label: `Net volume after refunds (${code})`,
          value: moneyOf('current').net,
          previous: moneyOf('previous').net,
          format: 'money',
          currency,
        },
        // of the requests that ended: one the customer has yet to pay has not failed ("0 %" beside one open request)
        {
          key: 'success',
          label: 'Success rate',
          value: rate(of('current').paid, of('current').ended),
          previous: rate(of('previous').paid, of('previous').ended),
          format: 'percent',
        },
        { key: 'requests', label: 'Requests sent', value: of('current').sent, previous: of('previous').sent, format: 'count' },
        {
          key: 'refunded',
          label: `Refunded (${code})`,
          value: moneyOf('current').refunded,
          previous: moneyOf('previous').refunded,
          format: 'money',
          currency,
        },
      ],
      series: [
        {
          key: 'net',
          label: `Net volume (${code})`,
          currency,
          points: p.days.map((date) => ({ date, value: byDay.get(date) ?? 0 })),
        },
      ],
    };
  },
};

registerApp(paymentsModule);
