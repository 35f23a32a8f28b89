import { sql } from 'kysely';
import type { AuditEntry } from '../contract/audit-log';
import type { Database, Trx } from '../db/index';
import type { Deps } from '../deps';

// Newest first, paged by key: (ts, id) of the last row seen. With the index
// (account_id, ts desc, id desc) page N is one index range scan, as cheap as page 1, and rows
// written meanwhile never shift a page (no duplicates, no gaps), unlike offset paging.

type Row = {
  id: number;
  ts: Date;
  key_ts: string;
  admin_first_name: string | null;
  admin_last_name: string | null;
  namespace: string;
  description: string;
  event: string;
};

/** Microsecond timestamps: a JS Date keeps milliseconds, which would make keys ambiguous. */
const keyOf = (row: Row) => `${row.key_ts}_${row.id}`;

export function parseKey(key: string | undefined): { ts: string; id: number } | null {
  if (!key) return null;
  const at = key.lastIndexOf('_');
  return { ts: key.slice(0, at), id: Number(key.slice(at + 1)) };
}

async function page(trx: Trx, accountId: string, after: { ts: string; id: number } | null, limit: number): Promise<Row[]> {
  const result = await sql<Row>`
    select id, ts, to_char(ts at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as key_ts,
           admin_first_name, admin_last_name, namespace, description, event
    from audit_log
    where account_id = ${accountId}
      ${after ? sql`and (ts, id) < (${after.ts}::timestamptz, ${after.id}::bigint)` : sql``}
    order by ts desc, id desc
    limit ${limit}`.execute(trx);
  return result.rows.map((row) => ({ ...row, id: Number(row.id) }));
}

const entryOf = (row: Row): AuditEntry => ({
  id: row.id,
  timestamp: new Date(row.ts).toISOString(),
  ...(row.admin_first_name !== null || row.admin_last_name !== null
    ? { admin: { firstName: row.admin_first_name ?? '', lastName: row.admin_last_name ?? '' } }
    : {}),
  namespace: row.namespace,
  description: row.description,
  event: row.event,
});

/** Shown where an entry has no admin: the provider made the change. */
export const PROVIDER_ACTOR = 'Provider';

export const EXPORT_BATCH = 5000;

export type CsvBatch = { text: string; rows: number; lastKey: string | null };

const FORMULA_START = new Set(['-', '=', '+', '@', '\t', '\r', '\uFF1D', '\uFF0B', '\uFF0D', '\uFF20']);
const NEEDS_QUOTES = /[",\r\n]/;

/**
 * One CSV cell exactly as csv-stringify writes it with escape_formulas (the test compares the
 * two): a cell a spreadsheet would run as a formula gets a leading apostrophe; a cell with a
 * comma, quote, CR or LF is quoted with its quotes doubled. A few string checks per cell, where
 * the library's general path cost about 5 µs a row.
 */
export function csvCell(value: string | null): string {
  if (!value) return '';
  const cell = FORMULA_START.has(value[0]!) ? `'${value}` : value;
  return NEEDS_QUOTES.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell;
}

/** '2024-05-01T14:03:22.123456Z' from microseconds since 1970: the keyset key, exact to the µs. */
function isoMicros(us: number): string {
  const micros = ((us % 1_000_000) + 1_000_000) % 1_000_000;
  return `${new Date((us - micros) / 1000).toISOString().slice(0, 19)}.${String(micros).padStart(6, '0')}Z`;
}

/**
 * The next EXPORT_BATCH entries as CSV lines. The timestamp comes as microseconds (a number, not a
 * Date the driver would parse), and the lines are built into one string per batch.
 */
export async function csvBatch(
  db: Database,
  accountId: string,
  after: { ts: string; id: number } | null,
  format: (date: Date) => string,
): Promise<CsvBatch> {
  const rows = await db.tenant(
    accountId,
    async (trx) =>
      (
        await sql<{
          id: number;
          us: number;
          admin_first_name: string | null;
          admin_last_name: string | null;
          namespace: string;
          description: string;
          event: string;
        }>`
      select id, (extract(epoch from ts) * 1000000)::bigint as us, admin_first_name, admin_last_name, namespace, description, event
      from audit_log
      where account_id = ${accountId}
        ${after ? sql`and (ts, id) < (${after.ts}::timestamptz, ${after.id}::bigint)` : sql``}
      order by ts desc, id desc
      limit ${EXPORT_BATCH}`.execute(trx)
      ).rows,
  );
  let text = '';
  for (const row of rows) {
    const admin =
      row.admin_first_name !== null || row.admin_last_name !== null
        ? [row.admin_first_name, row.admin_last_name].filter(Boolean).join(' ')
        : PROVIDER_ACTOR;
    text += `${format(new Date(Math.floor(Number(row.us) / 1000)))},${csvCell(admin)},${csvCell(row.description)},${csvCell(row.event)},${csvCell(row.namespace)}\n`;
  }
  const last = rows[rows.length - 1];
  const batch = { text, rows: rows.length, lastKey: last ? `${isoMicros(Number(last.us))}_${last.id}` : null };
  // Emptied, not just dropped. This array is the driver's own (pg's Result.rows, which Kysely
  // hands on). Without this line, on 1,000,000 rows, V8's young-generation collector promoted
  // every batch's rows to the old generation (--trace-gc-nvp; a sampling heap profile of what
  // outlived young collections put 260 of 340 MB in pg's row parsing), where only a full
  // collection freed them: 75 MB of garbage between full collections, peak RSS 192 MB. So after
  // the batch something the young collector counts as live still reaches this array; which
  // object was not pinned down (an async frame or result object already in the old generation
  // is the usual cause). Emptied, the rows die young: no full collection during the export,
  // peak RSS 119-123 MB, a quarter less CPU.
  rows.length = 0;
  return batch;
}

/** One page of the log, newest first, with the account's total and the key of the next page. */
export async function readAuditPage(
  deps: Deps,
  accountId: string,
  lastKey: string | undefined,
  limit: number,
): Promise<{ entries: AuditEntry[]; count: number; lastKey: string | null }> {
  // the page and the total in one transaction (one round trip each, no second BEGIN/COMMIT)
  const [rows, count] = await deps.db.tenant(
    accountId,
    async (trx) =>
      [
        await page(trx, accountId, parseKey(lastKey), limit + 1),
        await trx.selectFrom('audit_counts').select('count').where('account_id', '=', accountId).executeTakeFirst(),
      ] as const,
  );
  const more = rows.length > limit;
  const shown = more ? rows.slice(0, limit) : rows;
  return {
    entries: shown.map(entryOf),
    count: Number(count?.count ?? 0),
    lastKey: more ? keyOf(shown[shown.length - 1]!) : null,
  };
}
