import { useState, type FormEvent } from 'react';
import { useAtomValue } from 'jotai';
import { getApp } from '../../../../api/contract/apps';
import { BillingEmailBodySchema, type BillingOverview, type InvoicesAnswer } from '../../../../api/contract/billing';
import { formatMoney, PLAN_NAMES } from '../../../../api/contract/plans';
import { errorMessage } from '../../../api/client';
import { useApi, useQuery } from '../../../api/hooks';
import { bootstrapAtom } from '../../../state/session';
import { Button } from '../../../ui/Button';
import { Card, EmptyState } from '../../../ui/Card';
import { TextField } from '../../../ui/Field';
import { QueryState } from '../../../ui/QueryState';
import { Table } from '../../../ui/Table';
import { toast } from '../../../ui/Toast';
import { check, useFormErrors } from '../../../ui/form';

/** Stripe's invoice statuses (draft, open, paid, uncollectible, void) as a sentence starts: "Paid". */
const sentenceCase = (status: string) => status.charAt(0).toUpperCase() + status.slice(1).replace(/_/g, ' ');
import {
  BillingAction,
  BillingDates,
  formatDay,
  NotSubscribableNotice,
  StatusBadge,
  StripeStandInNotice,
  UsageBar,
} from '../../apps/_frame/billing-parts';

function AppCards({ overview }: { overview: BillingOverview }) {
  return (
    <ul className="billing-cards">
      {overview.apps.map((billing) => {
        const app = getApp(billing.app)!;
        return (
          <li key={billing.app}>
            <Card title={app.title} actions={<StatusBadge status={billing.status} />} aria-label={`${app.title} billing`}>
              <p className="muted">{billing.plan ? PLAN_NAMES[billing.plan] : 'No plan'}</p>
              {billing.paymentFailed && (
                <p className="notice notice-error" role="alert">
                  The last payment failed: update the payment method. {app.title} keeps working while Stripe retries.
                </p>
              )}
              <BillingDates billing={billing} />
              {billing.status !== 'inactive' && billing.status !== 'cancelled' && (
                <UsageBar usage={billing.usage} label={`${app.title} credits this period`} />
              )}
              <div className="card-footer-actions">
                <BillingAction app={app} billing={billing} />
              </div>
            </Card>
          </li>
        );
      })}
    </ul>
  );
}

/** `subscribed`: an app of the account is on a subscription, so "once an app is subscribed" is past. */
function Invoices({ subscribed }: { subscribed: boolean }) {
  const query = useQuery('billing:invoices', (api, signal) => api.get<InvoicesAnswer>('billing/invoices', { signal }));
  return (
    <Card title="Invoices">
      <QueryState query={query}>
        {() =>
          query.data!.invoices.length ? (
            <Table
              caption="Invoices"
              rowKey={(i) => i.id}
              rows={query.data!.invoices}
              columns={[
                { key: 'date', header: 'Date', render: (i) => formatDay(i.date) },
                {
                  key: 'amount',
                  header: 'Amount',
                  render: (i) => `${formatMoney(i.amountCents)}${i.currency === 'usd' ? '' : ` ${i.currency.toUpperCase()}`}`,
                },
                {
                  key: 'status',
                  header: 'Status',
                  render: (i) => (
                    <span
                      className={`badge badge-${i.status === 'paid' ? 'success' : i.status === 'open' ? 'warning' : 'neutral'}`}
                    >
                      {sentenceCase(i.status)}
                    </span>
                  ),
                },
                {
                  key: 'pdf',
                  header: 'PDF',
                  render: (i) =>
                    i.pdfUrl ? (
                      <a href={i.pdfUrl} target="_blank" rel="noreferrer" aria-label={`Invoice of ${formatDay(i.date)} (PDF)`}>
                        Download
                      </a>
                    ) : (
                      '—'
                    ),
                },
              ]}
            />
          ) : (
            <EmptyState title="No invoices yet">
              {subscribed ? 'Invoices appear here once Stripe issues one.' : 'Invoices appear here once an app is subscribed.'}
            </EmptyState>
          )
        }
      </QueryState>
    </Card>
  );
}

function BillingEmail({ current, onSaved }: { current: string | null; onSaved: () => void }) {
  const api = useApi();
  const bootstrap = useAtomValue(bootstrapAtom);
  const [email, setEmail] = useState(current ?? '');
  const formErrors = useFormErrors();
  const save = async (event?: FormEvent) => {
    event?.preventDefault();
    const checked = check(BillingEmailBodySchema, { email });
    if (!checked.ok) throw formErrors.invalid(checked.fields);
    formErrors.clear();
    try {
      await api.put('billing/email', checked.value);
      toast.success('The billing e-mail has been saved');
      onSaved();
    } catch (err) {
      throw formErrors.fromAnswer(err) ?? formErrors.invalid({ email: errorMessage(err) });
    }
  };
  return (
    <Card title="Billing e-mail">
      <form onSubmit={(e) => void save(e).catch(() => {})} noValidate ref={formErrors.ref}>
        <TextField
          label="Invoices and receipts go to"
          type="email"
          value={email}
          placeholder={bootstrap?.email}
          onChange={(e) => (setEmail(e.target.value), formErrors.clear('email'))}
          error={formErrors.errors.email}
          autoComplete="email"
        />
        <Button variant="primary" onClick={() => save()} successLabel="Saved">
          Save
        </Button>
      </form>
    </Card>
  );
}

/** Settings > Billing: every app's plan and usage, invoices, the billing e-mail and the payment method. */
export default function BillingSettings() {
  const api = useApi();
  const query = useQuery('billing:overview', (a, signal) => a.get<BillingOverview>('billing', { signal }));
  const openPortal = async () => {
    try {
      const { url } = await api.create<{ url: string }>('billing/portal', {});
      window.location.assign(url);
    } catch (error) {
      toast.error('Could not open the payment settings', errorMessage(error, 'Please try again later'), error);
      throw error;
    }
  };
  return (
    <div className="page">
      <h1 className="page-title">Billing</h1>
      <QueryState query={query}>
        {() => {
          const overview = query.data!;
          // a subscription can exist without a Stripe customer (the demo accounts' do): the words
          // for a first subscription would then contradict the Subscribed badge above them
          const subscribed = overview.apps.some((a) => a.status === 'subscription');
          return (
            <>
              {overview.apps.some((a) => !a.subscribable) && <NotSubscribableNotice />}
              <StripeStandInNotice />
              <AppCards overview={overview} />
              <Card
                title="Payment method"
                actions={
                  <Button onClick={openPortal} disabled={!overview.configured || !overview.hasCustomer}>
                    Manage payment method
                  </Button>
                }
              >
                <p className="muted">
                  {overview.hasCustomer
                    ? 'Cards and invoices are managed in Stripe’s secure portal.'
                    : subscribed
                      ? 'No payment method is on file in Stripe for this account.'
                      : 'A payment method is added when you first subscribe.'}
                </p>
              </Card>
              <Invoices subscribed={subscribed} />
              <BillingEmail current={overview.billingEmail} onSaved={query.reload} />
            </>
          );
        }}
      </QueryState>
    </div>
  );
}
