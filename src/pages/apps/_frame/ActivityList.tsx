import { useEffect, useState, type ComponentType, type FormEvent, type ReactNode } from 'react';
import { Link, Redirect, useLocation, useSearch } from 'wouter';
import type { AppDefinition } from '../../../../api/contract/apps';
import {
  TASK_COUNT_CAP,
  TASK_COUNT_HEADER,
  TASK_LAST_KEY_HEADER,
  TASK_PAGE_SIZE,
  type TaskColumn,
  type TaskDetail,
  type TaskRow,
} from '../../../../api/contract/platform';
import { errorMessage } from '../../../api/client';
import { useApi, useQuery } from '../../../api/hooks';
import { useLiveChanges } from '../../../api/live';
import { useCoalesced } from '../../../api/coalesce';
import { Button } from '../../../ui/Button';
import { Card } from '../../../ui/Card';
import { Dialog } from '../../../ui/Dialog';
import { Field, TextField } from '../../../ui/Field';
import { QueryState } from '../../../ui/QueryState';
import { KeysetPager } from '../../../ui/Pager';
import { Table, type Column } from '../../../ui/Table';
import { toast } from '../../../ui/Toast';
import { shortenId } from '../../../ui/format';
import { saveFile } from '../../../ui/download';
import { filtersFromSearch, filtersToQuery, filtersToSearch, NO_FILTERS, rangeError, type ActivityFilters } from './filters';
import { peopleFirst, statusLabel, TaskCell, taskFacts } from './task-cells';
import { TaskFacts, Timeline } from './TaskFacts';

/** The Zoom and Webex side panel (and phones): 480 px or narrower when the page opens. */
const narrowPanel = () =>
  typeof window !== 'undefined' && typeof window.matchMedia === 'function' && window.matchMedia('(max-width: 480px)').matches;

type SetFilter<F> = (key: keyof F) => (e: { target: { value: string } }) => void;

type FiltersProps<F extends ActivityFilters> = {
  initial: F;
  statuses: readonly string[];
  onApply: (f: F) => void;
  /** what Clear sets: no filter at all, the list's own ones included */
  none: F;
  /** the list's own filter fields, before and after the common ones (eForm: the form, the answers) */
  before?: (form: F, set: SetFilter<F>) => ReactNode;
  after?: (form: F, set: SetFilter<F>) => ReactNode;
};

/** An activity list's filter form: status, days, agent, customer or phone, and the list's own. */
export function TaskFilters<F extends ActivityFilters>({ initial, statuses, onApply, none, before, after }: FiltersProps<F>) {
  const [form, setForm] = useState(initial);
  const set: SetFilter<F> = (key) => (e) => setForm((f) => ({ ...f, [key]: e.target.value }));
  const range = rangeError(form);
  const apply = (e: FormEvent) => {
    e.preventDefault();
    if (!range) onApply(form);
  };
  return (
    <form className="filters" onSubmit={apply} aria-label="Filters" noValidate>
      {before?.(form, set)}
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
      {after?.(form, set)}
      <div className="filters-actions">
        <Button type="submit" variant="primary">
          Apply
        </Button>
        <Button
          onClick={() => {
            setForm(none);
            onApply(none);
          }}
        >
          Clear
        </Button>
      </div>
    </form>
  );
}

