import { useAtomValue } from 'jotai';
import type { AppDefinition, AppId } from '../../../../api/contract/apps';
import { formatMoney, plansOf, TRIAL_DAYS } from '../../../../api/contract/plans';
import { STATE_MESSAGES } from '../../../../api/contract/stripe-states';
import { formatSubscriptionPrice, useSubscribe, useSubscriptionPrice } from '../../../api/billing';
import { hasRole } from '../../../state/roles';
import { bootstrapAtom } from '../../../state/session';
import { Button } from '../../../ui/Button';
import { formatNumber } from '../../../ui/format';

// Subscribe, everywhere it is offered (Settings > Billing, an app's billing and pricing pages, an
// ended trial, a cancelled app), follows one rule: where this server cannot take the
// subscription (no Stripe billing, or no price for the app), the button is switched off and
// BILLING_NOT_CONFIGURED's sentence says why, once per screen. Kept apart from billing-parts so
// the app area's notices load it without the billing screens' code.

/**
 * Starting a free trial, subscribing and Settings > Billing are an admin's (the API refuses a
 * supervisor): screens a supervisor also sees put `AskAnAdmin` where those buttons would be,
 * instead of a button that could only fail.
 */
export function useChangesBilling(): boolean {
  return hasRole(useAtomValue(bootstrapAtom)?.role, 'admin');
}

export function AskAnAdmin({ what }: { what: string }) {
  return <p className="muted">An admin of your account can {what}.</p>;
}

/** Whether this server can take a subscription to the app (bootstrap's `subscribable`; unknown: yes). */
export function useSubscribable(app: AppId): boolean {
  const bootstrap = useAtomValue(bootstrapAtom);
  return bootstrap?.subscribable ? bootstrap.subscribable.includes(app) : true;
}

/** BILLING_NOT_CONFIGURED's sentence, said once on a screen whose Subscribe is switched off. */
export function NotSubscribableNotice() {
  return (
    <p className="notice notice-warning" role="status" data-testid="billing-not-configured">
      {STATE_MESSAGES.BILLING_NOT_CONFIGURED}
    </p>
  );
}

/**
 * Subscribe (to Stripe Checkout), switched off where this server cannot take the subscription;
 * `reason` puts the sentence beside it on screens that do not say it at the top.
 */
export function SubscribeButton({
  app,
  size,
  reason = false,
  label,
}: {
  app: AppDefinition;
  size?: 'sm';
  reason?: boolean;
  label?: string;
}) {
  const subscribe = useSubscribe();
  const can = useSubscribable(app.id);
  // the price Checkout will charge, beside the button that opens it
  const price = useSubscriptionPrice(app.id, can);
  return (
    <>
      <Button
        variant="primary"
        size={size}
        disabled={!can}
        onClick={() => subscribe(app.id)}
        successLabel="Opening checkout…"
        aria-label={label}
      >
        Subscribe
      </Button>
      {can && price && (
        <span className="subscribe-price" data-testid="subscribe-price">
          {formatSubscriptionPrice(price)}
        </span>
      )}
      {!can && reason && <span className="subscribe-reason">{STATE_MESSAGES.BILLING_NOT_CONFIGURED}</span>}
    </>
  );
}

/**
 * Said on every screen that reaches Stripe while it is the development stand-in (api/dev-stripe):
 * what happens there is a test, never a charge.
 */
export function StripeStandInNotice({ page = false }: { page?: boolean }) {
  const bootstrap = useAtomValue(bootstrapAtom);
  if (!bootstrap?.stripeStandIn) return null;
  const notice = (
    <p className="notice stand-in-notice" role="note" data-testid="stripe-stand-in">
      <strong>Development Stripe stand-in.</strong> Subscriptions and payments here go to a test double of Stripe on this machine:
      pay with the test card 4242 4242 4242 4242, nothing is charged. The server uses Stripe itself once its STRIPE_ settings are
      set.
    </p>
  );
  // above a page that brings its own frame (a dashboard): the notice gets the page's margins
  return page ? <div className="page page-notice">{notice}</div> : notice;
}

/**
 * What a free trial gives and what follows it, beside Start Free Trial: the plans module's figures,
 * as the pricing page states them. Nothing is charged when the trial ends unless someone subscribes.
 */
export function TrialTerms({ app }: { app: string }) {
  const plans = plansOf(app);
  if (!plans) return null;
  return (
    <span className="trial-terms" data-testid="trial-terms">
      Free for {TRIAL_DAYS} days with {formatNumber(plans.trialCredits)} credits; then {formatMoney(plans.monthlyPriceCents)} a
      month if you subscribe
    </span>
  );
}
