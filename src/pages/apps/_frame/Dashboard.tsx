import { lazy, Suspense, useMemo, useState, type ReactNode } from 'react';
import { Link } from 'wouter';
import type { AppDefinition } from '../../../../api/contract/apps';
import type { AppActionsAnswer, DashboardAnswer, KpiTile, TaskColumn } from '../../../../api/contract/platform';
import { ACTIVITY_PATH } from '../../../../api/contract/results';
import { useApi, useQuery } from '../../../api/hooks';
import { useLiveChanges } from '../../../api/live';
import { useCoalesced } from '../../../api/coalesce';
import { Card, EmptyState } from '../../../ui/Card';
import { QueryState } from '../../../ui/QueryState';
import { LoadingPanel } from '../../../ui/Spinner';
import { Table, type Column } from '../../../ui/Table';
import { formatNumber } from '../../../ui/format';
import { formatMinor, toMajor } from '../../../../api/contract/money';
import { ActionRunner } from './ActionRunner';
import { describeChange, PERIODS, DEFAULT_PERIOD, type Period } from './period';
import { latestColumns, TaskCell } from './task-cells';

// uPlot arrives with the first chart on screen, never with the console's first load.
const Chart = lazy(() => import('../../../ui/Chart'));

const SECOND_SERIES_COLOR = '#64748B';
/** series past the second (a chart by status) */
const MORE_SERIES_COLORS = ['#16A34A', '#DC2626', '#D97706', '#0891B2', '#DB2777', '#4B5563'];

export function formatTile(tile: Pick<KpiTile, 'format' | 'currency'>, value: number | null): string {
  // a rate of nothing (no request ended in the period)
  if (value === null) return '—';
  if (tile.format === 'money') return formatMinor(value, tile.currency ?? 'usd');
  if (tile.format === 'percent') return `${(Math.round(value * 10) / 10).toLocaleString()}%`;
  return formatNumber(value);
}

/**
 * The change under a tile: percentage points for a rate; for counts, credits and money a
 * percentage only where it means something (describeChange: "new this period", or "+38").
 */
export function tileChange(tile: KpiTile): string {
  if (tile.value === null) return 'none this period';
  if (tile.previous === null) return 'none in the previous period';
  if (tile.format === 'percent') {
    const points = Math.round((tile.value - tile.previous) * 10) / 10;
    return points === 0 ? 'no change' : `${points > 0 ? '+' : '−'}${Math.abs(points)} pts vs previous period`;
  }
  return describeChange(tile.value, tile.previous, (n) => formatTile(tile, n), tile.format === 'money' ? 1 : undefined);
}

function PeriodPicker({ value, onChange }: { value: Period; onChange: (p: Period) => void }) {
  return (
    <div className="segmented" role="group" aria-label="Period">
      {PERIODS.map((p) => (
        <button
          key={p}
          type="button"
          className={p === value ? 'segmented-item segmented-active' : 'segmented-item'}
          aria-pressed={p === value}
          onClick={() => onChange(p)}
        >
          {p} days
        </button>
      ))}
    </div>
  );
}

function Tiles({ tiles }: { tiles: KpiTile[] }) {
  return (
    <ul className="kpi-grid" aria-label="Key figures">
      {tiles.map((tile) => {
        const trend =
          tile.value === null || tile.previous === null || tile.value === tile.previous
            ? 'flat'
            : tile.value > tile.previous
              ? 'up'
              : 'down';
        return (
          <li key={tile.key} className="kpi-tile" data-testid={`kpi-${tile.key}`}>
            <p className="kpi-label">{tile.label}</p>
            <p className="kpi-value">{formatTile(tile, tile.value)}</p>
            {tile.caption ? (
              <p className="kpi-change kpi-flat">{tile.caption}</p>
            ) : (
              <p className={`kpi-change kpi-${trend}`}>{tileChange(tile)}</p>
            )}
          </li>
        );
      })}
    </ul>
  );
}

export type FirstTaskHelp = {
  /** what the agent does, e.g. 'Send passcode' */
  actionLabel: string;
  /** the API call with curl, given the console's origin */
  curl: (origin: string) => string;
};

type DashboardProps = {
  app: AppDefinition;
  columns: TaskColumn[];
  firstTask: FirstTaskHelp;
  /** the task's noun in lists, e.g. 'authentications' */
  taskNoun: string;
  /** the app's own figures under the tiles (eForm's funnel) */
  extra?: (data: DashboardAnswer) => ReactNode;
};

