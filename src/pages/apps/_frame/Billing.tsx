import { lazy, Suspense, useState } from 'react';
import { useSetAtom } from 'jotai';
import { Link } from 'wouter';
import type { AppDefinition } from '../../../../api/contract/apps';
import type { AppBillingDetail, BillingApp } from '../../../../api/contract/billing';
import { formatMoney, PLAN_NAMES } from '../../../../api/contract/plans';
import { errorMessage } from '../../../api/client';
import { useApi, useQuery } from '../../../api/hooks';
import { setAppBillingAtom } from '../../../state/session';
import { Button } from '../../../ui/Button';
import { Card } from '../../../ui/Card';
import { ConfirmDialog } from '../../../ui/ConfirmDialog';
import { QueryState } from '../../../ui/QueryState';
import { LoadingPanel } from '../../../ui/Spinner';
import { toast } from '../../../ui/Toast';
import {
  BillingAction,
  BillingDates,
  formatDay,
  NotSubscribableNotice,
  StatusBadge,
  StripeStandInNotice,
  SubscribeButton,
  subscriptionSummary,
  UsageBar,
} from './billing-parts';

const Chart = lazy(() => import('../../../ui/Chart'));

/** The previous period drawn over this one: day n of each on the same x position. */
function overlay(detail: AppBillingDetail) {
  const current = detail.daily.current.map((d) => ({ date: d.date, count: d.count }));
  const start = Date.parse(`${current[0]?.date ?? new Date().toISOString().slice(0, 10)}T00:00:00Z`);
  const previous = detail.daily.previous.map((d, i) => ({
    date: new Date(start + i * 86_400_000).toISOString().slice(0, 10),
    count: d.count,
  }));
  return [
    { label: 'This period', color: '#2563EB', points: current },
    { label: 'Last period', color: '#9CA3AF', points: previous },
  ];
}

function PlanCard({ app, detail, onChanged }: { app: AppDefinition; detail: AppBillingDetail; onChanged: () => void }) {
  const api = useApi();
  const setAppBilling = useSetAtom(setAppBillingAtom);
  const [confirming, setConfirming] = useState(false);
  const plan = detail.plan ? PLAN_NAMES[detail.plan] : 'No plan';
  const change = async (action: 'cancel' | 'resume') => {
    try {
      const billing = await api.post<BillingApp>(`${app.id}/billing/${action}`, {});
      setAppBilling({
        app: app.id,
        billing: {
          status: billing.status,
          trialEndsAt: billing.trialEndsAt,
          usage: billing.usage,
          paymentFailed: billing.paymentFailed,
        },
      });
      toast.success(
        action === 'cancel'
          ? `${app.title} will end on ${billing.periodEnd ? formatDay(billing.periodEnd) : 'the end of the period'}`
          : `${app.title} subscription kept`,
      );
      onChanged();
    } catch (error) {
      toast.error(
        action === 'cancel' ? 'Could not cancel the subscription' : 'Could not keep the subscription',
        errorMessage(error, 'Please try again later'),
        error,
      );
      throw error;
    }
  };
  return (
    <Card title={`${plan}`} actions={<StatusBadge status={detail.status} />}>
      <BillingDates billing={detail} />
      {detail.status !== 'inactive' && <UsageBar usage={detail.usage} label={`${app.title} credits this period`} />}
      {detail.nextInvoice && !detail.cancelAtPeriodEnd && (
        <p>
          Next invoice on {formatDay(detail.nextInvoice.date)}: about{' '}
          <strong>{formatMoney(detail.nextInvoice.amountCents)}</strong> for the credits used so far.
        </p>
      )}
      {detail.status === 'subscription' && <p className="muted">{subscriptionSummary(app.id, detail.usage.freeTier)}.</p>}
      <div className="card-footer-actions">
        {detail.status === 'subscription' && !detail.cancelAtPeriodEnd && (
          <Button variant="danger" onClick={() => setConfirming(true)}>
            Cancel subscription
          </Button>
        )}
        {detail.status === 'subscription' && detail.cancelAtPeriodEnd && (
          <Button variant="primary" onClick={() => change('resume')} successLabel="Kept">
            Keep subscription
          </Button>
        )}
        {(detail.status === 'free-trial' ||
          detail.status === 'cancelled' ||
          (detail.status === 'inactive' && detail.trialEndsAt)) && <SubscribeButton app={app} />}
        {(detail.status === 'enterprise' || (detail.status === 'inactive' && !detail.trialEndsAt)) && (
          <BillingAction app={app} billing={detail} />
        )}
        <Link href="/pricing" className="btn btn-ghost">
          See pricing
        </Link>
      </div>
      <ConfirmDialog
        open={confirming}
        title={`Cancel ${app.title}?`}
        description={`The subscription ends on ${detail.periodEnd ? formatDay(detail.periodEnd) : 'the last day of this period'}. Until then ${app.title} keeps working; after that its tasks stop and its history stays readable. Credits above the included amount are still invoiced.`}
        confirmLabel="Cancel at period end"
        onConfirm={() => change('cancel').then(() => setConfirming(false))}
        onCancel={() => setConfirming(false)}
      />
    </Card>
  );
}

/** /{app}/settings/billing: the app's plan, its daily credits, the next invoice, Subscribe / Cancel. */
export default function AppBillingPage({ app }: { app: AppDefinition }) {
  const query = useQuery(`billing:${app.id}`, (api, signal) => api.get<AppBillingDetail>(`${app.id}/billing`, { signal }));
  return (
    <div className="page page-narrow">
      <h1 className="page-title">{app.title} billing</h1>
      <QueryState query={query}>
        {() => {
          const detail = query.data!;
          return (
            <>
              {detail.paymentFailed && (
                <p className="notice notice-error" role="alert">
                  The last payment failed. {app.title} keeps working while Stripe retries; update the payment method under{' '}
                  <Link href="~/settings/billing">Settings &gt; Billing</Link>.
                </p>
              )}
              {!detail.subscribable && detail.status !== 'enterprise' && detail.status !== 'subscription' && (
                <NotSubscribableNotice />
              )}
              <StripeStandInNotice />
              <PlanCard app={app} detail={detail} onChanged={query.reload} />
              <Card title="Daily credits">
                <Suspense fallback={<LoadingPanel />}>
                  <Chart
                    title={`${app.title} credits per day, this period and the last`}
                    series={overlay(detail)}
                    height={200}
                    format={(v) => String(Math.round(v))}
                  />
                </Suspense>
              </Card>
            </>
          );
        }}
      </QueryState>
    </div>
  );
}
