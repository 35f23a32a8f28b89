import { useEffect, useState, type FormEvent } from 'react';
import { useLocation, useSearch } from 'wouter';
import type { AppDefinition } from '../../../../api/contract/apps';
import { answerText, EFORM_STATUSES, type FormSummary, type SubmissionDetail, type SubmissionPage, type SubmissionRow } from '../../../../api/contract/apps/e-form';
import { TASK_COUNT_CAP, TASK_COUNT_HEADER, TASK_LAST_KEY_HEADER, TASK_PAGE_SIZE } from '../../../../api/contract/platform';
import { errorMessage } from '../../../api/client';
import { useApi, useQuery } from '../../../api/hooks';
import { Button } from '../../../ui/Button';
import { Card } from '../../../ui/Card';
import { Dialog } from '../../../ui/Dialog';
import { Field, TextField } from '../../../ui/Field';
import { KeysetPager } from '../../../ui/Pager';
import { QueryState } from '../../../ui/QueryState';
import { Table, type Column } from '../../../ui/Table';
import { toast } from '../../../ui/Toast';
import { saveFile } from '../../../ui/download';
import { formatDateTime, shortenId } from '../../../ui/format';
import { filtersFromSearch, filtersToQuery, filtersToSearch, rangeError, type ActivityFilters } from '../_frame/filters';
import { StatusBadge, statusLabel } from '../_frame/task-cells';

// Submissions: every form request with its answers. With a form chosen, a column per field the
// form ever had (fields later versions removed are marked), so old answers stay readable.

type Filters = ActivityFilters & { form: string; contains: string };
const EXTRA = ['form', 'contains'] as const;

function readFilters(search: string): Filters {
  const params = new URLSearchParams(search);
  return { ...filtersFromSearch(search), form: params.get('form') ?? '', contains: params.get('contains') ?? '' };
}

