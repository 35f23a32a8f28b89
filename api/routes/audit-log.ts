import { Hono } from 'hono';
import { sql } from 'kysely';
import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify';
import type { AppEnv } from '../auth/context';
import { requireRole } from '../auth/guards';
import {
  AUDIT_COUNT_HEADER,
  AUDIT_LAST_KEY_HEADER,
  AUDIT_PAGE_SIZE,
  AuditExportQuerySchema,
  AuditQuerySchema,
  type AuditEntry,
} from '../contract/audit-log';
import type { Database } from '../db/index';
import { validate } from '../http/validate';

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

function parseKey(key: string | undefined): { ts: string; id: number } | null {
  if (!key) return null;
  const at = key.lastIndexOf('_');
  return { ts: key.slice(0, at), id: Number(key.slice(at + 1)) };
}

async function page(db: Database, accountId: string, after: { ts: string; id: number } | null, limit: number): Promise<Row[]> {
  return db.tenant(accountId, async (trx) => {
    const result = await sql<Row>`
      select id, ts, to_char(ts at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as key_ts,
             admin_first_name, admin_last_name, namespace, description, event
      from audit_log
      where account_id = ${accountId}
        ${after ? sql`and (ts, id) < (${after.ts}::timestamptz, ${after.id}::bigint)` : sql``}
      order by ts desc, id desc
      limit ${limit}`.execute(trx);
    return result.rows.map((row) => ({ ...row, id: Number(row.id) }));
  });
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

/** '2024-05-01 14:03:22 +01:00' in the given zone: what a spreadsheet and a person both read. */
export function zonedDateTime(date: Date, timeZone: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
      timeZoneName: 'longOffset',
    })
      .formatToParts(date)
      .map((p) => [p.type, p.value]),
  );
  const offset = parts.timeZoneName === 'GMT' ? '+00:00' : String(parts.timeZoneName).replace('GMT', '');
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:${parts.second} ${offset}`;
}

const EXPORT_BATCH = 1000;

export const auditLogRoutes = new Hono<AppEnv>()
  .get('/audit-log', requireRole('admin'), validate('query', AuditQuerySchema), async (c) => {
    const { lastKey, limit = AUDIT_PAGE_SIZE } = c.req.valid('query');
    const { accountId } = c.var.session;
    const { db } = c.var.deps;
    const rows = await page(db, accountId, parseKey(lastKey), limit + 1);
    const more = rows.length > limit;
    const shown = more ? rows.slice(0, limit) : rows;
    const count = await db.tenant(accountId, (trx) =>
      trx.selectFrom('audit_counts').select('count').where('account_id', '=', accountId).executeTakeFirst(),
    );
    c.header(AUDIT_COUNT_HEADER, String(count?.count ?? 0));
    c.header('access-control-expose-headers', `${AUDIT_COUNT_HEADER}, ${AUDIT_LAST_KEY_HEADER}`);
    if (more) c.header(AUDIT_LAST_KEY_HEADER, keyOf(shown[shown.length - 1]!));
    return c.json(shown.map(entryOf));
  })

  /** The whole log as CSV, written as it is read, a batch at a time. */
  .get('/audit-log/export', requireRole('admin'), validate('query', AuditExportQuerySchema), async (c) => {
    const query = c.req.valid('query');
    const timeZone = query.timezone ?? c.var.session.timeZone;
    const { accountId } = c.var.session;
    const { db, now, log } = c.var.deps;

    // Everything that can fail on the request's input happens before the first byte: the key is
    // parsed and the first batch read here, so bad input is a 400 and not a CSV cut off mid-way.
    const day = zonedDateTime(now(), timeZone).slice(0, 10);
    const firstBatch = await page(db, accountId, parseKey(query.lastKey), EXPORT_BATCH);

    async function* rows() {
      let batch = firstBatch;
      for (;;) {
        for (const row of batch) {
          const admin = row.admin_first_name !== null || row.admin_last_name !== null ? [row.admin_first_name, row.admin_last_name].filter(Boolean).join(' ') : PROVIDER_ACTOR;
          yield [zonedDateTime(new Date(row.ts), timeZone), admin, row.description, row.event, row.namespace];
        }
        if (batch.length < EXPORT_BATCH) return;
        batch = await page(db, accountId, parseKey(keyOf(batch[batch.length - 1]!)), EXPORT_BATCH);
      }
    }

    const csv = stringify({
      header: true,
      columns: [`Date (${timeZone})`, 'Admin', 'Description', 'Event', 'Namespace'],
      // a cell starting with = + - @ would run as a formula in a spreadsheet
      escape_formulas: true,
    });
    const source = Readable.from(rows());
    source.on('error', (err) => {
      log('audit log export failed', err);
      csv.destroy(err);
    });
    source.pipe(csv);
    return new Response(Readable.toWeb(csv) as ReadableStream, {
      headers: {
        'content-type': 'text/csv; charset=utf-8',
        'content-disposition': `attachment; filename="audit-log-${day}.csv"`,
        'cache-control': 'no-store',
      },
    });
  });
