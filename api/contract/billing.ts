import * as v from 'valibot';
import { APP_IDS } from './apps';
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