function toSearch(f: Filters, search: string): string {
  const params = new URLSearchParams(filtersToSearch(f, search).slice(1));
  for (const key of EXTRA) {
    if (f[key].trim()) params.set(key, f[key].trim());
    else params.delete(key);
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

function toQuery(f: Filters): Record<string, string> {
  const query = filtersToQuery(f);
  if (f.form) query.formId = f.form;
  if (f.contains.trim()) query.contains = f.contains.trim();
  return query;
}

function FilterForm({ initial, forms, onApply }: { initial: Filters; forms: FormSummary[]; onApply: (f: Filters) => void }) {
  const [form, setForm] = useState(initial);
  const set = (key: keyof Filters) => (e: { target: { value: string } }) => setForm((f) => ({ ...f, [key]: e.target.value }));
  const range = rangeError(form);
  const apply = (e: FormEvent) => {
    e.preventDefault();
    if (!range) onApply(form);
  };
  const none: Filters = { status: '', from: '', to: '', agent: '', customer: '', form: '', contains: '' };
  return (
    <form className="filters" onSubmit={apply} aria-label="Filters" noValidate>
      <Field label="Form">
        {(control) => (
          <select className="input" {...control} value={form.form} onChange={set('form')}>
            <option value="">Any form</option>
            {forms.map((f) => (
              <option key={f.id} value={f.id}>
                {f.title}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field label="Status">
        {(control) => (
          <select className="input" {...control} value={form.status} onChange={set('status')}>
            <option value="">Any status</option>
            {EFORM_STATUSES.map((s) => (
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
      <TextField label="Answer contains" value={form.contains} onChange={set('contains')} />
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

function SubmissionPanel({ app, id, onClose }: { app: AppDefinition; id: string; onClose: () => void }) {
  const detail = useQuery(`${app.id}:submission:${id}`, (a, signal) => a.get<SubmissionDetail>(`/${app.id}/submissions/${encodeURIComponent(id)}`, { signal }));
  return (
    <Dialog open onClose={onClose} title={`Submission ${shortenId(id)}`} size="lg">
      <QueryState query={detail}>
        {() => {
          const d = detail.data;
          if (!d) return null;
          return (
            <>
              <dl className="task-facts">
                <div>
                  <dt>Form</dt>
                  <dd>
                    {d.formTitle} (version {d.version})
                  </dd>
                </div>
                <div>
                  <dt>Status</dt>
                  <dd>
                    <StatusBadge status={d.status} />
                  </dd>
                </div>
                <div>
                  <dt>Phone</dt>
                  <dd>{d.phoneNumber}</dd>
                </div>
                <div>
                  <dt>Customer</dt>
                  <dd>{d.customerRef ?? '—'}</dd>
                </div>
                <div>
                  <dt>Agent</dt>
                  <dd>{d.agent ?? '—'}</dd>
                </div>
                <div>
                  <dt>Submitted</dt>
                  <dd>{d.submittedAt ? formatDateTime(d.submittedAt) : '—'}</dd>
                </div>
              </dl>
              <h3 className="card-title">Answers</h3>
              {d.answers ? (
                <dl className="task-facts" aria-label="Answers">
                  {[...d.fields.map((f) => ({ id: f.id, label: f.label })), ...d.hiddenFields.map((h) => ({ id: h.key, label: h.label }))].map((f) => (
                    <div key={f.id}>
                      <dt>{f.label}</dt>
                      <dd>
                        {d.files[f.id] ? (
                          <a href={d.files[f.id]!.url} download={d.files[f.id]!.name}>
                            {d.files[f.id]!.name}
                          </a>
                        ) : (
                          answerText(d.answers![f.id]) || <span className="muted">—</span>
                        )}
                      </dd>
                    </div>
                  ))}
                </dl>
              ) : (
                <p className="muted">Not submitted yet.</p>
              )}
              <h3 className="card-title">Timeline</h3>
              <ol className="timeline" aria-label="Timeline">
                {d.events.map((e, i) => (
                  <li key={i} className="timeline-item">
                    <time dateTime={e.time}>{formatDateTime(e.time)}</time>
                    <p>{e.description}</p>
                    <p className="muted">By {e.actor}</p>
                  </li>
                ))}
              </ol>
            </>
          );
        }}
      </QueryState>
    </Dialog>
  );
}

export default function Submissions({ app }: { app: AppDefinition }) {
  const api = useApi();
  const search = useSearch();
  const [location, navigate] = useLocation();
  const filters = readFilters(search);
  const open = new URLSearchParams(search).get('session');
  const query = toQuery(filters);
  const filterKey = JSON.stringify(query);
  const forms = useQuery(`${app.id}:forms`, (a, signal) => a.get<FormSummary[]>(`/${app.id}/forms`, { signal }));
  const [paging, setPaging] = useState<{ filterKey: string; keys: (string | null)[] }>({ filterKey, keys: [null] });
  const keys = paging.filterKey === filterKey ? paging.keys : [null];
  const key = keys[keys.length - 1] ?? null;
  const page = useQuery(`${app.id}:submissions:${filterKey}:${key ?? ''}`, (a, signal) =>
    a.getWithHeaders<SubmissionPage>(`/${app.id}/submissions`, { signal, query: { ...query, lastKey: key ?? undefined } }).then(({ data, headers }) => ({
      ...data,
      count: headers.has(TASK_COUNT_HEADER) ? Number(headers.get(TASK_COUNT_HEADER)) : undefined,
      nextKey: headers.get(TASK_LAST_KEY_HEADER),
    })),
  );
  const [total, setTotal] = useState<{ filterKey: string; count: number } | null>(null);
  const count = page.data?.count;
  useEffect(() => {
    if (count !== undefined) setTotal({ filterKey, count });
  }, [count, filterKey]);

  const setSession = (id: string | null) => {
    const params = new URLSearchParams(search);
    if (id) params.set('session', id);
    else params.delete('session');
    const text = params.toString();
    navigate(`${location}${text ? `?${text}` : ''}`);
  };

  const exportCsv = async () => {
    try {
      const { blob, filename } = await api.download(`/${app.id}/submissions/export`, { query });
      saveFile(blob, filename ?? 'e-form-submissions.csv');
    } catch (err) {
      toast.error('Submissions could not be exported', errorMessage(err, 'Please try again later'));
      throw err;
    }
  };

  const columns: Column<SubmissionRow>[] = [
    {
      key: 'id',
      header: 'ID',
      render: (r) => (
        <button type="button" className="link-button" onClick={() => setSession(r.id)} aria-label={`Open submission ${r.id}`}>
          <code className="task-id">{shortenId(r.id)}</code>
        </button>
      ),
    },
    ...(filters.form ? [] : [{ key: 'form', header: 'Form', render: (r: SubmissionRow) => r.formTitle }]),
    { key: 'status', header: 'Status', render: (r) => <StatusBadge status={r.status} /> },
    { key: 'customer', header: 'Customer', render: (r) => r.customerRef ?? <span className="muted">—</span> },
    { key: 'agent', header: 'Agent', render: (r) => r.agent ?? <span className="muted">—</span> },
    { key: 'sent', header: 'Sent', render: (r) => formatDateTime(r.createdAt) },
    { key: 'submitted', header: 'Submitted', render: (r) => (r.submittedAt ? formatDateTime(r.submittedAt) : <span className="muted">—</span>) },
    ...(page.data?.columns ?? []).map((c) => ({
      key: `answer-${c.id}`,
      header: c.removed ? `${c.label} (removed)` : c.label,
      render: (r: SubmissionRow) => answerText(r.answers?.[c.id]) || <span className="muted">—</span>,
    })),
  ];

  return (
    <div className="page">
      <div className="page-header">
        <h1 className="page-title">Submissions</h1>
        <Button onClick={exportCsv} successLabel="Exported">
          Export CSV
        </Button>
      </div>
      <Card>
        <FilterForm key={search} initial={filters} forms={forms.data ?? []} onApply={(f) => navigate(`${location}${toSearch(f, search)}`)} />
      </Card>
      <Card>
        {page.error ? (
          <div role="alert">
            <p>{errorMessage(page.error, 'Submissions could not be loaded.')}</p>
            <Button onClick={page.reload}>Try again</Button>
          </div>
        ) : (
          <Table caption="Submissions" columns={columns} rows={page.data?.rows} rowKey={(r) => r.id} loading={page.loading} empty={Object.keys(query).length ? 'No submissions match these filters' : 'No submissions yet'} />
        )}
        <KeysetPager
          label="Submissions pages"
          pageIndex={keys.length - 1}
          pageSize={TASK_PAGE_SIZE}
          shown={page.data?.rows.length ?? 0}
          count={page.data?.count ?? (total?.filterKey === filterKey ? total.count : undefined)}
          countCap={Object.keys(query).length ? TASK_COUNT_CAP : undefined}
          loading={page.loading}
          hasNext={Boolean(page.data?.nextKey)}
          onPrevious={() => setPaging({ filterKey, keys: keys.slice(0, -1) })}
          onNext={() => page.data?.nextKey && setPaging({ filterKey, keys: [...keys, page.data.nextKey] })}
        />
      </Card>
      {open && <SubmissionPanel app={app} id={open} onClose={() => setSession(null)} />}
    </div>
  );
}