function TaskPanel({
  app,
  taskId,
  columns,
  noun,
  onClose,
  actions,
  extra,
}: {
  app: AppDefinition;
  taskId: string;
  columns: TaskColumn[];
  noun: string;
  onClose: () => void;
  actions?: TaskActions;
  extra?: TaskExtra;
}) {
  const task = useQuery(`${app.id}:task:${taskId}`, (a, signal) =>
    a.get<TaskDetail>(`/${app.id}/tasks/${encodeURIComponent(taskId)}`, { signal }),
  );
  useLiveChanges((c) => c.kind === 'task' && c.ref === taskId, task.reload, null);
  return (
    // named by who it was for, not by its id (the id is a fact of its own, with a copy button)
    <Dialog
      open
      onClose={onClose}
      title={
        task.data && (task.data.customerRef ?? task.data.phoneNumber)
          ? `${noun} for ${task.data.customerRef ?? task.data.phoneNumber}`
          : noun
      }
      size="lg"
    >
      <QueryState query={task}>
        {() =>
          task.data && (
            <>
              <TaskFacts facts={taskFacts(columns, task.data)} />
              {actions?.(task.data, task.reload)}
              {extra?.(taskId, task.reload)}
              <h3 className="card-title">Timeline</h3>
              <Timeline events={task.data.events} origins />
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
  /** where one task opens instead of a panel (Identity Verification's review queue) */
  openHref?: (id: string) => string;
  /** the list's views, under its title (Identity Verification's All / Needs review) */
  views?: ReactNode;
  taskActions?: TaskActions;
  extra?: TaskExtra;
};

/** The task a list has open, kept in the URL as ?session=<id> so it survives a reload. */
export function useOpenTask(): [string | null, (id: string | null) => void] {
  const search = useSearch();
  const [location, navigate] = useLocation();
  const setOpen = (id: string | null) => {
    const params = new URLSearchParams(search);
    if (id) params.set('session', id);
    else params.delete('session');
    const text = params.toString();
    navigate(`${location}${text ? `?${text}` : ''}`);
  };
  return [new URLSearchParams(search).get('session'), setOpen];
}

type KeysetListProps<Row extends { id: string }, Page extends { rows: Row[] }, Answer> = {
  app: AppDefinition;
  /** the page's title, the table's caption and the name in its messages, e.g. 'Authentications' */
  title: string;
  /** the list below /api/<app>, e.g. 'tasks'; its CSV is <path>/export */
  path: string;
  /** the filters as the API reads them: only those set */
  query: Record<string, string>;
  /** the page from the API's answer: the tasks list answers its rows, others an object with rows */
  pageOf: (answer: Answer) => Page;
  /** the table's columns, which may depend on the page (eForm: a column per field) */
  columns: (page: Page | undefined) => Column<Row>[];
  filters: ReactNode;
  /** the list's views, under its title */
  views?: ReactNode;
  /** the open task's panel, given a reload of the current page (after an action changed a row) */
  children?: (reloadPage: () => void) => ReactNode;
  /** follow the app's task changes live: changed rows refresh in place, new ones wait behind "Show" */
  live?: boolean;
  /**
   * A dialog Export CSV opens first, for a list whose file depends on a choice (eForm: answers are
   * exported one form at a time); `run` downloads with the query it is given.
   */
  exportDialog?: (props: {
    query: Record<string, string>;
    run: (query: Record<string, string>) => Promise<void>;
    onClose: () => void;
  }) => ReactNode;
};

/** A list of tasks in keyset pages: filters, the table, the pager (with the count of the first page) and its CSV export. */
export function KeysetList<Row extends { id: string }, Page extends { rows: Row[] }, Answer>({
  app,
  title,
  path,
  query,
  pageOf,
  columns,
  filters,
  views,
  children,
  live,
  exportDialog,
}: KeysetListProps<Row, Page, Answer>) {
  const api = useApi();
  const filterKey = JSON.stringify(query);
  const filtered = Object.keys(query).length > 0;
  // keys of the pages before the current one, per filter set; the current page's key is the last
  const [paging, setPaging] = useState<{ filterKey: string; keys: (string | null)[] }>({ filterKey, keys: [null] });
  const keys = paging.filterKey === filterKey ? paging.keys : [null];
  const key = keys[keys.length - 1] ?? null;
  const pageKey = `${app.id}:${path}:${filterKey}:${key ?? ''}`;
  const page = useQuery(pageKey, (a, signal) =>
    a
      .getWithHeaders<Answer>(`/${app.id}/${path}`, { signal, query: { ...query, lastKey: key ?? undefined } })
      .then(({ data, headers }) => ({
        ...pageOf(data),
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

  // Live: a re-read of the page shows changed rows where they are, briefly highlighted; rows that
  // are new stay out of the table (they would push down the row being read) until "Show" is chosen.
  const [shown, setShown] = useState<{ pageKey: string; rows: Map<string, string> } | null>(null);
  const [flash, setFlash] = useState<Set<string>>(new Set());
  const rows = page.data?.rows;
  useEffect(() => {
    if (!rows) return;
    const current = shown?.pageKey === pageKey ? shown : null;
    // an empty page has no row to push down: what arrives shows at once
    if (!current || current.rows.size === 0) {
      setShown({ pageKey, rows: new Map(rows.map((r) => [r.id, JSON.stringify(r)])) });
      return;
    }
    const changed = rows.filter((r) => current.rows.has(r.id) && current.rows.get(r.id) !== JSON.stringify(r));
    if (!changed.length) return;
    setShown({ pageKey, rows: new Map([...current.rows, ...changed.map((r) => [r.id, JSON.stringify(r)] as const)]) });
    setFlash(new Set(changed.map((r) => r.id)));
  }, [rows, pageKey]); // eslint-disable-line react-hooks/exhaustive-deps
  useEffect(() => {
    if (!flash.size) return;
    const timer = setTimeout(() => setFlash(new Set()), 3000);
    return () => clearTimeout(timer);
  }, [flash]);
  const known = shown?.pageKey === pageKey ? shown.rows : null;
  const visible = live && known ? rows?.filter((r) => known.has(r.id)) : rows;
  const waiting = live && known && rows ? rows.filter((r) => !known.has(r.id)) : [];
  const showWaiting = () => {
    if (!rows) return;
    setShown({ pageKey, rows: new Map(rows.map((r) => [r.id, JSON.stringify(r)])) });
    setFlash(new Set(waiting.map((r) => r.id)));
  };
  const refresh = useCoalesced(page.reload, 400);
  useLiveChanges(
    (c) => Boolean(live) && c.app === app.id && (c.kind === 'task' || c.kind === 'tasks'),
    refresh,
    live ? 60_000 : null,
  );

  const [exporting, setExporting] = useState(false);
  const exportCsv = async (exportQuery: Record<string, string> = query) => {
    try {
      const { blob, filename } = await api.download(`/${app.id}/${path}/export`, { query: exportQuery });
      saveFile(blob, filename ?? `${app.id}-${title.toLowerCase()}.csv`);
    } catch (err) {
      toast.error(`${title} could not be exported`, errorMessage(err, 'Please try again later'), err);
      throw err;
    }
  };

  return (
    <div className="page">
      <div className="page-header">
        <h1 className="page-title">{title}</h1>
        {exportDialog ? (
          <Button onClick={() => setExporting(true)}>Export CSV</Button>
        ) : (
          <Button onClick={() => exportCsv()} successLabel="Exported">
            Export CSV
          </Button>
        )}
      </div>
      {views}
      <Card>
        {/* in the side panel the filters fold under "Filters" (open when some are set): the list, not the form, is what fits the first screen */}
        <details className="filters-box" open={filtered || !narrowPanel()}>
          <summary className="filters-summary">Filters{filtered ? ' (on)' : ''}</summary>
          {filters}
        </details>
      </Card>
      <Card>
        {page.error ? (
          <div role="alert">
            <p>{errorMessage(page.error, `${title} could not be loaded.`)}</p>
            <Button onClick={page.reload}>Try again</Button>
          </div>
        ) : (
          <>
            {waiting.length > 0 && (
              <p className="live-waiting" role="status">
                <Button size="sm" variant="ghost" onClick={showWaiting}>
                  Show {waiting.length} new
                </Button>
              </p>
            )}
            <Table
              caption={title}
              columns={columns(page.data)}
              rows={visible}
              rowKey={(r) => r.id}
              rowClassName={(r) => (flash.has(r.id) ? 'row-changed' : undefined)}
              loading={page.loading}
              empty={filtered ? `No ${title.toLowerCase()} match these filters` : `No ${title.toLowerCase()} yet`}
            />
          </>
        )}
        <KeysetPager
          label={`${title} pages`}
          pageIndex={keys.length - 1}
          pageSize={TASK_PAGE_SIZE}
          shown={page.data?.rows.length ?? 0}
          count={page.data?.count ?? (total?.filterKey === filterKey ? total.count : undefined)}
          countCap={filtered ? TASK_COUNT_CAP : undefined}
          loading={page.loading}
          hasNext={Boolean(page.data?.nextKey)}
          onPrevious={() => setPaging({ filterKey, keys: keys.slice(0, -1) })}
          onNext={() => page.data?.nextKey && setPaging({ filterKey, keys: [...keys, page.data.nextKey] })}
        />
      </Card>
      {children?.(page.reload)}
      {exporting && exportDialog?.({ query, run: exportCsv, onClose: () => setExporting(false) })}
    </div>
  );
}

const rowsPage = (rows: TaskRow[]) => ({ rows });

/** An app's activity list: filters in the URL, keyset pages, a task's timeline, CSV export. */
export function ActivityList({
  app,
  title,
  noun,
  columns,
  statuses,
  Detail,
  openHref,
  views,
  taskActions,
  extra,
}: ActivityListProps) {
  const search = useSearch();
  const [location, navigate] = useLocation();
  const [session, setSession] = useOpenTask();
  const filters = filtersFromSearch(search);

  // people first, ids last; the first column (what a person recognises) opens the task
  const tableColumns: Column<TaskRow>[] = peopleFirst(columns).map((c, i) => ({
    key: c.key,
    header: c.label,
    render: (row) =>
      i === 0 && openHref ? (
        <Link href={openHref(row.id)} aria-label={`Open ${noun.toLowerCase()} ${shortenId(row.id)}`}>
          <TaskCell column={c} row={row} />
        </Link>
      ) : i === 0 ? (
        <button
          type="button"
          className="link-button"
          onClick={() => setSession(row.id)}
          aria-label={`Open ${noun.toLowerCase()} ${shortenId(row.id)}`}
        >
          <TaskCell column={c} row={row} />
        </button>
      ) : (
        <TaskCell column={c} row={row} />
      ),
  }));

  return (
    <KeysetList
      app={app}
      title={title}
      path="tasks"
      query={filtersToQuery(filters)}
      pageOf={rowsPage}
      views={views}
      live
      columns={() => tableColumns}
      filters={
        <TaskFilters
          key={search}
          initial={filters}
          statuses={statuses}
          none={NO_FILTERS}
          onApply={(f) => navigate(`${location}${filtersToSearch(f, search)}`)}
        />
      }
    >
      {(reloadPage) =>
        session &&
        (openHref ? (
          // a link to ?session= (the dashboard's, search's) opens the task's own page
          <Redirect to={openHref(session)} replace />
        ) : Detail ? (
          <Detail app={app} taskId={session} onClose={() => setSession(null)} />
        ) : (
          <TaskPanel
            app={app}
            taskId={session}
            columns={columns}
            noun={noun}
            onClose={() => setSession(null)}
            extra={extra}
            actions={taskActions && ((task, reload) => taskActions(task, () => (reload(), reloadPage())))}
          />
        ))
      }
    </KeysetList>
  );
}
