import type { ReactNode } from 'react';
import { EmptyState } from './Card';
import { ScrollArea } from './ScrollArea';
import { LoadingPanel } from './Spinner';

/**
 * `label`: the header as plain words, which each cell repeats when the table stacks into a list in
 * a narrow side panel (tables-and-overlays.css); by default the header itself when it is a string.
 */
export type Column<T> = { key: string; header: ReactNode; render: (row: T) => ReactNode; className?: string; label?: string };

const labelOf = <T,>(c: Column<T>) => c.label ?? (typeof c.header === 'string' ? c.header : '');

type TableProps<T> = {
  caption: string;
  columns: Column<T>[];
  rows: T[] | undefined;
  rowKey: (row: T) => string;
  loading?: boolean;
  empty?: ReactNode;
  /** show the caption to sighted users too */
  showCaption?: boolean;
  /** a class for a row (e.g. `row-changed` for one that just changed) */
  rowClassName?: (row: T) => string | undefined;
};

export function Table<T>({
  caption,
  columns,
  rows,
  rowKey,
  loading,
  empty = 'Nothing here yet',
  showCaption,
  rowClassName,
}: TableProps<T>) {
  if (loading && !rows) return <LoadingPanel label={`Loading ${caption}`} />;
  if (!rows?.length)
    return <EmptyState title={typeof empty === 'string' ? empty : ''}>{typeof empty === 'string' ? null : empty}</EmptyState>;
  return (
    <ScrollArea label={caption} className="table-wrap">
      {/* 400 px and narrower (Zoom, Webex side panels): each row stacks into a card of label and value */}
      <table className="table table-stacks">
        <caption className={showCaption ? 'table-caption' : 'sr-only'}>{caption}</caption>
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c.key} scope="col" className={c.className}>
                {c.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)} className={rowClassName?.(row)}>
              {columns.map((c) => (
                <td key={c.key} className={c.className} data-label={labelOf(c) || undefined}>
                  {c.render(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollArea>
  );
}
