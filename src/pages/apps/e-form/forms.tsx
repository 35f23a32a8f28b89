import { useState } from 'react';
import { Link } from 'wouter';
import type { AppDefinition } from '../../../../api/contract/apps';
import { sameTitle, type FormSummary } from '../../../../api/contract/apps/e-form';
import { useQuery } from '../../../api/hooks';
import { RequireRole } from '../../../app/guards';
import { Button } from '../../../ui/Button';
import { Card } from '../../../ui/Card';
import { QueryState } from '../../../ui/QueryState';
import { Table, type Column } from '../../../ui/Table';
import { formatNumber } from '../../../ui/format';
import { ListDate } from '../_frame/task-cells';
import { RetireForm } from './retire-form';

const STATUS_LABEL: Record<FormSummary['status'], string> = { draft: 'Draft', published: 'Published', closed: 'Closed' };

export function FormStatus({ form }: { form: Pick<FormSummary, 'status' | 'version' | 'hasDraftChanges' | 'archivedAt'> }) {
  return (
    <span
      className={`badge ${form.archivedAt ? '' : form.status === 'published' ? 'badge-success' : form.status === 'closed' ? 'badge-danger' : 'badge-warning'}`}
    >
      {form.archivedAt ? 'Archived' : STATUS_LABEL[form.status]}
      {form.version !== null && ` · v${form.version}`}
      {form.version !== null && form.hasDraftChanges && ' · unpublished changes'}
    </span>
  );
}

function FormsList({ app }: { app: AppDefinition }) {
  const forms = useQuery(`${app.id}:forms`, (a, signal) => a.get<FormSummary[]>(`/${app.id}/forms`, { signal }));
  const [showArchived, setShowArchived] = useState(false);
  const all = forms.data ?? [];
  const archived = all.filter((f) => f.archivedAt);
  const columns: Column<FormSummary>[] = [
    {
      key: 'title',
      header: 'Form',
      render: (f) => (
        <>
          <Link href={`/forms/${f.id}`}>{f.title || 'Untitled form'}</Link>
          {!f.archivedAt && sameTitle(all, f.id, f.title).length > 0 && (
            <>
              {' '}
              <span className="badge badge-warning">Same title as another form</span>
            </>
          )}
        </>
      ),
    },
    { key: 'status', header: 'Status', render: (f) => <FormStatus form={f} /> },
    {
      key: 'submissions',
      header: 'Submissions',
      render: (f) => (f.submissions ? <Link href={`/submissions?form=${f.id}`}>{formatNumber(f.submissions)}</Link> : '0'),
    },
    {
      key: 'last',
      header: 'Last submission',
      render: (f) => (f.lastSubmissionAt ? <ListDate value={f.lastSubmissionAt} /> : '—'),
    },
    { key: 'updated', header: 'Last edited', render: (f) => <ListDate value={f.updatedAt} /> },
    {
      key: 'actions',
      header: <span className="sr-only">Actions</span>,
      render: (f) => <RetireForm app={app} form={f} size="sm" onDone={forms.reload} />,
    },
  ];
  return (
    <div className="page">
      <div className="page-header">
        <h1 className="page-title">Forms</h1>
        <Link href="/forms/new" className="btn btn-primary">
          New form
        </Link>
      </div>
      <Card>
        <QueryState query={forms}>
          {() => (
            <Table
              caption="Forms"
              columns={columns}
              rows={all.filter((f) => !f.archivedAt)}
              rowKey={(f) => f.id}
              empty="No forms yet: create your first one"
            />
          )}
        </QueryState>
      </Card>
      {archived.length > 0 && (
        <Card>
          <Button variant="ghost" aria-expanded={showArchived} onClick={() => setShowArchived((x) => !x)}>
            {showArchived ? 'Hide' : 'Show'} archived forms ({archived.length})
          </Button>
          {showArchived && <Table caption="Archived forms" columns={columns} rows={archived} rowKey={(f) => f.id} empty="" />}
        </Card>
      )}
    </div>
  );
}

export default function Forms({ app }: { app: AppDefinition }) {
  return (
    <RequireRole role="admin">
      <FormsList app={app} />
    </RequireRole>
  );
}
