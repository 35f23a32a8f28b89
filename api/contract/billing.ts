import * as v from 'valibot';
import { BillingStatusSchema } from './common';
import { CREDIT_WARNING_RATIO } from './constants';

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
});
export type AppBilling = v.InferOutput<typeof AppBillingSchema>;

/** POST /{app}/billing/free-trial takes no body fields (the app is in the path). */
export const FreeTrialBodySchema = v.object({});

export { CREDIT_WARNING_RATIO } from './constants';
