import { Link } from 'wouter';
import type { AppDefinition } from '../../../../api/contract/apps';
import type { FormSummary } from '../../../../api/contract/apps/e-form';
import { useQuery } from '../../../api/hooks';
import { RequireRole } from '../../../app/guards';
import { Card } from '../../../ui/Card';
import { QueryState } from '../../../ui/QueryState';
import { Table, type Column } from '../../../ui/Table';
import { formatDateTime, formatNumber } from '../../../ui/format';

const STATUS_LABEL: Record<FormSummary['status'], string> = { draft: 'Draft', published: 'Published', closed: 'Closed' };

export function FormStatus({ form }: { form: Pick<FormSummary, 'status' | 'version' | 'hasDraftChanges'> }) {
  return (
    <span className={`badge ${form.status === 'published' ? 'badge-success' : form.status === 'closed' ? 'badge-danger' : 'badge-warning'}`}>
      {STATUS_LABEL[form.status]}
      {form.version !== null && ` · v${form.version}`}
      {form.version !== null && form.hasDraftChanges && ' · unpublished changes'}
    </span>
  );
}

function FormsList({ app }: { app: AppDefinition }) {
  const forms = useQuery(`${app.id}:forms`, (a, signal) => a.get<FormSummary[]>(`/${app.id}/forms`, { signal }));
  const columns: Column<FormSummary>[] = [
    { key: 'title', header: 'Form', render: (f) => <Link href={`/forms/${f.id}`}>{f.title || 'Untitled form'}</Link> },
    { key: 'status', header: 'Status', render: (f) => <FormStatus form={f} /> },
    { key: 'submissions', header: 'Submissions', render: (f) => (f.submissions ? <Link href={`/submissions?form=${f.id}`}>{formatNumber(f.submissions)}</Link> : '0') },
    { key: 'last', header: 'Last submission', render: (f) => (f.lastSubmissionAt ? formatDateTime(f.lastSubmissionAt) : '—') },
    { key: 'updated', header: 'Last edited', render: (f) => formatDateTime(f.updatedAt) },
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
        <QueryState query={forms}>{() => <Table caption="Forms" columns={columns} rows={forms.data} rowKey={(f) => f.id} empty="No forms yet: create your first one" />}</QueryState>
      </Card>
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
