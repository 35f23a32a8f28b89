import { formatMoney, planOfStatus, plansOf, TRIAL_DAYS } from '../../../../api/contract/plans';
import { useSetAtom } from 'jotai';
import { useState } from 'react';
import { Link, useLocation } from 'wouter';
import { getApp } from '../../../../api/contract/apps';
import type { TokenAnswer } from '../../../../api/contract/session';
import { BILLING_STATUS_LABEL, PLATFORM_LABEL } from '../../../../api/contract/wording';
import type { AccountDetail, Statistics } from '../../../../api/contract/watch-tower';
import { errorMessage } from '../../../api/client';
import { useApi, useQuery } from '../../../api/hooks';
import { tokenAtom } from '../../../state/session';
import { Button } from '../../../ui/Button';
import { Card } from '../../../ui/Card';
import { ConfirmDialog } from '../../../ui/ConfirmDialog';
import { ApiRateLimitCard } from './ApiRateLimitCard';
import { LoadingPanel } from '../../../ui/Spinner';
import { Table, type Column } from '../../../ui/Table';
import { toast } from '../../../ui/Toast';
import { formatDate, formatNumber, formatUsage, shortenId } from '../../../ui/format';
import { TASKS_TITLE, TaskCharts } from '../charts';

type AppRow = AccountDetail['apps'][number];
type AdminRow = AccountDetail['admins'][number];

const adminColumns: Column<AdminRow>[] = [
  {
    key: 'name',
    header: 'Name',
    render: (a) => (
      <span className="person">
        {a.photo ? (
          <img className="avatar" src={a.photo} alt="" />
        ) : (
          <span className="avatar" aria-hidden="true">
            {(a.firstName[0] ?? a.email[0] ?? '?').toUpperCase()}
          </span>
        )}
        {[a.firstName, a.lastName].filter(Boolean).join(' ') || '—'}
      </span>
    ),
  },
  { key: 'email', header: 'E-mail', render: (a) => a.email },
  {
    key: 'role',
    header: 'Role',
    render: (a) => (a.role === 'owner' ? 'Account Owner' : a.role[0]!.toUpperCase() + a.role.slice(1)),
  },
  { key: 'tz', header: 'Time zone', render: (a) => a.timeZone ?? <span className="muted">Not set</span> },
];

