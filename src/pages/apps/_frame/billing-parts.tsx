import { Link } from 'wouter';
import type { AppDefinition } from '../../../../api/contract/apps';
import type { BillingApp, Usage } from '../../../../api/contract/billing';
import type { BillingStatus } from '../../../../api/contract/common';
import { CREDIT_WARNING_RATIO } from '../../../../api/contract/constants';
import { formatMoney, PLAN_NAMES, plansOf } from '../../../../api/contract/plans';
import { BILLING_STATUS_LABEL } from '../../../../api/contract/wording';
import { useStartFreeTrial } from '../../../api/billing';
import { SubscribeButton, TrialTerms } from './subscribe';

export {
  AskAnAdmin,
  NotSubscribableNotice,
  StripeStandInNotice,
  SubscribeButton,
  TrialTerms,
  useChangesBilling,
  useSubscribable,
} from './subscribe';
import { Button } from '../../../ui/Button';
import { formatDay, formatNumber } from '../../../ui/format';

// Pieces the billing screens share: Settings > Billing, an app's billing page and its pricing.

/** Billing dates are days, always absolute, in the console's one date style. */
export { formatDay };

export function StatusBadge({ status }: { status: BillingStatus }) {
  return <span className={`badge badge-${status}`}>{BILLING_STATUS_LABEL[status]}</span>;
}

/** Credits used against what the plan includes: a bar that turns red at 80 %. */
export function UsageBar({ usage, label }: { usage: Usage; label: string }) {
  const share = usage.freeTier > 0 ? Math.min(1, usage.credits / usage.freeTier) : 0;
  const warning = usage.freeTier > 0 && usage.credits >= usage.freeTier * CREDIT_WARNING_RATIO;
  const text =
    usage.freeTier > 0
      ? `${formatNumber(usage.credits)} of ${formatNumber(usage.freeTier)} credits used`
      : `${formatNumber(usage.credits)} credits used`;
  return (
    <div className="usage">
      <div className={warning ? 'usage-text credit-warning' : 'usage-text'}>
        {text}
        {warning && <span className="sr-only"> (80 % or more of the included credits)</span>}
      </div>
      {usage.freeTier > 0 && (
        <div
          className={warning ? 'usage-bar usage-bar-warning' : 'usage-bar'}
          role="progressbar"
          aria-label={label}
          aria-valuemin={0}
          aria-valuemax={usage.freeTier}
          aria-valuenow={Math.min(usage.credits, usage.freeTier)}
          aria-valuetext={text}
          data-warning={warning || undefined}
        >
          <span style={{ width: `${Math.round(share * 100)}%` }} />
        </div>
      )}
    </div>
  );
}

/** The date line a card shows: when a trial ends, when a subscription renews or ends. */
export function BillingDates({ billing }: { billing: BillingApp }) {
  if (billing.status === 'free-trial' && billing.trialEndsAt) return <p>Trial ends on {formatDay(billing.trialEndsAt)}</p>;
  if (billing.status === 'subscription' && billing.periodEnd) {
    return billing.cancelAtPeriodEnd ? (
      <p>Ends on {formatDay(billing.periodEnd)}</p>
    ) : (
      <p>Renews on {formatDay(billing.periodEnd)}</p>
    );
  }
  if (billing.status === 'inactive' && billing.trialEndsAt) return <p>Trial ended on {formatDay(billing.trialEndsAt)}</p>;
  return null;
}

/**
 * What the subscription costs, as every screen says it: the prices from the plans module, the
 * credits included from the account's own period (usage.freeTier, the figure the usage bar, the
 * header and Watch Tower show).
 */
export function subscriptionSummary(app: string, included: number): string {
  const plans = plansOf(app)!;
  return `${formatMoney(plans.monthlyPriceCents)} a month, ${formatNumber(included)} credits included, ${formatMoney(plans.extraCreditCents)} per extra credit`;
}

export { PLAN_NAMES };

/** The action that fits the app's state: Start Free Trial, Subscribe, Manage or Contact sales. */
export function BillingAction({ app, billing }: { app: AppDefinition; billing: BillingApp }) {
  const startFreeTrial = useStartFreeTrial();
  if (billing.status === 'enterprise') {
    return (
      <Link href="~/sales" className="btn btn-secondary" aria-label={`Contact sales about ${app.title}`}>
        Contact sales
      </Link>
    );
  }
  if (billing.status === 'subscription') {
    return (
      <Link href={`~/${app.id}/settings/billing`} className="btn btn-secondary" aria-label={`Manage ${app.title} billing`}>
        Manage
      </Link>
    );
  }
  if (billing.status === 'inactive' && !billing.trialEndsAt) {
    return (
      <>
        <Button
          variant="primary"
          onClick={() => startFreeTrial(app.id)}
          successLabel="Trial started"
          aria-label={`Start Free Trial of ${app.title}`}
        >
          Start Free Trial
        </Button>
        <TrialTerms app={app.id} />
      </>
    );
  }
  return <SubscribeButton app={app} label={`Subscribe to ${app.title}`} />;
}
