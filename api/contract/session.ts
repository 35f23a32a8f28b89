import * as v from 'valibot';
import { APP_IDS } from './apps';
import { AppIdSchema, RoleSchema } from './common';
import { AppBillingSchema } from './billing';

export const BrandingSchema = v.object({
  name: v.string(),
  /** SVG text, base64-encoded; '' when there is no logo */
  logo: v.string(),
  color: v.string(),
  domain: v.nullable(v.string()),
  domainIsVerified: v.boolean(),
});
export type Branding = v.InferOutput<typeof BrandingSchema>;

/** Billing of every app, keyed by app id (apps without billing are 'inactive'). */
export const BillingByAppSchema = v.object(
  Object.fromEntries(APP_IDS.map((id) => [id, AppBillingSchema])) as { [K in (typeof APP_IDS)[number]]: typeof AppBillingSchema },
);

/** GET /admins/bootstrap: who is signed in, their account, billing per app and branding. */
export const BootstrapSchema = v.object({
  id: v.string(),
  /** timeZone: the account's (Settings > Branding); the console shows every date in it */
  account: v.object({ id: v.string(), name: v.string(), timeZone: v.optional(v.string()) }),
  firstName: v.string(),
  lastName: v.string(),
  email: v.string(),
  role: RoleSchema,
  isRoot: v.boolean(),
  ghost: v.boolean(),
  /** apps this user may see: unreleased apps only for provider-domain e-mails */
  apps: v.array(AppIdSchema),
  billing: BillingByAppSchema,
  branding: BrandingSchema,
  /**
   * the apps this server can take a subscription to (Stripe billing and the app's price are set):
   * Subscribe is offered for these only; the others say BILLING_NOT_CONFIGURED's sentence
   */
  subscribable: v.optional(v.array(AppIdSchema)),
  /** Stripe here is the development stand-in (api/dev-stripe): screens that reach it say so */
  stripeStandIn: v.optional(v.boolean()),
});
export type Bootstrap = v.InferOutput<typeof BootstrapSchema>;

/** The session token's payload, as the UI may read it (it never verifies it: the API does). */
export const TokenPayloadSchema = v.object({
  sub: v.string(),
  acc: v.string(),
  role: RoleSchema,
  root: v.boolean(),
  ghost: v.boolean(),
  email: v.string(),
  exp: v.number(),
});
export type TokenPayload = v.InferOutput<typeof TokenPayloadSchema>;

export const TokenAnswerSchema = v.object({ token: v.string() });
export type TokenAnswer = v.InferOutput<typeof TokenAnswerSchema>;
