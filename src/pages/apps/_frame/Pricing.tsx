import { useAtomValue } from 'jotai';
import type { ReactNode } from 'react';
import { Link } from 'wouter';
import type { AppDefinition } from '../../../../api/contract/apps';
import { formatMoney, planOfStatus, plansOf, TRIAL_DAYS, type PlanId } from '../../../../api/contract/plans';
import { useStartFreeTrial } from '../../../api/billing';
import { bootstrapAtom } from '../../../state/session';
import { Button } from '../../../ui/Button';
import { formatNumber } from '../../../ui/format';
import {
  AskAnAdmin,
  NotSubscribableNotice,
  PLAN_NAMES,
  StripeStandInNotice,
  SubscribeButton,
  useChangesBilling,
  useSubscribable,
} from './billing-parts';

/** /{app}/pricing: the three plans side by side, the current one marked, an action for each. */
export default function PricingPage({ app }: { app: AppDefinition }) {
  const bootstrap = useAtomValue(bootstrapAtom);
  const startFreeTrial = useStartFreeTrial();
  const subscribable = useSubscribable(app.id);
  const changesBilling = useChangesBilling();
  const plans = plansOf(app.id);
  if (!plans) return null;
  const billing = bootstrap?.billing[app.id];
  const status = billing?.status ?? 'inactive';
  const current = planOfStatus(status);
  const trialUsed = status !== 'inactive' || !!billing?.trialEndsAt;
  const canSubscribe = status === 'free-trial' || status === 'cancelled' || status === 'inactive';

  const tiers: { id: PlanId; price: string; includes: string[]; action: ReactNode }[] = [
    {
      id: 'free-trial',
      price: 'Free',
      includes: [`${TRIAL_DAYS} days`, `${formatNumber(plans.trialCredits)} credits`, 'Every feature of the app'],
      action: trialUsed ? null : !changesBilling ? (
        <AskAnAdmin what="start it" />
      ) : (
        <Button variant="primary" onClick={() => startFreeTrial(app.id)} successLabel="Trial started">
          Start Free Trial
        </Button>
      ),
    },
    {
      id: 'subscription',
      price: `${formatMoney(plans.monthlyPriceCents)} / month`,
      includes: [
        `${formatNumber(plans.includedCredits)} credits a month included`,
        `${formatMoney(plans.extraCreditCents)} per extra credit`,
        'Invoices and payment method in Stripe',
        'Cancel any time, effective at the period end',
      ],
      action: !changesBilling ? (
        canSubscribe || status === 'subscription' ? (
          <AskAnAdmin what={status === 'subscription' ? 'manage it' : 'subscribe'} />
        ) : null
      ) : canSubscribe ? (
        <SubscribeButton app={app} />
      ) : status === 'subscription' ? (
        <Link href="/settings/billing" className="btn btn-secondary">
          Manage
        </Link>
      ) : null,
    },
    {
      id: 'enterprise',
      price: 'Custom',
      includes: ['Volume pricing by contract', 'Invoiced by the provider, not through Stripe', 'A named account manager'],
      action: (
        <Link href="~/sales" className="btn btn-secondary">
          Contact sales
        </Link>
      ),
    },
  ];

  return (
    <div className="page">
      <h1 className="page-title">{app.title} pricing</h1>
      {status === 'cancelled' && (
        <p className="notice notice-warning">{app.title} is cancelled. Subscribe to use it again; its history stays readable.</p>
      )}
      {canSubscribe && changesBilling && !subscribable && <NotSubscribableNotice />}
      {canSubscribe && changesBilling && <StripeStandInNotice />}
      <ul className="pricing-grid">
        {tiers.map((tier) => (
          <li
            key={tier.id}
            className={tier.id === current ? 'card pricing-plan pricing-current' : 'card pricing-plan'}
            aria-current={tier.id === current ? 'true' : undefined}
            aria-labelledby={`plan-${tier.id}`}
          >
            <h2 id={`plan-${tier.id}`} className="card-title">
              {PLAN_NAMES[tier.id]} {tier.id === current && <span className="badge badge-subscription">Current plan</span>}
            </h2>
            <p className="pricing-price">{tier.price}</p>
            <ul className="pricing-includes">
              {tier.includes.map((line) => (
                <li key={line}>{line}</li>
              ))}
            </ul>
            <div className="pricing-action">{tier.id === current ? null : tier.action}</div>
          </li>
        ))}
      </ul>
    </div>
  );
}
