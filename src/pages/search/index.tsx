import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { useLocation } from 'wouter';
import { getApp } from '../../../api/contract/apps';
import { resultLink, type CustomerResult } from '../../../api/contract/results';
import { Dialog } from '../../ui/Dialog';
import { Spinner, useDelayedSpinner } from '../../ui/Spinner';
import { formatDate, formatDateTime, shortenId } from '../../ui/format';
import { maskPhone } from './ids';
import { useCustomerSearch } from './useCustomerSearch';

const STATUS_LABEL: Record<CustomerResult['status'], string> = { success: 'Success', failure: 'Failure', timeout: 'Timeout' };

/**
 * The global customer search: type a customer ID (or phone number), pick a result with the
 * arrow keys and Enter (or a click) to open it in its app's activity list.
 */
export default function SearchDialog({ onClose }: { onClose: () => void }) {
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const search = useCustomerSearch(query);
  const spinner = useDelayedSpinner(search.loading);
  const [, navigate] = useLocation();
  const listId = useId();
  const results = search.results ?? [];
  const list = useRef<HTMLUListElement>(null);

  // the active option is chosen from the input, so bring it into view as the arrows move it
  useEffect(() => {
    list.current?.children[active]?.scrollIntoView?.({ block: 'nearest' });
  }, [active]);

  const open = (result: CustomerResult) => {
    onClose();
    navigate(resultLink(result));
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (!results.length) return;
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      const step = e.key === 'ArrowDown' ? 1 : -1;
      setActive((i) => (i + step + results.length) % results.length);
    } else if (e.key === 'Enter') {
      e.preventDefault();
      const chosen = results[Math.min(active, results.length - 1)];
      if (chosen) open(chosen);
    }
  };

  const optionId = (i: number) => `${listId}-${i}`;
  const showResults = search.term && !search.loading && !search.pending;

  return (
    <Dialog open onClose={onClose} title="Search customers" size="md">
      <div className="search-box">
        <label htmlFor="customer-search" className="sr-only">
          Customer ID or phone number
        </label>
        <input
          id="customer-search"
          className="input"
          type="search"
          autoFocus
          autoComplete="off"
          placeholder="Search by customer ID or phone number"
          value={query}
          role="combobox"
          aria-expanded={results.length > 0}
          aria-controls={listId}
          aria-activedescendant={results.length ? optionId(Math.min(active, results.length - 1)) : undefined}
          onChange={(e) => {
            setQuery(e.target.value);
            setActive(0);
          }}
          onKeyDown={onKeyDown}
        />
        {spinner && (
          <span className="search-spinner">
            <Spinner size="sm" label="Searching" />
          </span>
        )}
      </div>
      {/* focusable so the results can be scrolled from the keyboard in browsers that do not move
          focus into a scrolling box (Safari) */}
      <div
        className="search-results"
        style={{ height: 300 }}
        aria-live="polite"
        role="region"
        aria-label="Search results"
        tabIndex={0}
      >
        {showResults && search.error !== undefined && (
          <p className="search-message search-error" role="alert">
            An error occurred during search
          </p>
        )}
        {showResults && search.results?.length === 0 && (
          <div className="search-message">
            <p className="empty-state-title">No results found for "{search.term}"</p>
            <p className="muted">Try searching for a different customer ID.</p>
          </div>
        )}
        {!search.term && <p className="search-message muted">Results for the customer show here, newest first.</p>}
        <ul ref={list} id={listId} role="listbox" aria-label="Customer results" className="search-list">
          {results.map((r, i) => {
            const app = getApp(r.app)?.title ?? r.app;
            const phone = r.phoneNumber ? maskPhone(r.phoneNumber) : null;
            // read out as one sentence: the masked phone's bullets and the shortened id's ellipsis
            // mean nothing spoken, so the name says the last digits and the whole session id
            const name = [
              app,
              r.customerRef ? `customer ${r.customerRef}` : 'no customer ID',
              r.phoneNumber ? `phone ending ${r.phoneNumber.slice(-4)}` : null,
              STATUS_LABEL[r.status],
              formatDateTime(r.timestamp),
              `session ${r.sessionRef}`,
            ]
              .filter(Boolean)
              .join(', ');
            return (
              <li
                key={r.id}
                id={optionId(i)}
                role="option"
                aria-selected={i === active}
                aria-label={name}
                className={i === active ? 'search-item search-item-active' : 'search-item'}
                onMouseEnter={() => setActive(i)}
                onClick={() => open(r)}
              >
                <span className="search-item-line">
                  <span className="search-item-app">
                    {/* the app colour marks the result; as text colour it is too pale to read */}
                    <span className="app-dot" style={{ background: getApp(r.app)?.color }} aria-hidden="true" />
                    {app}
                  </span>
                  <span
                    className={`badge badge-${r.status === 'success' ? 'success' : r.status === 'failure' ? 'danger' : 'warning'}`}
                  >
                    {STATUS_LABEL[r.status]}
                  </span>
                  <time className="muted search-item-time" dateTime={r.timestamp} title={formatDateTime(r.timestamp)}>
                    {formatDate(r.timestamp)}
                  </time>
                </span>
                <span className="search-item-line">
                  <span className="search-item-customer">{r.customerRef ?? <span className="muted">No customer ID</span>}</span>
                  {phone && <span className="muted">{phone}</span>}
                  {/* always SPEC's first and last 6 (§2, §9); two refs that read the same here
                      differ in the tooltip and the spoken name, which carry the whole id */}
                  <span className="search-item-ref muted" title={r.sessionRef}>
                    {shortenId(r.sessionRef)}
                  </span>
                </span>
              </li>
            );
          })}
        </ul>
      </div>
    </Dialog>
  );
}
