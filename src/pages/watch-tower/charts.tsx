import { lazy, Suspense, useMemo, useState } from 'react';
import { APPS, type AppId } from '../../../api/contract/apps';
import { MOVING_AVERAGE_DAYS, type Statistics } from '../../../api/contract/watch-tower';
import { Button } from '../../ui/Button';
import { LoadingPanel } from '../../ui/Spinner';

// uPlot arrives only with the first chart on screen.
export const Chart = lazy(() => import('../../ui/Chart'));

export const TASKS_TITLE = `Tasks completed per day (${MOVING_AVERAGE_DAYS}-day moving average)`;

/** The all-apps tasks chart, and per-app charts behind a button (apps with no tasks are left out). */
export function TaskCharts({
  stats,
  brand,
  titled = false,
}: {
  stats: Statistics;
  brand: string /** a heading above names the main chart already */;
  titled?: boolean;
}) {
  const [perApp, setPerApp] = useState(false);
  const main = useMemo(() => [{ label: 'Tasks', color: brand, points: stats.tasks.average }], [stats, brand]);
  const apps = useMemo(
    () =>
      APPS.filter((a) => stats.apps[a.id as AppId]?.daily.some((p) => p.count > 0)).map((a) => ({
        app: a,
        series: [{ label: a.title, color: a.color, points: stats.apps[a.id as AppId]!.average }],
      })),
    [stats],
  );
  return (
    <>
      <Suspense fallback={<LoadingPanel label="Loading chart" />}>
        <Chart title={TASKS_TITLE} series={main} hideTitle={titled} />
      </Suspense>
      <div className="chart-toolbar">
        <Button onClick={() => setPerApp((v) => !v)} aria-expanded={perApp} disabled={apps.length === 0}>
          {perApp ? 'Hide per-app charts' : 'Show per-app charts'}
        </Button>
        {apps.length === 0 && <span className="muted">No tasks were completed in this period.</span>}
      </div>
      {perApp && (
        <div className="chart-grid">
          {apps.map(({ app, series }) => (
            <Suspense key={app.id} fallback={<LoadingPanel label="Loading chart" />}>
              <Chart title={`${app.title}: tasks per day (${MOVING_AVERAGE_DAYS}-day average)`} series={series} height={180} />
            </Suspense>
          ))}
        </div>
      )}
    </>
  );
}
