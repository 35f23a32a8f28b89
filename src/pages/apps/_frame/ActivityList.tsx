import { useEffect, useState, type ComponentType, type FormEvent, type ReactNode } from 'react';
import { useLocation, useSearch } from 'wouter';
import type { AppDefinition } from '../../../../api/contract/apps';
import { TASK_COUNT_CAP, TASK_COUNT_HEADER, TASK_LAST_KEY_HEADER, TASK_PAGE_SIZE, type TaskColumn, type TaskDetail, type TaskRow } from '../../../../api/contract/platform';
import { errorMessage } from '../../../api/client';
import { useApi, useQuery } from '../../../api/hooks';
import { Button } from '../../../ui/Button';
import { Card } from '../../../ui/Card';
import { Dialog } from '../../../ui/Dialog';
import { Field, TextField } from '../../../ui/Field';
import { QueryState } from '../../../ui/QueryState';
import { KeysetPager } from '../../../ui/Pager';
import { Table, type Column } from '../../../ui/Table';
import { toast } from '../../../ui/Toast';
import { formatDateTime, shortenId } from '../../../ui/format';
import { saveFile } from '../../../ui/download';
import { filtersFromSearch, filtersToQuery, filtersToSearch, hasFilters, NO_FILTERS, rangeError, type ActivityFilters } from './filters';
import { statusLabel, TaskCell } from './task-cells';

function Filters({ initial, statuses, onApply }: { initial: ActivityFilters; statuses: readonly string[]; onApply: (f: ActivityFilters) => void }) {
  const [form, setForm] = useState(initial);
  const set = (key: keyof ActivityFilters) => (e: { target: { value: string } }) => setForm((f) => ({ ...f, [key]: e.target.value }));
  const range = rangeError(form);
  const apply = (e: FormEvent) => {
    e.preventDefault();
    if (!range) onApply(form);
  };
  return (
    <form className="filters" onSubmit={apply} aria-label="Filters" noValidate>
      <Field label="Status">
        {(control) => (
          <select className="input" {...control} value={form.status} onChange={set('status')}>
            <option value="">Any status</option>
            {statuses.map((s) => (
              <option key={s} value={s}>
                {statusLabel(s)}
              </option>
            ))}
          </select>
        )}
      </Field>
      <TextField label="From" type="date" value={form.from} onChange={set('from')} />
      <TextField label="To" type="date" value={form.to} onChange={set('to')} error={range} />
      <TextField label="Agent" value={form.agent} onChange={set('agent')} placeholder="E-mail or id" />
      <TextField label="Customer or phone" value={form.customer} onChange={set('customer')} placeholder="CUST-1 or +1555…" />
      <div className="filters-actions">
        <Button type="submit" variant="primary">
          Apply
        </Button>
        <Button
          onClick={() => {
            setForm(NO_FILTERS);
            onApply(NO_FILTERS);
          }}
        >
          Clear
        </Button>
      </div>
    </form>
  );
}

function TaskPanel({ app, taskId, columns, noun, onClose, actions, extra }: { app: AppDefinition; taskId: string; columns: TaskColumn[]; noun: string; onClose: () => void; actions?: TaskActions; extra?: TaskExtra }) {
  const task = useQuery(`${app.id}:task:${taskId}`, (a, signal) => a.get<TaskDetail>(`/${app.id}/tasks/${encodeURIComponent(taskId)}`, { signal }));
  return (
    <Dialog open onClose={onClose} title={`${noun} ${shortenId(taskId)}`} size="lg">
      <QueryState query={task}>
        {() =>
          task.data && (
            <>
              <dl className="task-facts">
                {columns.map((c) => (
                  <div key={c.key}>
                    <dt>{c.label}</dt>
                    <dd>{c.kind === 'id' ? <code>{task.data!.id}</code> : <TaskCell column={c} row={task.data!} />}</dd>
                  </div>
                ))}
              </dl>
              {actions?.(task.data, task.reload)}
              {extra?.(taskId, task.reload)}
              <h3 className="card-title">Timeline</h3>
              <ol className="timeline" aria-label="Timeline">
                {task.data.events.map((e, i) => (
                  <li key={i} className="timeline-item">
                    <time dateTime={e.time}>{formatDateTime(e.time)}</time>
                    <p>{e.description}</p>
                    <p className="muted">
                      By {e.actor}
                      {e.ip && <> · IP {e.ip}</>}
                      {e.userAgent && <> · {e.userAgent}</>}
                    </p>
                  </li>
                ))}
              </ol>
            </>
          )
        }
      </QueryState>
    </Dialog>
  );
}

/** what an app lets an admin do with one task in its detail (e.g. Refund), given a reload */
export type TaskActions = (task: TaskDetail, reload: () => void) => ReactNode;
/** What an app adds to a task's panel (downloads, actions); `reload` refreshes the panel after a change. */
export type TaskExtra = (taskId: string, reload: () => void) => ReactNode;

