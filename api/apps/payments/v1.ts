import { PaymentIdParamSchema, PaymentRequestBodySchema, PaymentSchema, type PaymentRequestBody } from '../../contract/apps/payments';
import { apiCaller } from '../platform/caller';
import { requestOrigin } from '../platform/console-routes';
import type { V1Operation } from '../platform/v1-spec';
import { getPayment, requestPayment } from './service';

const TAG = 'Payments';

export const PAYMENTS_V1: V1Operation[] = [
  {
    method: 'post',
    path: '/payments',
    operationId: 'requestPayment',
    summary: 'Request a payment',
    description:
      "Creates a Stripe Checkout Session on the account's connected Stripe account (a direct charge) for a product of the catalog (productId) or for an amount in minor units (amount, currency, description), and texts its link to phoneNumber. The link works expiresInMinutes (30 to 1440; the app's link validity when absent). The payment then moves through requested, opened, succeeded, failed, expired, partially_refunded and refunded as Stripe reports it.",
    tag: TAG,
    body: PaymentRequestBodySchema,
    answer: PaymentSchema,
    statuses: [201],
    errors: [
      { status: 402, code: 'FREE_TIER_EXHAUSTED' },
      { status: 403, code: 'APP_NOT_ACTIVE' },
      { status: 409, code: 'STRIPE_NOT_CONNECTED' },
      { status: 409, code: 'SMS_NOT_CONFIGURED' },
      { status: 502, code: 'STRIPE_UNAVAILABLE' },
      { status: 503, code: 'STRIPE_CONNECT_NOT_CONFIGURED' },
    ],
    async handler(c, { body }) {
      const input = body as PaymentRequestBody;
      const origin = requestOrigin(c as never);
      return { status: 201, answer: await requestPayment(c.var.deps, c.var.apiAccountId, input, apiCaller(input.agent, origin.ip, origin.userAgent)) };
    },
  },
  {
    method: 'get',
    path: '/payments/:id',
    operationId: 'getPayment',
    summary: 'Get a payment',
    tag: TAG,
    params: PaymentIdParamSchema,
    answer: PaymentSchema,
    statuses: [200],
    errors: [{ status: 404, code: 'NOT_FOUND' }],
    async handler(c, { params }) {
      return { status: 200, answer: await getPayment(c.var.deps, c.var.apiAccountId, params.id!) };
    },
  },
];
