import * as v from 'valibot';
import { OptionalLocaleSchema } from '../locales';
import { PhoneNumberSchema } from '../sms';
import { CURRENCY_PATTERN } from '../money';
import { exactlyOneOf } from '../common';
import type { AppAction, TaskColumn } from '../platform';

// The Payments app (Stripe Connect): the account's connected Stripe account, its product
// catalog, payment requests (a Checkout Session on the connected account, its link sent by SMS),
// settings, webhook events, activity columns and the agent action. Amounts are integers in the
// currency's minor unit everywhere (api/contract/money.ts formats them).

export const PAYMENTS_APP = 'payments' as const;

export const PAYMENT_STATUSES = [
  'requested',
  'opened',
  'succeeded',
  'failed',
  'expired',
  'partially_refunded',
  'refunded',
] as const;
export const PaymentStatusSchema = v.picklist(PAYMENT_STATUSES);
export type PaymentStatus = v.InferOutput<typeof PaymentStatusSchema>;
/** statuses in which money was taken (gross volume, success rate) */
export const PAID_STATUSES: readonly PaymentStatus[] = ['succeeded', 'partially_refunded', 'refunded'];

/** Checkout Sessions live 30 minutes to 24 hours (Stripe's own bounds). */
export const LINK_MINUTES = { min: 30, max: 1440, default: 60 } as const;

const int = (name: string, min: number, max: number) =>
  v.pipe(
    v.number(`${name} must be a number`),
    v.integer(`${name} must be a whole number`),
    v.minValue(min, `${name} is at least ${min}`),
    v.maxValue(max, `${name} is at most ${max}`),
  );

export const CurrencySchema = v.pipe(
  v.string('currency must be text'),
  v.trim(),
  v.toLowerCase(),
  v.regex(CURRENCY_PATTERN, 'currency is a three-letter ISO code such as usd'),
);
/** An amount in minor units: Stripe's own ceiling is 99,999,999. */
export const AmountSchema = v.pipe(
  v.number('amount must be a number'),
  v.integer('amount is a whole number of minor units (cents)'),
  v.minValue(1, 'amount is at least 1'),
  v.maxValue(99_999_999, 'amount is at most 99,999,999'),
);

