import { useState } from 'react';
import { AUDIT_COUNT_HEADER, AUDIT_LAST_KEY_HEADER, AUDIT_PAGE_SIZE, type AuditEntry } from '../../../../api/contract/audit-log';
import { errorMessage } from '../../../api/client';
import { useApi, useQuery } from '../../../api/hooks';
import { Button } from '../../../ui/Button';
import { Card } from '../../../ui/Card';
import { KeysetPager } from '../../../ui/Pager';
import { Table, type Column } from '../../../ui/Table';
import { toast } from '../../../ui/Toast';
import { saveFile } from '../../../ui/download';
import { formatDate, formatDateTime } from '../../../ui/format';

/** Who made an entry: the admin, or the provider when there is none (ghost mode, staff). */
export function actorName(entry: Pick<AuditEntry, 'admin'>): string {
  if (!entry.admin) return 'Provider';
  return [entry.admin.firstName, entry.admin.lastName].filter(Boolean).join(' ') || 'Unknown admin';
}

const columns: Column<AuditEntry>[] = [
  {
    key: 'date',
    header: 'Date',
    render: (e) => (
      <time dateTime={e.timestamp} title={formatDateTime(e.timestamp)}>
        {formatDate(e.timestamp)}
      </time>
    ),
  },
  { key: 'admin', header: 'Admin', render: (e) => (e.admin ? actorName(e) : <span className="muted">Provider</span>) },
  { key: 'description', header: 'Description', render: (e) => e.description },
  { key: 'event', header: 'Event', render: (e) => <code>{e.event}</code> },
];

function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

export default function AuditLog() {
  const api = useApi();
  // keys of the pages before the current one; the current page's key is the last one
  const [keys, setKeys] = useState<(string | null)[]>([null]);
  const key = keys[keys.length - 1] ?? null;
  const page = useQuery(`audit-log:${key ?? ''}`, (a, signal) =>
    a.getWithHeaders<AuditEntry[]>('/audit-log', { signal, query: { lastKey: key ?? undefined } }).then(({ data, headers }) => ({
      entries: data,
      count: Number(headers.get(AUDIT_COUNT_HEADER) ?? data.length),
      nextKey: headers.get(AUDIT_LAST_KEY_HEADER),
    })),
  );

  const exportCsv = async () => {
    try {
      const { blob, filename } = await api.download('/audit-log/export', { query: { timezone: browserTimeZone() } });
      saveFile(blob, filename ?? 'audit-log.csv');
    } catch (err) {
      toast.error('The audit log could not be exported', errorMessage(err, 'Please try again later'), err);
      throw err;
    }
  };

  return (
    <div className="page">
      <div className="page-header">
        <h1 className="page-title">Audit log</h1>
        <Button onClick={exportCsv} successLabel="Exported">
          Export CSV
        </Button>
      </div>
      <p className="page-lead">Every change made in this account, newest first.</p>
      <Card>
        {page.error ? (
          <div role="alert">
            <p>{errorMessage(page.error, 'The audit log could not be loaded.')}</p>
            <Button onClick={page.reload}>Try again</Button>
          </div>
        ) : (
          <Table
            caption="Audit log"
            columns={columns}
            rows={page.data?.entries}
            rowKey={(e) => String(e.id)}
            loading={page.loading}
            empty="No entries yet"
          />
        )}
        <KeysetPager
          label="Audit log pages"
          pageIndex={keys.length - 1}
          pageSize={AUDIT_PAGE_SIZE}
          shown={page.data?.entries.length ?? 0}
          count={page.data?.count}
          loading={page.loading}
          hasNext={Boolean(page.data?.nextKey)}
          onPrevious={() => setKeys((k) => k.slice(0, -1))}
          onNext={() => page.data?.nextKey && setKeys((k) => [...k, page.data!.nextKey])}
        />
      </Card>
    </div>
  );
}