/** An app's root: period, key figures, the daily chart, the latest tasks and "Send to a customer". */
export function Dashboard({ app, columns, firstTask, taskNoun, extra }: DashboardProps) {
  const api = useApi();
  const [days, setDays] = useState<Period>(DEFAULT_PERIOD);
  const dashboard = useQuery(`${app.id}:dashboard:${days}`, (a, signal) =>
    a.get<DashboardAnswer>(`/${app.id}/dashboard`, { signal, query: { days } }),
  );
  const actions = useQuery(`${app.id}:actions`, (a, signal) => a.get<AppActionsAnswer>(`/${app.id}/actions`, { signal }));
  const activity = `/${ACTIVITY_PATH[app.id]}`;
  // counters, chart and latest tasks follow the app's changes (a burst re-reads once)
  const refresh = useCoalesced(dashboard.reload, 400);
  useLiveChanges((c) => c.app === app.id && (c.kind === 'task' || c.kind === 'tasks' || c.kind === 'credits'), refresh, 60_000);

  const series = useMemo(
    () =>
      (dashboard.data?.series ?? []).map((s, i) => ({
        label: s.label,
        color: i === 0 ? app.color : i === 1 ? SECOND_SERIES_COLOR : MORE_SERIES_COLORS[(i - 2) % MORE_SERIES_COLORS.length]!,
        // money series come in minor units: the chart's axis reads major ones
        points: s.points.map((p) => ({ date: p.date, count: s.currency ? toMajor(p.value, s.currency) : p.value })),
      })),
    [dashboard.data, app.color],
  );
  // people first, no ids: the first column (customer, phone, amount…) opens the task
  const tableColumns: Column<DashboardAnswer['latest'][number]>[] = latestColumns(columns).map((c, i) => ({
    key: c.key,
    header: c.label,
    render: (row) =>
      i === 0 ? (
        <Link href={`${activity}?session=${encodeURIComponent(row.id)}`}>
          <TaskCell column={c} row={row} />
        </Link>
      ) : (
        <TaskCell column={c} row={row} />
      ),
  }));
  const empty =
    dashboard.data &&
    dashboard.data.latest.length === 0 &&
    dashboard.data.tiles.every((t) => t.caption || (!t.value && !t.previous));

  // The main action first at every width: in a 400 px side panel the agent is there to send, so
  // the form comes before the figures; on a wide screen it stands beside them.
  const send = (
    <Card
      title="Send to a customer"
      className="dashboard-send"
      actions={<Link href="~/journeys">Several apps in one link: Journeys</Link>}
    >
      <QueryState query={actions}>
        {() =>
          actions.data && (
            <ActionRunner
              api={api}
              app={app.id}
              actions={actions.data.actions}
              unavailable={actions.data.unavailable}
              onChange={() => dashboard.reload()}
            />
          )
        }
      </QueryState>
    </Card>
  );

  return (
    <div className="page">
      <div className="page-header">
        <h1 className="page-title">{app.title}</h1>
        <PeriodPicker value={days} onChange={setDays} />
      </div>
      <div className="dashboard-layout">
        {send}
        <div className="dashboard-figures">
          <QueryState query={dashboard}>
            {() =>
              dashboard.data && (
                <>
                  <Tiles tiles={dashboard.data.tiles} />
                  {extra?.(dashboard.data)}
                  {empty ? (
                    // the action's own label: made into a sentence it read "Send your first request a payment"
                    <Card title={`Get started: ${firstTask.actionLabel}`}>
                      <EmptyState title={`No ${taskNoun} in the last ${days} days`}>
                        Agents use <strong>{firstTask.actionLabel}</strong> in the agent application (or "Send to a customer" on
                        this page); your systems call the API with your secret key from Settings &gt; Developers:
                      </EmptyState>
                      <pre className="code-sample" tabIndex={0} role="region" aria-label="API call with curl">
                        <code>{firstTask.curl(window.location.origin)}</code>
                      </pre>
                    </Card>
                  ) : (
                    <Card>
                      <Suspense fallback={<LoadingPanel label="Loading chart" />}>
                        <Chart title={series.map((s) => s.label).join(' vs ') + ' per day'} series={series} />
                      </Suspense>
                    </Card>
                  )}
                  <Card title={`Latest ${taskNoun}`} actions={<Link href={activity}>View all</Link>}>
                    <Table
                      caption={`Latest ${taskNoun}`}
                      columns={tableColumns}
                      rows={dashboard.data.latest}
                      rowKey={(r) => r.id}
                      empty={`No ${taskNoun} yet`}
                    />
                  </Card>
                </>
              )
            }
          </QueryState>
        </div>
      </div>
    </div>
  );
}