type ActivityListProps = {
  app: AppDefinition;
  /** the page's title, e.g. 'Authentications' */
  title: string;
  /** one task, e.g. 'Authentication' */
  noun: string;
  columns: TaskColumn[];
  statuses: readonly string[];
  /** the app's own view of one task (a review screen), shown instead of the timeline panel */
  Detail?: ComponentType<{ app: AppDefinition; taskId: string; onClose: () => void }>;
  taskActions?: TaskActions;
  extra?: TaskExtra;
};

/** An app's activity list: filters in the URL, keyset pages, a task's timeline, CSV export. */
export function ActivityList({ app, title, noun, columns, statuses, Detail, taskActions, extra }: ActivityListProps) {
  const api = useApi();
  const search = useSearch();
  const [location, navigate] = useLocation();
  const filters = filtersFromSearch(search);
  const session = new URLSearchParams(search).get('session');
  const query = filtersToQuery(filters);
  const filterKey = JSON.stringify(query);
  // keys of the pages before the current one, per filter set; the current page's key is the last
  const [paging, setPaging] = useState<{ filterKey: string; keys: (string | null)[] }>({ filterKey, keys: [null] });
  const keys = paging.filterKey === filterKey ? paging.keys : [null];
  const key = keys[keys.length - 1] ?? null;
  const page = useQuery(`${app.id}:tasks:${filterKey}:${key ?? ''}`, (a, signal) =>
    a.getWithHeaders<TaskRow[]>(`/${app.id}/tasks`, { signal, query: { ...query, lastKey: key ?? undefined } }).then(({ data, headers }) => ({
      rows: data,
      // the API counts on the first page only (deeper pages stay one index range scan)
      count: headers.has(TASK_COUNT_HEADER) ? Number(headers.get(TASK_COUNT_HEADER)) : undefined,
      nextKey: headers.get(TASK_LAST_KEY_HEADER),
    })),
  );
  // the first page's total, kept while paging through the same filters
  const [total, setTotal] = useState<{ filterKey: string; count: number } | null>(null);
  const count = page.data?.count;
  useEffect(() => {
    if (count !== undefined) setTotal({ filterKey, count });
  }, [count, filterKey]);

  const setSearch = (next: string) => navigate(`${location}${next}`);
  const openTask = (id: string) => {
    const params = new URLSearchParams(search);
    params.set('session', id);
    setSearch(`?${params}`);
  };
  const closeTask = () => {
    const params = new URLSearchParams(search);
    params.delete('session');
    const text = params.toString();
    setSearch(text ? `?${text}` : '');
  };

  const exportCsv = async () => {
    try {
      const { blob, filename } = await api.download(`/${app.id}/tasks/export`, { query });
      saveFile(blob, filename ?? `${app.id}-${title.toLowerCase()}.csv`);
    } catch (err) {
      toast.error(`${title} could not be exported`, errorMessage(err, 'Please try again later'));
      throw err;
    }
  };

  const tableColumns: Column<TaskRow>[] = columns.map((c) => ({
    key: c.key,
    header: c.label,
    render: (row) =>
      c.kind === 'id' ? (
        <button type="button" className="link-button" onClick={() => openTask(row.id)} aria-label={`Open ${noun.toLowerCase()} ${row.id}`}>
          <TaskCell column={c} row={row} />
        </button>
      ) : (
        <TaskCell column={c} row={row} />
      ),
  }));

  return (
    <div className="page">
      <div className="page-header">
        <h1 className="page-title">{title}</h1>
        <Button onClick={exportCsv} successLabel="Exported">
          Export CSV
        </Button>
      </div>
      <Card>
        <Filters key={search} initial={filters} statuses={statuses} onApply={(f) => setSearch(filtersToSearch(f, search))} />
      </Card>
      <Card>
        {page.error ? (
          <div role="alert">
            <p>{errorMessage(page.error, `${title} could not be loaded.`)}</p>
            <Button onClick={page.reload}>Try again</Button>
          </div>
        ) : (
          <Table
            caption={title}
            columns={tableColumns}
            rows={page.data?.rows}
            rowKey={(r) => r.id}
            loading={page.loading}
            empty={hasFilters(filters) ? `No ${title.toLowerCase()} match these filters` : `No ${title.toLowerCase()} yet`}
          />
        )}
        <KeysetPager
          label={`${title} pages`}
          pageIndex={keys.length - 1}
          pageSize={TASK_PAGE_SIZE}
          shown={page.data?.rows.length ?? 0}
          count={page.data?.count ?? (total?.filterKey === filterKey ? total.count : undefined)}
          countCap={Object.values(query).some(Boolean) ? TASK_COUNT_CAP : undefined}
          loading={page.loading}
          hasNext={Boolean(page.data?.nextKey)}
          onPrevious={() => setPaging({ filterKey, keys: keys.slice(0, -1) })}
          onNext={() => page.data?.nextKey && setPaging({ filterKey, keys: [...keys, page.data.nextKey] })}
        />
      </Card>
      {session &&
        (Detail ? (
          <Detail app={app} taskId={session} onClose={closeTask} />
        ) : (
          <TaskPanel
            app={app}
            taskId={session}
            columns={columns}
            noun={noun}
            onClose={closeTask}
            extra={extra}
            actions={taskActions && ((task, reload) => taskActions(task, () => (reload(), page.reload())))}
          />
        ))}
    </div>
  );
}