export default function WatchTowerAccount({ id }: { id: string }) {
  const api = useApi();
  const setToken = useSetAtom(tokenAtom);
  const [, navigate] = useLocation();
  const account = useQuery(`watch-tower:account:${id}`, (a, signal) =>
    a.get<AccountDetail>(`watch-tower/accounts/${encodeURIComponent(id)}`, { signal }),
  );
  const stats = useQuery(`watch-tower:account-stats:${id}`, (a, signal) =>
    a.get<Statistics>('watch-tower/statistics/account', { query: { accountId: id }, signal }),
  );
  const [converting, setConverting] = useState<AppRow | null>(null);
  const [ghosting, setGhosting] = useState(false);
  const [statuses, setStatuses] = useState<Record<string, AppRow['status']>>({});

  const startGhost = async () => {
    try {
      const { token } = await api.post<TokenAnswer>('watch-tower/ghost-mode', { accountId: id });
      setToken(token);
      navigate('~/');
    } catch (error) {
      toast.error('Could not start ghost mode', errorMessage(error), error);
      throw error;
    }
  };

  const convert = async (app: AppRow) => {
    try {
      const { status } = await api.put<{ status: AppRow['status'] }>(
        `watch-tower/accounts/${encodeURIComponent(id)}/apps/${app.id}/status`,
        { status: 'enterprise' },
      );
      setStatuses((s) => ({ ...s, [app.id]: status }));
      toast.success(`${getApp(app.id)?.title ?? app.id} is now on Enterprise`);
    } catch (error) {
      toast.error('Could not convert to Enterprise', errorMessage(error), error);
      throw error;
    }
  };

  if (account.loading && !account.data) return <LoadingPanel label="Loading account" />;
  if (account.error !== undefined || !account.data) {
    return (
      <div className="page">
        <h1 className="page-title">Account {shortenId(id)}</h1>
        <Card>
          <p role="alert">{errorMessage(account.error, 'This account could not be loaded.')}</p>
          <Link href="/accounts">Back to accounts</Link>
        </Card>
      </div>
    );
  }
  const detail = account.data;
  const appColumns: Column<AppRow>[] = [
    { key: 'app', header: 'App', render: (a) => getApp(a.id)?.title ?? a.id },
    {
      key: 'status',
      header: 'Status',
      render: (a) => {
        const status = statuses[a.id] ?? a.status;
        return <span className={`badge badge-${status}`}>{BILLING_STATUS_LABEL[status]}</span>;
      },
    },
    {
      key: 'plan',
      header: 'Plan terms',
      render: (a) => {
        // the status names the plan; staff also need its terms: the price from the one plans
        // module, the credits the account's period includes (the figure every usage shows)
        const plan = planOfStatus(statuses[a.id] ?? a.status);
        const terms = plansOf(a.id);
        if (!plan || !terms) return '—';
        if (plan === 'enterprise') return 'By contract';
        if (plan === 'free-trial') return `${TRIAL_DAYS} days, ${formatNumber(a.freeTier)} credits`;
        return `${formatMoney(terms.monthlyPriceCents)}/month, ${formatNumber(a.freeTier)} credits`;
      },
    },
    {
      key: 'usage',
      header: 'Credits used',
      render: (a) => (a.freeTier > 0 ? formatUsage(a.credits, a.freeTier) : a.credits ? formatNumber(a.credits) : '—'),
    },
    {
      key: 'trial',
      header: 'Trial ends',
      render: (a) => (a.trialEndsAt && (statuses[a.id] ?? a.status) === 'free-trial' ? formatDate(a.trialEndsAt) : '—'),
    },
    {
      key: 'action',
      header: <span className="sr-only">Actions</span>,
      className: 'cell-actions',
      render: (a) =>
        (statuses[a.id] ?? a.status) === 'enterprise' ? null : (
          <Button size="sm" onClick={() => setConverting(a)}>
            Convert {getApp(a.id)?.title ?? a.id} to Enterprise
          </Button>
        ),
    },
  ];

  return (
    <div className="page">
      <div className="page-heading">
        <div>
          <h1 className="page-title">{detail.name}</h1>
          <p className="muted">
            <span title={detail.id}>{shortenId(detail.id)}</span> · {PLATFORM_LABEL[detail.provider]} · created{' '}
            {formatDate(detail.createdAt)}
          </p>
          {detail.smsHeldRanges > 0 ? (
            <p className="notice notice-error" role="status">
              Suspected SMS pumping: the fraud guard holds {detail.smsHeldRanges} number{' '}
              {detail.smsHeldRanges === 1 ? 'range' : 'ranges'} of this account.
            </p>
          ) : null}
        </div>
        <Button variant="primary" onClick={() => setGhosting(true)}>
          Ghost Mode
        </Button>
      </div>
      <Card title={TASKS_TITLE}>
        {stats.loading && !stats.data && <LoadingPanel label="Loading statistics" />}
        {stats.error !== undefined && <p role="alert">Statistics could not be loaded: {errorMessage(stats.error)}</p>}
        {stats.data && <TaskCharts stats={stats.data} brand="#2563EB" titled />}
      </Card>
      <Card title="Apps">
        <Table caption={`Apps of ${detail.name}`} columns={appColumns} rows={detail.apps} rowKey={(a) => a.id} />
      </Card>
      {detail.apiRateLimit ? <ApiRateLimitCard accountId={detail.id} initial={detail.apiRateLimit} /> : null}
      <Card title="Admins">
        <Table
          caption={`Admins of ${detail.name}`}
          columns={adminColumns}
          rows={detail.admins}
          rowKey={(a) => a.id}
          empty="This account has no active admins"
        />
      </Card>
      <ConfirmDialog
        open={ghosting}
        title={`View ${detail.name} as its admin?`}
        description={
          <>
            Ghost mode signs you in as the account's owner for up to an hour. Everything you do there is recorded in the account's
            audit log as done by the provider, and the account's admins can read it. Its secret keys stay hidden and cannot be
            rotated.
          </>
        }
        confirmLabel="Enter ghost mode"
        destructive={false}
        onConfirm={startGhost}
        onCancel={() => setGhosting(false)}
      />
      <ConfirmDialog
        open={converting !== null}
        title={`Convert ${converting ? (getApp(converting.id)?.title ?? converting.id) : 'the app'} to Enterprise?`}
        description={
          converting
            ? `${getApp(converting.id)?.title ?? converting.id} on ${detail.name} moves from ${BILLING_STATUS_LABEL[statuses[converting.id] ?? converting.status].toLowerCase()} to Enterprise. The account's audit log records this as a change by the provider.`
            : ''
        }
        confirmLabel="Convert to Enterprise"
        destructive={false}
        onConfirm={() => (converting ? convert(converting) : undefined)}
        onCancel={() => setConverting(null)}
      />
    </div>
  );
}