/** Stripe's suffix rules: letters, digits, spaces and some punctuation, never < > \ ' " *. */
const SuffixSchema = v.pipe(
  v.string('Statement descriptor suffix must be text'),
  v.trim(),
  v.maxLength(22, 'Statement descriptor suffix has at most 22 characters'),
  v.regex(/^[^<>\\'"*]*$/, 'Statement descriptor suffix cannot contain < > \\ \' " or *'),
  v.regex(/^(|.*[A-Za-z].*)$/, 'Statement descriptor suffix needs at least one letter'),
);

/** Configuration > General (GET/PUT /api/payments/settings/general). */
export const PaymentsGeneralSettingsSchema = v.object({
  defaultCurrency: CurrencySchema,
  linkValidityMinutes: int('Link validity', LINK_MINUTES.min, LINK_MINUTES.max),
  statementDescriptorSuffix: SuffixSchema,
});
export type PaymentsGeneralSettings = v.InferOutput<typeof PaymentsGeneralSettingsSchema>;
export const PAYMENTS_DEFAULT_SETTINGS: PaymentsGeneralSettings = {
  defaultCurrency: 'usd',
  linkValidityMinutes: LINK_MINUTES.default,
  statementDescriptorSuffix: '',
};

export const PAYMENTS_TEMPLATES = [
  {
    key: 'payment_link',
    label: 'Payment link',
    defaultBody: '{{company}} has sent you a secure payment link: {{link}} It works for {{ttl}} minutes.',
    placeholders: ['company', 'link', 'ttl'] as const,
    required: ['link'] as const,
  },
];

// ---------------------------------------------------------------- Stripe connection

/** GET /api/payments/stripe */
export const StripeConnectionSchema = v.object({
  connected: v.boolean(),
  /** the platform has no Connect client id or key: say so instead of a broken button */
  configured: v.boolean(),
  accountId: v.nullable(v.string()),
  name: v.nullable(v.string()),
  country: v.nullable(v.string()),
  defaultCurrency: v.nullable(v.string()),
  chargesEnabled: v.boolean(),
  connectedAt: v.nullable(v.string()),
});
export type StripeConnection = v.InferOutput<typeof StripeConnectionSchema>;

/** POST /api/payments/stripe/connect: where to send the admin (Stripe's authorize page). */
export const StripeConnectAnswerSchema = v.object({ url: v.string() });
export type StripeConnectAnswer = v.InferOutput<typeof StripeConnectAnswerSchema>;

const queryText = (name: string, max: number) =>
  v.pipe(v.string(`${name} must be text`), v.maxLength(max, `${name} has at most ${max} characters`));

/** POST /api/payments/stripe/callback: what Stripe put on the callback page's query string. */
export const StripeCallbackBodySchema = v.object({
  state: v.pipe(queryText('state', 200), v.regex(/^[A-Za-z0-9_-]{16,200}$/, 'state is not a state this console gave out')),
  code: v.optional(v.pipe(queryText('code', 500), v.regex(/^[A-Za-z0-9_-]{1,500}$/, 'code is not an authorization code'))),
  error: v.optional(queryText('error', 200)),
  errorDescription: v.optional(queryText('errorDescription', 1000)),
});
export type StripeCallbackBody = v.InferOutput<typeof StripeCallbackBodySchema>;

// ---------------------------------------------------------------- products

export const ProductSchema = v.object({
  id: v.string(),
  name: v.string(),
  description: v.nullable(v.string()),
  active: v.boolean(),
  /** the default price: minor units */
  priceId: v.nullable(v.string()),
  unitAmount: v.nullable(v.number()),
  currency: v.nullable(v.string()),
  /** ISO 8601 */
  updatedAt: v.string(),
});
export type Product = v.InferOutput<typeof ProductSchema>;
export const ProductListSchema = v.array(ProductSchema);

const nameText = v.pipe(
  v.string('Name must be text'),
  v.trim(),
  v.minLength(1, 'Name is required'),
  v.maxLength(250, 'Name has at most 250 characters'),
);
const descriptionText = v.nullable(
  v.pipe(v.string('Description must be text'), v.trim(), v.maxLength(500, 'Description has at most 500 characters')),
);

/** POST /api/payments/products */
export const ProductBodySchema = v.object({
  name: nameText,
  description: v.optional(descriptionText),
  unitAmount: AmountSchema,
  currency: CurrencySchema,
});
export type ProductBody = v.InferOutput<typeof ProductBodySchema>;

/** PUT /api/payments/products/{id}: a changed amount or currency is a new price (prices never change on Stripe). */
export const ProductUpdateBodySchema = v.object({
  name: v.optional(nameText),
  description: v.optional(descriptionText),
  unitAmount: v.optional(AmountSchema),
  currency: v.optional(CurrencySchema),
  active: v.optional(v.boolean('active must be true or false')),
});
export type ProductUpdateBody = v.InferOutput<typeof ProductUpdateBodySchema>;

export const ProductIdParamSchema = v.object({
  id: v.pipe(v.string(), v.regex(/^prod_[A-Za-z0-9]{1,100}$/, 'id is not a product id')),
});
export const ProductQuerySchema = v.object({
  q: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(200, 'q has at most 200 characters'))),
});

// ---------------------------------------------------------------- payment requests

const optionalText = (name: string, max: number) =>
  v.optional(
    v.nullable(v.pipe(v.string(`${name} must be text`), v.trim(), v.maxLength(max, `${name} has at most ${max} characters`))),
  );

/**
 * POST /api/v1/payments: a product of the catalog, or an amount, currency and description.
 * The link works expiresInMinutes (30 to 1440; the app's link validity when absent).
 */
export const PaymentRequestBodySchema = exactlyOneOf(
  v.object({
    phoneNumber: PhoneNumberSchema,
    customerRef: optionalText('customerRef', 200),
    agent: optionalText('agent', 200),
    productId: v.optional(
      v.pipe(v.string('productId must be text'), v.trim(), v.regex(/^prod_[A-Za-z0-9]{1,100}$/, 'productId is not a product id')),
    ),
    amount: v.optional(AmountSchema),
    currency: v.optional(CurrencySchema),
    description: v.optional(
      v.pipe(
        v.string('description must be text'),
        v.trim(),
        v.minLength(1, 'description is required with an amount'),
        v.maxLength(250, 'description has at most 250 characters'),
      ),
    ),
    expiresInMinutes: v.optional(int('expiresInMinutes', LINK_MINUTES.min, LINK_MINUTES.max)),
    /** the caller's language (SMS and page); the account's default when absent */
    locale: OptionalLocaleSchema,
  }),
  [
    // a product of the catalog: its own price and currency
    { required: ['productId'], absent: ['amount', 'currency'] },
    // an amount (in the default currency when none is given) and what it is for
    { required: ['amount', 'description'], absent: ['productId'] },
  ],
  'Give a productId, or an amount and a description (and a currency, else the default one), not both',
  'productId',
);
export type PaymentRequestBody = v.InferOutput<typeof PaymentRequestBodySchema>;

