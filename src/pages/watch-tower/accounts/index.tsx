import { useEffect, useState, type KeyboardEvent } from 'react';
import { Link, useLocation } from 'wouter';
import { getApp } from '../../../../api/contract/apps';
import { ACTIVE_STATUSES, type AccountList, type WatchTowerAccount } from '../../../../api/contract/watch-tower';
import { PLATFORM_LABEL } from '../../../../api/contract/wording';
import { useQuery } from '../../../api/hooks';
import { errorMessage } from '../../../api/client';
import { Card } from '../../../ui/Card';
import { Spinner, useDelayedSpinner } from '../../../ui/Spinner';
import { Table, type Column } from '../../../ui/Table';
import { formatNumber } from '../../../ui/format';
import { SEARCH_DEBOUNCE_MS } from '../../search/useCustomerSearch';

function activeApps(account: WatchTowerAccount) {
  return account.apps.filter((a) => (ACTIVE_STATUSES as readonly string[]).includes(a.status));
}

const columns: Column<WatchTowerAccount>[] = [
  {
    key: 'name',
    header: 'Account',
    render: (a) => (
      <>
        <Link href={`/accounts/${a.id}`}>{a.name}</Link>
        {a.smsHeldRanges > 0 ? (
          <>
            {' '}
            <span
              className="badge badge-danger"
              title="The SMS fraud guard holds number ranges of this account (suspected SMS pumping)"
            >
              SMS held: {a.smsHeldRanges}
            </span>
          </>
        ) : null}
      </>
    ),
  },
  {
    key: 'apps',
    header: 'Active apps',
    render: (a) => {
      const apps = activeApps(a);
      return apps.length ? (
        <span className="chip-list">
          {apps.map((x) => (
            <span key={x.id} className={`badge badge-${x.status}`} title={x.status}>
              {getApp(x.id)?.title ?? x.id}
            </span>
          ))}
        </span>
      ) : (
        <span className="muted">None</span>
      );
    },
  },
  // SPEC §2 names the column platform; the answer's field is SPEC §3's provider
  { key: 'provider', header: 'Platform', render: (a) => PLATFORM_LABEL[a.provider] },
];

/** Every account, searched on the server as staff type (name, id, admin name or e-mail). */
export default function WatchTowerAccounts() {
  const [query, setQuery] = useState('');
  const [term, setTerm] = useState('');
  const [, navigate] = useLocation();

  useEffect(() => {
    const timer = setTimeout(() => setTerm(query.trim()), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [query]);

  const { data, error, loading } = useQuery(`watch-tower:accounts:${term}`, (api, signal) =>
    api.get<AccountList>('watch-tower/accounts', { query: { q: term || undefined }, signal }),
  );
  const spinner = useDelayedSpinner(loading || term !== query.trim());

  // Enter opens the first result of what is typed now: at once when its answer is here, or as
  // soon as it arrives (skipping the rest of the debounce).
  const [pendingOpen, setPendingOpen] = useState(false);
  const current = term === query.trim() && !loading;
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key !== 'Enter') return;
    e.preventDefault();
    const first = current ? data?.accounts[0] : undefined;
    if (first) navigate(`/accounts/${first.id}`);
    else if (!current) {
      setTerm(query.trim());
      setPendingOpen(true);
    }
  };
  useEffect(() => {
    if (!pendingOpen || !current) return;
    setPendingOpen(false);
    const first = data?.accounts[0];
    if (first) navigate(`/accounts/${first.id}`);
  }, [pendingOpen, current, data, navigate]);

  return (
    <div className="page">
      <div className="page-heading">
        <h1 className="page-title">Accounts</h1>
        {data && <span className="badge">{formatNumber(data.activeAccounts)} active accounts</span>}
      </div>
      <Card>
        <div className="search-box">
          <label htmlFor="account-search" className="sr-only">
            Search accounts
          </label>
          <input
            id="account-search"
            className="input"
            type="search"
            autoFocus
            autoComplete="off"
            placeholder="Search by account name, account id, admin name or e-mail"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            onKeyDown={onKeyDown}
          />
          {spinner && (
            <span className="search-spinner">
              <Spinner size="sm" label="Searching accounts" />
            </span>
          )}
        </div>
        {error !== undefined && <p role="alert">Accounts could not be loaded: {errorMessage(error)}</p>}
        {data && data.matching > data.accounts.length && (
          <p className="muted">
            Showing {data.accounts.length} of {formatNumber(data.matching)} accounts: refine the search to see others.
          </p>
        )}
        <Table
          caption="Accounts"
          columns={columns}
          rows={data?.accounts}
          rowKey={(a) => a.id}
          loading={loading}
          empty={term ? `No accounts match "${term}"` : 'No accounts yet'}
        />
      </Card>
    </div>
  );
}
