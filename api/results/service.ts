import { sql } from 'kysely';
import { isAppId } from '../contract/apps';
import { CUSTOMER_SEARCH_LIMIT, phoneQuery, type CustomerResult } from '../contract/results';
import type { Deps } from '../deps';

// The header's customer search: an account's results for one customer id or phone number.

type Row = {
  id: string;
  app: string;
  status: CustomerResult['status'];
  ts: Date;
  session_ref: string;
  phone_number: string | null;
  customer_ref: string | null;
};

/** The newest results whose customer id is `customerRef`, or whose phone number it is. */
export async function searchCustomerResults(deps: Deps, accountId: string, customerRef: string): Promise<CustomerResult[]> {
  const phone = phoneQuery(customerRef);
  const rows = await deps.db.tenant(accountId, async (trx) => {
    // Each branch is a newest-first range of one index; the union is at most twice the limit.
    const byRef = sql<Row>`(select id, app, status, ts, session_ref, phone_number, customer_ref from customer_results
      where account_id = ${accountId} and customer_ref = ${customerRef}
      order by ts desc limit ${CUSTOMER_SEARCH_LIMIT})`;
    const query = phone
      ? sql<Row>`select * from (${byRef} union ${sql`(select id, app, status, ts, session_ref, phone_number, customer_ref from customer_results
          where account_id = ${accountId} and phone_number = ${phone}
          order by ts desc limit ${CUSTOMER_SEARCH_LIMIT})`}) r order by ts desc, id desc limit ${CUSTOMER_SEARCH_LIMIT}`
      : byRef;
    return (await query.execute(trx)).rows;
  });
  return rows
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
}
