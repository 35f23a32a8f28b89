import { Hono } from 'hono';
import { sql } from 'kysely';
import type { AppEnv } from '../auth/context';
import { requireRole } from '../auth/guards';
import { isAppId } from '../contract/apps';
import { CUSTOMER_SEARCH_LIMIT, CustomerSearchQuerySchema, phoneQuery, type CustomerResult } from '../contract/results';
import { validate } from '../http/validate';

type Row = { id: string; app: string; status: CustomerResult['status']; ts: Date; session_ref: string; phone_number: string | null; customer_ref: string | null };

export const resultsRoutes = new Hono<AppEnv>().get(
  '/results/customer',
  requireRole('admin'),
  validate('query', CustomerSearchQuerySchema),
  async (c) => {
    const { customerRef } = c.req.valid('query');
    const session = c.var.session;
    const phone = phoneQuery(customerRef);
    const rows = await c.var.deps.db.tenant(session.accountId, async (trx) => {
      // Each branch is a newest-first range of one index; the union is at most twice the limit.
      const byRef = sql<Row>`(select id, app, status, ts, session_ref, phone_number, customer_ref from customer_results
        where account_id = ${session.accountId} and customer_ref = ${customerRef}
        order by ts desc limit ${CUSTOMER_SEARCH_LIMIT})`;
      const query = phone
        ? sql<Row>`select * from (${byRef} union ${sql`(select id, app, status, ts, session_ref, phone_number, customer_ref from customer_results
            where account_id = ${session.accountId} and phone_number = ${phone}
            order by ts desc limit ${CUSTOMER_SEARCH_LIMIT})`}) r order by ts desc, id desc limit ${CUSTOMER_SEARCH_LIMIT}`
        : byRef;
      return (await query.execute(trx)).rows;
    });
    const results: CustomerResult[] = rows
      .filter((r) => isAppId(r.app))
      .map((r) => ({
        id: r.id,
        app: r.app as CustomerResult['app'],
        status: r.status,
        timestamp: new Date(r.ts).toISOString(),
        sessionRef: r.session_ref,
        phoneNumber: r.phone_number,
        customerRef: r.customer_ref,
      }));
    return c.json({ results });
  },
);
