import { Hono } from 'hono';
import type { AppEnv } from '../auth/context';
import { requireRole } from '../auth/guards';
import {
  AUDIT_COUNT_HEADER,
  AUDIT_LAST_KEY_HEADER,
  AUDIT_PAGE_SIZE,
  AuditExportQuerySchema,
  AuditQuerySchema,
} from '../contract/audit-log';
import { validate } from '../http/validate';
import { zonedDateTime, zonedFormatter } from '../http/zoned-time';
import { csvBatch, csvCell, EXPORT_BATCH, parseKey, readAuditPage, type CsvBatch } from './service';

export const auditLogRoutes = new Hono<AppEnv>()
  .get('/audit-log', requireRole('admin'), validate('query', AuditQuerySchema), async (c) => {
    const { lastKey, limit = AUDIT_PAGE_SIZE } = c.req.valid('query');
    const page = await readAuditPage(c.var.deps, c.var.session.accountId, lastKey, limit);
    c.header(AUDIT_COUNT_HEADER, String(page.count));
    c.header('access-control-expose-headers', `${AUDIT_COUNT_HEADER}, ${AUDIT_LAST_KEY_HEADER}`);
    if (page.lastKey) c.header(AUDIT_LAST_KEY_HEADER, page.lastKey);
    return c.json(page.entries);
  })

  /** The whole log as CSV, written as it is read, a batch at a time. */
  .get('/audit-log/export', requireRole('admin'), validate('query', AuditExportQuerySchema), async (c) => {
    const query = c.req.valid('query');
    const timeZone = query.timezone ?? c.var.session.timeZone;
    const { accountId } = c.var.session;
    const { db, now, log } = c.var.deps;

    const format = zonedFormatter(timeZone);
    const encoder = new TextEncoder();
    // Everything that can fail on the request's input happens before the first byte: the key is
    // parsed and the first batch read here, so bad input is a 400 and not a CSV cut off mid-way.
    let after = parseKey(query.lastKey);
    let first: CsvBatch | null = await csvBatch(db, accountId, after, format);
    let done = false;
    // Pulled one batch at a time, only when the client has taken the previous one: a slow
    // reader holds the export back instead of making the server buffer the whole log.
    const body = new ReadableStream<Uint8Array>(
      {
        async pull(controller) {
          try {
            const header = first
              ? `${[`Date (${timeZone})`, 'Admin', 'Description', 'Event', 'Namespace'].map(csvCell).join(',')}\n`
              : '';
            const batch = first ?? (await csvBatch(db, accountId, after, format));
            first = null;
            if (batch.rows < EXPORT_BATCH) done = true;
            if (batch.lastKey) after = parseKey(batch.lastKey);
            const text = header + batch.text;
            if (text) controller.enqueue(encoder.encode(text));
            if (done) controller.close();
          } catch (err) {
            log('audit log export failed', err);
            controller.error(err);
          }
        },
      },
      { highWaterMark: 1 },
    );
    const day = zonedDateTime(now(), timeZone).slice(0, 10);
    return new Response(body, {
      headers: {
        'content-type': 'text/csv; charset=utf-8',
        'content-disposition': `attachment; filename="audit-log-${day}.csv"`,
        'cache-control': 'no-store',
      },
    });
  });
