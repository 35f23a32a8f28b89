import { Link, useParams } from 'wouter';
import type { AppDefinition } from '../../../../api/contract/apps';
import type { SigDocument, SigHistoryEntry } from '../../../../api/contract/apps/document-signature';
import { useQuery } from '../../../api/hooks';
import { QueryState } from '../../../ui/QueryState';
import { Table, type Column } from '../../../ui/Table';
import { formatDateTime } from '../../../ui/format';

export default function DocumentHistory({ app }: { app: AppDefinition }) {
  const { id } = useParams<{ id: string }>();
  const history = useQuery(`${app.id}:history:${id}`, (a, signal) =>
    a.get<{ document: SigDocument; versions: SigHistoryEntry[] }>(`/${app.id}/documents/${encodeURIComponent(id)}/history`, {
      signal,
    }),
  );
  const columns: Column<SigHistoryEntry>[] = [
    { key: 'version', header: 'Version', render: (h) => <Link href={`/documents/${id}/${h.version}`}>Version {h.version}</Link> },
    { key: 'state', header: 'State', render: (h) => (h.state === 'draft' ? 'Draft' : 'Published') },
    { key: 'created', header: 'Created', render: (h) => `${formatDateTime(h.createdAt)} by ${h.createdBy}` },
    {
      key: 'published',
      header: 'Published',
      render: (h) => (h.publishedAt ? `${formatDateTime(h.publishedAt)} by ${h.publishedBy}` : '—'),
    },
    { key: 'fields', header: 'Fields', render: (h) => h.fields },
  ];
  return (
    <div className="page">
      <QueryState query={history}>
        {() =>
          history.data && (
            <>
              <h1 className="page-title">History of {history.data.document.name}</h1>
              <p className="page-lead">
                <Link href="/documents">All documents</Link>
              </p>
              <Table caption="Versions" columns={columns} rows={history.data.versions} rowKey={(h) => String(h.version)} />
            </>
          )
        }
      </QueryState>
    </div>
  );
}
