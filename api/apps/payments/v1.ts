import {
  PaymentIdParamSchema,
  PaymentRequestBodySchema,
  PaymentSchema,
  type PaymentRequestBody,
} from '../../contract/apps/payments';
import { V1_APP_GATE, V1_SMS_SEND, v1Get, v1Start } from '../platform/v1-operations';
import type { V1Operation } from '../platform/v1-spec';
import { getPayment, requestPayment } from './service';

const TAG = 'Payments';

export const PAYMENTS_V1: V1Operation[] = [
  v1Start<PaymentRequestBody>(
    {
      path: '/payments',
      operationId: 'requestPayment',
      summary: 'Request a payment',
      description:
        "Creates a Stripe Checkout Session on the account's connected Stripe account (a direct charge) for a product of the catalog (productId) or for an amount in minor units (amount, currency, description), and texts its link to phoneNumber. The link works expiresInMinutes (30 to 1440; the app's link validity when absent). The payment then moves through requested, opened, succeeded, failed, expired, partially_refunded and refunded as Stripe reports it.",
      tag: TAG,
      body: PaymentRequestBodySchema,
      answer: PaymentSchema,
      errors: [
        ...V1_APP_GATE,
        { status: 409, code: 'STRIPE_NOT_CONNECTED' },
        ...V1_SMS_SEND,
        { status: 502, code: 'STRIPE_UNAVAILABLE' },
        { status: 503, code: 'STRIPE_CONNECT_NOT_CONFIGURED' },
      ],
    },
    (deps, accountId, input, caller) => requestPayment(deps, accountId, input, caller),
  ),
  v1Get(
    {
      path: '/payments/:id',
      operationId: 'getPayment',
      summary: 'Get a payment',
      description:
        'The payment with its status (requested, opened, succeeded, failed, expired, partially_refunded, refunded), amount and refunds, as Stripe has reported them.',
      tag: TAG,
      params: PaymentIdParamSchema,
      answer: PaymentSchema,
    },
    getPayment,
  ),
];
