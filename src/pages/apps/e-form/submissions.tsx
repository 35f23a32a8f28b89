import { useState, type ReactNode } from 'react';
import { useLocation, useSearch } from 'wouter';
import type { AppDefinition } from '../../../../api/contract/apps';
import {
  answerText,
  CONTAINS_MIN_CHARS,
  CONTAINS_TOO_SHORT,
  EFORM_STATUSES,
  type FormSummary,
  type SubmissionDetail,
  type SubmissionPage,
  type SubmissionRow,
} from '../../../../api/contract/apps/e-form';
import { useQuery } from '../../../api/hooks';
import { Button } from '../../../ui/Button';
import { Dialog } from '../../../ui/Dialog';
import { Field, TextField } from '../../../ui/Field';
import { QueryState } from '../../../ui/QueryState';
import type { Column } from '../../../ui/Table';
import { formatDateTime, shortenId } from '../../../ui/format';
import { KeysetList, TaskFilters, useOpenTask } from '../_frame/ActivityList';
import { filtersFromSearch, filtersToQuery, filtersToSearch, NO_FILTERS, type ActivityFilters } from '../_frame/filters';
import { IdValue, ListDate, StatusBadge } from '../_frame/task-cells';
import { TaskFacts, Timeline } from '../_frame/TaskFacts';

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
  // a needle under 3 characters is said to be too short beside the field, never sent to scan
  if (!containsProblem(f.contains) && f.contains.trim()) query.contains = f.contains.trim();
  return query;
}

/** What "Answer contains" says about a needle the search cannot take (under 3 characters). */
function containsProblem(contains: string): string | undefined {
  const n = [...contains.trim()].length;
  return n > 0 && n < CONTAINS_MIN_CHARS ? CONTAINS_TOO_SHORT : undefined;
}

const NONE: Filters = { ...NO_FILTERS, form: '', contains: '' };

/**
 * The forms a submission can belong to: those published at least once (a draft was never sent,
 * so it has none), the live ones first and the archived ones in their own group.
 */
function FormOptions({ forms }: { forms: FormSummary[] }) {
  const sent = forms.filter((f) => f.version !== null);
  const live = sent.filter((f) => !f.archivedAt);
  const archived = sent.filter((f) => f.archivedAt);
  const option = (f: FormSummary) => (
    <option key={f.id} value={f.id}>
      {f.title}
    </option>
  );
  return (
    <>
      {live.map(option)}
      {archived.length > 0 && <optgroup label="Archived forms">{archived.map(option)}</optgroup>}
    </>
  );
}

/**
 * Export CSV asks which form first: each form asks its own questions, so answers have a column
 * per question of one form (every version's, removed ones marked). "All forms" is one file of
 * every request without answers, and the dialog says so before the admin downloads it.
 */
function ExportDialog({
  forms,
  query,
  run,
  onClose,
}: {
  forms: FormSummary[];
  query: Record<string, string>;
  run: (query: Record<string, string>) => Promise<void>;
  onClose: () => void;
}) {
  const [formId, setFormId] = useState(query.formId ?? '');
  const chosen = forms.find((f) => f.id === formId);
  const exportNow = async () => {
    const { formId: _any, ...rest } = query;
    await run(formId ? { ...rest, formId } : rest);
    onClose();
  };
  return (
    <Dialog
      open
      onClose={onClose}
      title="Export submissions"
      size="sm"
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button variant="primary" onClick={exportNow} successLabel="Exported">
            {formId ? 'Export with answers' : 'Export without answers'}
          </Button>
        </>
      }
    >
      <Field label="Form">
        {(control) => (
          <select className="input" {...control} value={formId} onChange={(e) => setFormId(e.target.value)}>
            <option value="">All forms (no answers)</option>
            <FormOptions forms={forms} />
          </select>
        )}
      </Field>
      {chosen ? (
        <p data-testid="export-explanation">
          One row per request of "{chosen.title}", with a column for each of its questions in any version (questions later removed
          are marked). The list's other filters apply.
        </p>
      ) : (
        <p className="notice notice-warning" role="note" data-testid="export-explanation">
          Without a form, the file has one row per request of every form and <strong>no answers</strong>: each form asks its own
          questions, so answers are exported one form at a time. Choose a form to include its answers.
        </p>
      )}
    </Dialog>
  );
}

function FilterForm({ initial, forms, onApply }: { initial: Filters; forms: FormSummary[]; onApply: (f: Filters) => void }) {
  return (
    <TaskFilters
      initial={initial}
      statuses={EFORM_STATUSES}
      none={NONE}
      onApply={onApply}
      before={(form, set) => (
        <Field label="Form">
          {(control) => (
            <select className="input" {...control} value={form.form} onChange={set('form')}>
              <option value="">Any form</option>
              <FormOptions forms={forms} />
            </select>
          )}
        </Field>
      )}
      after={(form, set) => (
        <TextField
          label="Answer contains"
          value={form.contains}
          onChange={set('contains')}
          error={containsProblem(form.contains)}
        />
      )}
    />
  );
}

