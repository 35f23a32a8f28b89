import { Link } from 'wouter';
import type { AppDefinition } from '../../../../api/contract/apps';
import type { SigDocument } from '../../../../api/contract/apps/document-signature';
import { useQuery } from '../../../api/hooks';
import { QueryState } from '../../../ui/QueryState';
import { Table, type Column } from '../../../ui/Table';
import { ListDate } from '../_frame/task-cells';

/** Where a document opens: its draft when it has one, else its newest published version. */
export const documentHref = (d: Pick<SigDocument, 'id' | 'draftVersion' | 'publishedVersion'>) =>
  `/documents/${d.id}/${d.draftVersion ?? d.publishedVersion ?? 1}`;

export default function Documents({ app }: { app: AppDefinition }) {
  const docs = useQuery(`${app.id}:documents`, (a, signal) => a.get<SigDocument[]>(`/${app.id}/documents`, { signal }));
  const columns: Column<SigDocument>[] = [
    { key: 'name', header: 'Document', render: (d) => <Link href={documentHref(d)}>{d.name}</Link> },
    {
      key: 'published',
      header: 'Published version',
      render: (d) => (d.publishedVersion ? `Version ${d.publishedVersion}` : 'Not published'),
    },
    { key: 'draft', header: 'Draft', render: (d) => (d.draftVersion ? `Version ${d.draftVersion} (draft)` : '—') },
    { key: 'requests', header: 'Requests', render: (d) => d.requests },
    { key: 'updated', header: 'Updated', render: (d) => <ListDate value={d.updatedAt} /> },
    {
      key: 'history',
      header: <span className="sr-only">History</span>,
      render: (d) => (
        <Link href={`/documents/${d.id}/history`} aria-label={`History of ${d.name}`}>
          History
        </Link>
      ),
    },
  ];
  return (
    <div className="page">
      <div className="page-header">
        <h1 className="page-title">Documents</h1>
        <Link className="btn btn-primary" href="/documents/new">
          Upload a document
        </Link>
      </div>
      <p className="page-lead">
        Upload a PDF, place the fields the signer fills in, and publish it. Requests always use a published version.
      </p>
      <QueryState query={docs}>
        {() => (
          <Table
            caption="Documents"
            columns={columns}
            rows={docs.data}
            rowKey={(d) => d.id}
            empty="No documents yet: upload a PDF to start."
          />
        )}
      </QueryState>
    </div>
  );
}