export const PaymentIdParamSchema = v.object({ id: v.pipe(v.string(), v.uuid('id is not a payment id')) });

/** POST /api/payments/tasks/{id}/refund: the whole remaining amount when amount is absent. */
export const RefundBodySchema = v.object({ amount: v.optional(AmountSchema) });
export type RefundBody = v.InferOutput<typeof RefundBodySchema>;

/** A payment as /api/v1 answers it. */
export const PaymentSchema = v.object({
  id: v.string(),
  status: PaymentStatusSchema,
  /** minor units */
  amount: v.number(),
  currency: v.string(),
  description: v.string(),
  productId: v.nullable(v.string()),
  priceId: v.nullable(v.string()),
  /** masked: +1 •••• •• 4567 */
  phoneNumber: v.string(),
  customerRef: v.nullable(v.string()),
  agent: v.nullable(v.string()),
  checkoutSessionId: v.nullable(v.string()),
  paymentIntentId: v.nullable(v.string()),
  /** minor units refunded so far */
  refundedAmount: v.number(),
  /** ISO 8601 */
  createdAt: v.string(),
  expiresAt: v.string(),
  paidAt: v.nullable(v.string()),
  failureReason: v.nullable(v.string()),
});
export type Payment = v.InferOutput<typeof PaymentSchema>;

export const PAYMENT_EVENT_TYPES = [
  'payment.requested',
  'payment.succeeded',
  'payment.failed',
  'payment.expired',
  'payment.refunded',
] as const;

export const PAYMENT_COLUMNS: TaskColumn[] = [
  { key: 'id', label: 'ID', kind: 'id' },
  { key: 'amount', label: 'Amount', kind: 'money' },
  { key: 'currency', label: 'Currency', kind: 'currency' },
  { key: 'status', label: 'Status', kind: 'status' },
  { key: 'product', label: 'Product', kind: 'text' },
  { key: 'customerRef', label: 'Customer', kind: 'text' },
  { key: 'phoneNumber', label: 'Phone', kind: 'phone' },
  { key: 'agent', label: 'Agent', kind: 'text' },
  { key: 'createdAt', label: 'Created', kind: 'date' },
  { key: 'paidAt', label: 'Paid at', kind: 'date' },
  { key: 'refunded', label: 'Refunded', kind: 'money' },
  { key: 'checkoutSessionId', label: 'Checkout Session', kind: 'id' },
  { key: 'paymentIntentId', label: 'Payment Intent', kind: 'id' },
];

export const PAYMENT_ACTIONS: AppAction[] = [
  {
    key: 'request',
    label: 'Request a payment',
    description: 'Text the caller a secure card payment link: they pay on their own phone, you never hear the card number.',
    needsTask: false,
    fields: [
      { name: 'phoneNumber', label: 'Phone number', kind: 'phone', required: true, placeholder: '+15551234567' },
      { name: 'locale', label: "Caller's language", kind: 'locale', required: false },
      { name: 'customerRef', label: 'Customer ID', kind: 'text', required: false },
      {
        name: 'productId',
        label: 'Product',
        kind: 'choice',
        required: false,
        placeholder: 'Search the product catalog',
        empty:
          'The product catalog has no active product with a price: type an amount below, or an admin adds products under Products.',
      },
      { name: 'amount', label: 'Or an amount (e.g. 12.50)', kind: 'text', required: false },
      { name: 'currency', label: 'Currency', kind: 'text', required: false, placeholder: 'USD' },
      { name: 'description', label: 'What it is for', kind: 'text', required: false },
    ],
  },
];

/** Payments dashboard tiles, by key. */
export const PAYMENT_TILES = ['gross', 'success', 'requests', 'refunded'] as const;
