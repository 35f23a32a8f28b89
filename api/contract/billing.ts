import * as v from 'valibot';
import { APP_IDS } from './apps';
import { BillingStatusSchema, EmailSchema } from './common';

/**
 * Usage of an app in the current period. `credits` is what has been used, `freeTier` what the
 * plan includes; status says where credits stand against the free tier.
 */
export const UsageStatusSchema = v.picklist(['ok', 'near-limit', 'exhausted']);
export const UsageSchema = v.object({
  status: UsageStatusSchema,
  credits: v.number(),
  freeTier: v.number(),
});
export type Usage = v.InferOutput<typeof UsageSchema>;

export const AppBillingSchema = v.object({
  status: BillingStatusSchema,
  trialEndsAt: v.nullable(v.string()),
  usage: v.optional(UsageSchema),
  /** Stripe could not take the last payment: the app keeps working while Stripe retries */
  paymentFailed: v.optional(v.boolean()),
});
export type AppBilling = v.InferOutput<typeof AppBillingSchema>;

/** POST /{app}/billing/free-trial takes no body fields (the app is in the path). */
export const FreeTrialBodySchema = v.object({});

export { CREDIT_WARNING_RATIO } from './constants';

/**
 * 'app start': the console's sign-in flow can carry an app (e.g. /sign-up?app=passkeys from a
 * "Start free trial" link). After sign-in it posts the app: an inactive app gets its free trial,
 * an active one is left as it is; either way the answer is the app's billing and the console
 * opens the app.
 */
export const AppStartBodySchema = v.object({ app: v.picklist(APP_IDS, 'There is no such app.') });
export type AppStartBody = v.InferOutput<typeof AppStartBodySchema>;
export const AppStartAnswerSchema = v.object({ app: v.picklist(APP_IDS), billing: AppBillingSchema, started: v.boolean() });
export type AppStartAnswer = v.InferOutput<typeof AppStartAnswerSchema>;

/* ---- Billing screens (Settings > Billing, /{app}/settings/billing, /{app}/pricing) ---- */

export const PlanIdSchema = v.picklist(['free-trial', 'subscription', 'enterprise']);

/** One app's billing as the billing screens show it; `usage.freeTier` is what the plan includes. */
export const BillingAppSchema = v.object({
  app: v.picklist(APP_IDS),
  status: BillingStatusSchema,
  plan: v.nullable(PlanIdSchema),
  trialEndsAt: v.nullable(v.string()),
  periodStart: v.nullable(v.string()),
  periodEnd: v.nullable(v.string()),
  cancelAtPeriodEnd: v.boolean(),
  paymentFailed: v.boolean(),
  /** a Stripe Checkout was started and not finished yet */
  checkoutOpen: v.boolean(),
  /**
   * this server can take a subscription to the app (Stripe billing and the app's price are set);
   * false: BILLING_NOT_CONFIGURED, and no screen offers Subscribe
   */
  subscribable: v.boolean(),
  usage: UsageSchema,
  /** the next invoice of a subscription: its date and the estimate for the credits used so far */
  nextInvoice: v.nullable(v.object({ date: v.string(), amountCents: v.number() })),
});
export type BillingApp = v.InferOutput<typeof BillingAppSchema>;

export const BillingOverviewSchema = v.object({
  /** false when this server has no Stripe settings: subscribing is refused, trials still work */
  configured: v.boolean(),
  billingEmail: v.nullable(v.string()),
  /** the account has a Stripe customer (so invoices and the portal exist) */
  hasCustomer: v.boolean(),
  apps: v.array(BillingAppSchema),
});
export type BillingOverview = v.InferOutput<typeof BillingOverviewSchema>;

export const DailyCreditsSchema = v.array(v.object({ date: v.string(), count: v.number() }));
export const AppBillingDetailSchema = v.object({
  ...BillingAppSchema.entries,
  configured: v.boolean(),
  /** credits used per day in this period and in the one before */
  daily: v.object({ current: DailyCreditsSchema, previous: DailyCreditsSchema }),
});
export type AppBillingDetail = v.InferOutput<typeof AppBillingDetailSchema>;

export const RedirectAnswerSchema = v.object({ url: v.string() });
export type RedirectAnswer = v.InferOutput<typeof RedirectAnswerSchema>;

/**
 * POST /{app}/billing/checkout: `returnTo` is the console page Subscribe was pressed on; Stripe
 * sends the admin back there (paid or not). A path of the console only, never another origin.
 */
export const CheckoutBodySchema = v.object({
  returnTo: v.optional(
    v.pipe(
      v.string(),
      v.maxLength(200),
      v.regex(/^\/(?!\/)[A-Za-z0-9/_-]*$/, 'returnTo: a path of this console, such as /settings/billing'),
    ),
  ),
});
export type CheckoutBody = v.InferOutput<typeof CheckoutBodySchema>;

/** GET /billing/prices: what Checkout will charge for each app, read from the Stripe price it charges. */
export const SubscriptionPriceSchema = v.object({
  app: v.picklist(APP_IDS),
  amountCents: v.number(),
  currency: v.string(),
  interval: v.nullable(v.string()),
});
export type SubscriptionPrice = v.InferOutput<typeof SubscriptionPriceSchema>;
export const SubscriptionPricesAnswerSchema = v.object({ prices: v.array(SubscriptionPriceSchema) });
export type SubscriptionPricesAnswer = v.InferOutput<typeof SubscriptionPricesAnswerSchema>;

export const CheckoutConfirmBodySchema = v.object({
  sessionId: v.pipe(v.string(), v.regex(/^[A-Za-z0-9_]{1,200}$/, 'Not a checkout session id')),
});

export const InvoiceSchema = v.object({
  id: v.string(),
  date: v.string(),
  amountCents: v.number(),
  currency: v.string(),
  status: v.string(),
  pdfUrl: v.nullable(v.string()),
  hostedUrl: v.nullable(v.string()),
});
export type Invoice = v.InferOutput<typeof InvoiceSchema>;
export const InvoicesAnswerSchema = v.object({ invoices: v.array(InvoiceSchema) });
export type InvoicesAnswer = v.InferOutput<typeof InvoicesAnswerSchema>;

export const BillingEmailBodySchema = v.object({ email: EmailSchema });
export type BillingEmailBody = v.InferOutput<typeof BillingEmailBodySchema>;
