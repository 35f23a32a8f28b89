import { useState } from 'react';
import { useAtomValue } from 'jotai';
import type { AppDefinition } from '../../../../api/contract/apps';
import { PASSKEY_CREDENTIAL_PAGE, type PasskeyCredential } from '../../../../api/contract/apps/passkeys';
import { TASK_LAST_KEY_HEADER } from '../../../../api/contract/platform';
import { errorMessage } from '../../../api/client';
import { useApi, useQuery } from '../../../api/hooks';
import { hasRole } from '../../../state/roles';
import { bootstrapAtom } from '../../../state/session';
import { Button } from '../../../ui/Button';
import { Card } from '../../../ui/Card';
import { ConfirmDialog } from '../../../ui/ConfirmDialog';
import { KeysetPager } from '../../../ui/Pager';
import { QueryState } from '../../../ui/QueryState';
import { Table, type Column } from '../../../ui/Table';
import { toast } from '../../../ui/Toast';
import { formatDateTime, formatNumber, shortenId } from '../../../ui/format';
import { ListDate } from '../_frame/task-cells';

// Enrollments: every passkey the account's customers created, newest first, with what the
// authenticator said about itself, and Revoke (admins, after a confirmation).

const TRANSPORTS: Record<string, string> = {
  internal: 'This device',
  hybrid: 'Phone (hybrid)',
  usb: 'USB',
  nfc: 'NFC',
  ble: 'Bluetooth',
  'smart-card': 'Smart card',
};

export default function PasskeysEnrollments({ app }: { app: AppDefinition }) {
  const api = useApi();
  const role = useAtomValue(bootstrapAtom)?.role;
  const canRevoke = hasRole(role, 'admin');
  const [search, setSearch] = useState('');
  const [q, setQ] = useState('');
  const [keys, setKeys] = useState<(string | null)[]>([null]);
  const [revoking, setRevoking] = useState<PasskeyCredential | null>(null);
  const key = keys[keys.length - 1] ?? null;
  const list = useQuery(`${app.id}:credentials:${q}:${key ?? ''}`, (a, signal) =>
    a
      .getWithHeaders<PasskeyCredential[]>(`/${app.id}/credentials`, {
        signal,
        query: { q: q || undefined, lastKey: key ?? undefined },
      })
      .then(({ data, headers }) => ({ rows: data, nextKey: headers.get(TASK_LAST_KEY_HEADER) })),
  );

  const revoke = async (c: PasskeyCredential) => {
    try {
      await api.post(`/${app.id}/credentials/${c.id}/revoke`);
      toast.success('Passkey revoked', `${c.customerRef} can no longer verify with it.`);
      setRevoking(null);
      list.reload();
    } catch (err) {
      toast.error('The passkey could not be revoked', errorMessage(err), err);
      throw err;
    }
  };

  const columns: Column<PasskeyCredential>[] = [
    { key: 'customer', header: 'Customer', render: (c) => <span title={c.displayName}>{c.customerRef}</span> },
    { key: 'authenticator', header: 'Authenticator', render: (c) => c.authenticator },
    { key: 'kind', header: 'Type', render: (c) => (c.synced ? 'Synced' : 'Device-bound') },
    { key: 'backedUp', header: 'Backed up', render: (c) => (c.backedUp ? 'Yes' : 'No') },
    { key: 'transports', header: 'Transports', render: (c) => c.transports.map((t) => TRANSPORTS[t] ?? t).join(', ') || '—' },
    { key: 'created', header: 'Created', render: (c) => <ListDate value={c.createdAt} /> },
    { key: 'lastUsed', header: 'Last used', render: (c) => (c.lastUsedAt ? <ListDate value={c.lastUsedAt} /> : 'Never') },
    { key: 'count', header: 'Sign count', render: (c) => formatNumber(c.signCount), className: 'num' },
    // ids last: people read the customer and the device first
    {
      key: 'credential',
      header: 'Credential ID',
      render: (c) => (
        <code title={c.credentialId} aria-label={`Credential ${c.credentialId}`}>
          {shortenId(c.credentialId)}
        </code>
      ),
    },
    {
      key: 'actions',
      header: <span className="sr-only">Actions</span>,
      render: (c) =>
        c.revokedAt ? (
          <span className="badge badge-danger" title={formatDateTime(c.revokedAt)}>
            Revoked
          </span>
        ) : canRevoke ? (
          <Button
            size="sm"
            variant="danger"
            onClick={() => setRevoking(c)}
            aria-label={`Revoke passkey ${shortenId(c.credentialId)} of ${c.customerRef}`}
          >
            Revoke
          </Button>
        ) : null,
    },
  ];

  return (
    <div className="page">
      <h1 className="page-title">Enrollments</h1>
      <Card>
        <form
          className="filters"
          role="search"
          onSubmit={(e) => {
            e.preventDefault();
            setQ(search.trim());
            setKeys([null]);
          }}
        >
          <label className="field-label" htmlFor="passkey-search">
            Customer ID
          </label>
          <input
            id="passkey-search"
            className="input"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            placeholder="CUST-1001"
          />
          <Button type="submit">Search</Button>
        </form>
        <QueryState query={list}>
          {() =>
            list.data && (
              <>
                <Table
                  caption="Passkeys"
                  columns={columns}
                  rows={list.data.rows}
                  rowKey={(c) => c.id}
                  empty={q ? `No passkeys for ${q}` : 'No passkeys yet'}
                />
                <KeysetPager
                  label="Passkey pages"
                  pageIndex={keys.length - 1}
                  pageSize={PASSKEY_CREDENTIAL_PAGE}
                  shown={list.data.rows.length}
                  count={undefined}
                  loading={list.loading}
                  hasNext={!!list.data.nextKey}
                  onPrevious={() => setKeys((k) => (k.length > 1 ? k.slice(0, -1) : k))}
                  onNext={() => list.data?.nextKey && setKeys((k) => [...k, list.data!.nextKey])}
                />
              </>
            )
          }
        </QueryState>
      </Card>
      <ConfirmDialog
        open={!!revoking}
        title="Revoke this passkey?"
        description={
          revoking && (
            <>
              {revoking.customerRef}'s passkey {shortenId(revoking.credentialId)} ({revoking.authenticator}) will stop working at
              once. They will need to enroll a new one to verify with a passkey.
            </>
          )
        }
        confirmLabel="Revoke"
        onConfirm={() => (revoking ? revoke(revoking) : undefined)}
        onCancel={() => setRevoking(null)}
      />
    </div>
  );
}