function SubmissionPanel({ app, id, onClose }: { app: AppDefinition; id: string; onClose: () => void }) {
  const detail = useQuery(`${app.id}:submission:${id}`, (a, signal) =>
    a.get<SubmissionDetail>(`/${app.id}/submissions/${encodeURIComponent(id)}`, { signal }),
  );
  return (
    <Dialog open onClose={onClose} title={detail.data ? `${detail.data.formTitle}: submission` : 'Submission'} size="lg">
      <QueryState query={detail}>
        {() => {
          const d = detail.data;
          if (!d) return null;
          return (
            <>
              <TaskFacts
                facts={[
                  ['Form', `${d.formTitle} (version ${d.version})`],
                  ['Status', <StatusBadge status={d.status} />],
                  ['Phone', d.phoneNumber],
                  ['Customer', d.customerRef ?? '—'],
                  ['Agent', d.agent ?? '—'],
                  ['Submitted', d.submittedAt ? formatDateTime(d.submittedAt) : '—'],
                  ['ID', <IdValue label="ID" value={id} />],
                ]}
              />
              <h3 className="card-title">Answers</h3>
              {d.answers ? (
                <TaskFacts
                  label="Answers"
                  facts={[
                    ...d.fields.map((f) => ({ id: f.id, label: f.label })),
                    ...d.hiddenFields.map((h) => ({ id: h.key, label: h.label })),
                  ].map((f) => [
                    f.label,
                    d.files[f.id] ? (
                      <a href={d.files[f.id]!.url} download={d.files[f.id]!.name}>
                        {d.files[f.id]!.name}
                      </a>
                    ) : (
                      answerText(d.answers![f.id]) || <span className="muted">—</span>
                    ),
                  ])}
                />
              ) : (
                <p className="muted">Not submitted yet.</p>
              )}
              <h3 className="card-title">Timeline</h3>
              <Timeline events={d.events} />
            </>
          );
        }}
      </QueryState>
    </Dialog>
  );
}

const submissionsPage = (page: SubmissionPage) => page;

export default function Submissions({ app }: { app: AppDefinition }) {
  const search = useSearch();
  const [location, navigate] = useLocation();
  const [open, setOpen] = useOpenTask();
  const filters = readFilters(search);
  const forms = useQuery(`${app.id}:forms`, (a, signal) => a.get<FormSummary[]>(`/${app.id}/forms`, { signal }));

  // people first, ids last: the form's name (or, filtered to one form, the customer) opens the submission
  const opener = (r: SubmissionRow, text: ReactNode) => (
    <button type="button" className="link-button" onClick={() => setOpen(r.id)} aria-label={`Open submission ${shortenId(r.id)}`}>
      {text}
    </button>
  );
  const columns = (page: SubmissionPage | undefined): Column<SubmissionRow>[] => [
    filters.form
      ? { key: 'customer', header: 'Customer', render: (r) => opener(r, r.customerRef ?? r.phoneNumber ?? '—') }
      : { key: 'form', header: 'Form', render: (r: SubmissionRow) => opener(r, r.formTitle) },
    ...(filters.form
      ? []
      : [
          {
            key: 'customer',
            header: 'Customer',
            render: (r: SubmissionRow) => r.customerRef ?? <span className="muted">—</span>,
          },
        ]),
    { key: 'status', header: 'Status', render: (r) => <StatusBadge status={r.status} /> },
    { key: 'agent', header: 'Agent', render: (r) => r.agent ?? <span className="muted">—</span> },
    // as the dashboard's latest submissions show the same rows
    { key: 'sent', header: 'Sent', render: (r) => <ListDate value={r.createdAt} /> },
    {
      key: 'submitted',
      header: 'Submitted',
      render: (r) => (r.submittedAt ? <ListDate value={r.submittedAt} /> : <span className="muted">—</span>),
    },
    ...(page?.columns ?? []).map((c) => ({
      key: `answer-${c.id}`,
      header: c.removed ? `${c.label} (removed)` : c.label,
      render: (r: SubmissionRow) => answerText(r.answers?.[c.id]) || <span className="muted">—</span>,
    })),
    {
      key: 'id',
      header: 'ID',
      render: (r) => (
        <code className="task-id" title={r.id}>
          {shortenId(r.id)}
        </code>
      ),
    },
  ];

  return (
    <KeysetList
      app={app}
      title="Submissions"
      path="submissions"
      query={toQuery(filters)}
      pageOf={submissionsPage}
      // the badge says "Live": new submissions arrive behind "Show n new", changed ones in place
      live
      columns={columns}
      filters={
        <FilterForm
          key={search}
          initial={filters}
          forms={forms.data ?? []}
          onApply={(f) => navigate(`${location}${toSearch(f, search)}`)}
        />
      }
      exportDialog={(props) => <ExportDialog forms={forms.data ?? []} {...props} />}
    >
      {() => open && <SubmissionPanel app={app} id={open} onClose={() => setOpen(null)} />}
    </KeysetList>
  );
}
