import { Suspense, useMemo } from 'react';
import { MOVING_AVERAGE_DAYS, type AccountList, type Summary } from '../../../../api/contract/watch-tower';
import { useQuery } from '../../../api/hooks';
import { errorMessage } from '../../../api/client';
import { Button } from '../../../ui/Button';
import { Card } from '../../../ui/Card';
import { LoadingPanel } from '../../../ui/Spinner';
import { formatCalendarDay, formatNumber } from '../../../ui/format';
import { Chart, TaskCharts } from '../charts';

const BRAND = '#2563EB';
const PAID = '#059669';

/** The figures at the top of the dashboard: what a glance should tell. */
function Kpis({ summary }: { summary: Summary }) {
  const accounts = useQuery('watch-tower:accounts:', (api, signal) => api.get<AccountList>('watch-tower/accounts', { signal }));
  const recent = summary.tasks.daily.slice(-MOVING_AVERAGE_DAYS).reduce((s, p) => s + p.count, 0);
  const figures: [string, string][] = [
    ['Accounts', accounts.data ? formatNumber(accounts.data.matching) : '–'],
    ['Active accounts', accounts.data ? formatNumber(accounts.data.activeAccounts) : '–'],
    ['Paid accounts', formatNumber(summary.paidAccounts.at(-1)?.count ?? 0)],
    [`Tasks, last ${MOVING_AVERAGE_DAYS} days`, formatNumber(recent)],
  ];
  return (
    <dl className="kpis">
      {figures.map(([label, value]) => (
        <div key={label} className="kpi">
          <dt className="kpi-label">{label}</dt>
          <dd className="kpi-value">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

export default function WatchTowerDashboard() {
  const { data, error, loading, reload } = useQuery('watch-tower:summary', (api, signal) =>
    api.get<Summary>('watch-tower/statistics/summary', { signal }),
  );
  const paid = useMemo(() => (data ? [{ label: 'Paid accounts', color: PAID, points: data.paidAccounts }] : []), [data]);
  const total = data?.tasks.daily.reduce((s, p) => s + p.count, 0) ?? 0;
  return (
    <div className="page">
      <h1 className="page-title">Dashboard</h1>
      {loading && !data && <LoadingPanel label="Loading statistics" />}
      {error !== undefined && (
        <Card>
          <p role="alert">Statistics could not be loaded: {errorMessage(error)}</p>
          <Button onClick={reload}>Try again</Button>
        </Card>
      )}
      {data && (
        <>
          <Kpis summary={data} />
          <p className="page-lead muted">
            {formatNumber(total)} tasks completed from {formatCalendarDay(data.from)} to {formatCalendarDay(data.to)} (UTC days),{' '}
            {formatNumber(data.paidAccounts.at(-1)?.count ?? 0)} paid accounts today.
          </p>
          <Card>
            <TaskCharts stats={data} brand={BRAND} />
          </Card>
          <Card>
            <Suspense fallback={<LoadingPanel label="Loading chart" />}>
              <Chart title="Paid accounts (cumulative)" series={paid} format={(v) => String(Math.round(v))} />
            </Suspense>
          </Card>
        </>
      )}
    </div>
  );
}
