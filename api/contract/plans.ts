// What every billable app costs: the one place plan figures live. The API (trials, included
// credits, Stripe checkout), the console (pricing, billing cards) and Watch Tower read them here,
// so a figure is the same wherever it is shown. Plain values only (no valibot), so the UI can
// import it from any lazy page without pulling schemas along.
import type { AppId } from './apps';

/** Length of every free trial. */
export const TRIAL_DAYS = 14;
/** Days before a trial's end on which the account's admins are told it is ending. */
export const TRIAL_REMINDER_DAYS = [7, 1] as const;

export type AppPlans = {
  /** credits a free trial includes (its free tier) */
  trialCredits: number;
  /** Subscription: monthly price in cents, credits it includes, price of each extra credit in cents */
  monthlyPriceCents: number;
  includedCredits: number;
  extraCreditCents: number;
};

export const CURRENCY = 'usd';

const PLANS: Record<Exclude<AppId, 'identity-verification'>, AppPlans> = {
  passkeys: { trialCredits: 100, monthlyPriceCents: 9_900, includedCredits: 2_000, extraCreditCents: 5 },
  'document-signature': { trialCredits: 100, monthlyPriceCents: 14_900, includedCredits: 500, extraCreditCents: 40 },
  'e-form': { trialCredits: 100, monthlyPriceCents: 7_900, includedCredits: 1_000, extraCreditCents: 10 },
  'one-time-passcode': { trialCredits: 100, monthlyPriceCents: 4_900, includedCredits: 1_000, extraCreditCents: 6 },
  payments: { trialCredits: 100, monthlyPriceCents: 12_900, includedCredits: 1_000, extraCreditCents: 15 },
};

/** The plans of a billable app; undefined for apps without billing (identity verification). */
export function plansOf(app: string): AppPlans | undefined {
  return (PLANS as Record<string, AppPlans>)[app];
}

export type PlanId = 'free-trial' | 'subscription' | 'enterprise';

/** Which plan a billing status is on (inactive and cancelled are on none). */
export function planOfStatus(status: string): PlanId | null {
  return status === 'free-trial' || status === 'subscription' || status === 'enterprise' ? status : null;
}

export const PLAN_NAMES: Record<PlanId, string> = {
  'free-trial': 'Free trial',
  subscription: 'Subscription',
  enterprise: 'Enterprise',
};

/** "$49.00", "$0.06": money the way every screen shows it. */
export function formatMoney(cents: number): string {
  return `$${(cents / 100).toFixed(2)}`;
}

/** What a subscription period costs for `credits` used: the monthly price plus extra credits. */
export function estimateInvoiceCents(plans: AppPlans, credits: number): number {
  return plans.monthlyPriceCents + Math.max(0, credits - plans.includedCredits) * plans.extraCreditCents;
}
