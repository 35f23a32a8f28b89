import type { ReactNode } from 'react';
import type { TaskColumn, TaskRow } from '../../../../api/contract/platform';
import { formatMinor } from '../../../../api/contract/money';
import { formatDate, formatDateTime, formatNumber, shortenId } from '../../../ui/format';
import { Button } from '../../../ui/Button';
import { copyToClipboard } from '../../settings/clipboard';

// How a task's columns show in lists: the app names its columns and their kind (contract), the
// frame renders each kind the same way in every app.

// 'submitted' is good where it ends the task (an eForm submission); an app whose submitted means
// "waiting for a reviewer" (Identity Verification) gives its column its own tones.
const GOOD = new Set(['approved', 'verified', 'succeeded', 'completed', 'signed', 'paid', 'success', 'enrolled', 'submitted']);
const BAD = new Set(['failed', 'max_attempts_reached', 'expired', 'canceled', 'cancelled', 'declined', 'rejected', 'failure']);

/** 'max_attempts_reached' -> 'Max attempts reached' */
export function statusLabel(status: string): string {
  const words = status.replace(/[_-]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export type StatusTones = NonNullable<TaskColumn['tones']>;

/** A status as a badge; `tones` (the app's own, by status) wins over the shared guess. */
export function StatusBadge({ status, tones }: { status: string; tones?: StatusTones }) {
  const own = tones?.[status];
  const tone = own ? `badge-${own}` : GOOD.has(status) ? 'badge-success' : BAD.has(status) ? 'badge-danger' : 'badge-warning';
  return <span className={`badge ${tone}`}>{statusLabel(status)}</span>;
}

/** A column's value in a row: top-level fields first, then the app's own values. */
export function cellValue(row: TaskRow, key: string): string | number | null {
  if (key in row && key !== 'values') {
    const v = (row as Record<string, unknown>)[key];
    return typeof v === 'string' || typeof v === 'number' ? v : null;
  }
  return row.values[key] ?? null;
}

/** A moment in a list of events: "3 hours ago" while recent, the day after 30 days, in full on hover. */
export function ListDate({ value }: { value: string }) {
  return (
    <time dateTime={value} title={formatDateTime(value)}>
      {formatDate(value)}
    </time>
  );
}

export function TaskCell({ column, row }: { column: TaskColumn; row: TaskRow }) {
  const value = cellValue(row, column.key);
  if (value === null || value === '') return <span className="muted">—</span>;
  switch (column.kind) {
    case 'id':
      return (
        <code title={String(value)} className="task-id">
          {shortenId(String(value))}
        </code>
      );
    case 'status':
      return <StatusBadge status={String(value)} tones={column.tones} />;
    case 'number':
      return <>{typeof value === 'number' ? formatNumber(value) : value}</>;
    case 'date':
      return <ListDate value={String(value)} />;
    case 'phone':
      return <span className="nowrap">{value}</span>;
    case 'money':
      return <span className="nowrap">{formatMinor(Number(value), String(row.values.currency ?? 'usd'))}</span>;
    case 'currency':
      // as people write it: USD, not Stripe's "usd"
      return <>{String(value).toUpperCase()}</>;
    default:
      return <>{value}</>;
  }
}

/**
 * People first, ids last: a list leads with what a person recognises (customer, phone, amount,
 * document, form) and keeps the ids (task, Stripe's cs_/pi_) for its last columns.
 */
export function peopleFirst(columns: readonly TaskColumn[]): TaskColumn[] {
  return [...columns.filter((c) => c.kind !== 'id'), ...columns.filter((c) => c.kind === 'id')];
}

/** An id in a detail: shortened as SPEC §9 says, in full on hover, with a button that copies it whole. */
export function IdValue({ label, value }: { label: string; value: string }) {
  return (
    <span className="id-value">
      <code title={value}>{shortenId(value)}</code>{' '}
      <Button
        size="sm"
        variant="ghost"
        aria-label={`Copy the ${label.toLowerCase()}`}
        onClick={() => copyToClipboard(label, value)}
        successLabel="Copied"
      >
        Copy
      </Button>
    </span>
  );
}

/** A task's facts in its detail: people first, each id in a row of its own with a copy button. */
export function taskFacts(columns: readonly TaskColumn[], row: TaskRow): [string, ReactNode][] {
  return peopleFirst(columns).map((c) => {
    const value = cellValue(row, c.key);
    return [
      c.label,
      c.kind === 'id' && value !== null && value !== '' ? (
        <IdValue label={c.label} value={String(value)} />
      ) : (
        <TaskCell column={c} row={row} />
      ),
    ];
  });
}

/**
 * A dashboard's "Latest" list beside the send form: what a person reads first (up to five of the
 * people columns: no ids, counts or end times) and when it was sent, so it fits its column
 * without scrolling or a header row of wrapped names. The activity list has every column.
 */
export function latestColumns(columns: readonly TaskColumn[]): TaskColumn[] {
  const created = columns.find((c) => c.key === 'createdAt');
  const people = peopleFirst(columns).filter((c) => c.kind !== 'id' && c.kind !== 'number' && c.kind !== 'date');
  return [...people.slice(0, 5), ...(created ? [created] : [])];
}
