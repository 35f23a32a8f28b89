import { sql } from 'kysely';
import type { Deps } from '../../deps';
import type { Trx } from '../../db/index';

/**
 * What an app's expiry sweep is made of: its task table, the statuses a task may still expire in,
 * the column that says when, and what expiring one does (the app's own `expireIfDue`: status,
 * result, timeline, webhook, audit). The app does the same lazily whenever it reads a task.
 */
export type Expiry<Row> = {
  table: 'otp_verifications' | 'eform_requests' | 'passkey_tasks' | 'sig_requests' | 'idv_sessions';
  statuses: readonly string[];
  expiresAt: 'expires_at' | 'link_expires_at';
  expire: (trx: Trx, accountId: string, row: Row, now: Date) => Promise<unknown>;
};

/**
 * The durable expiry sweep every app shares: open tasks past their time expire, a batch at a
 * time, each in its account's transaction (row-level security), whichever process gets there
 * first (a task another process holds is skipped, and found by the next sweep if still due).
 * Answers how many were due.
 */
export async function sweepDue<Row>(deps: Pick<Deps, 'db' | 'now'>, expiry: Expiry<Row>, limit = 200): Promise<number> {
  const now = deps.now();
  const open = sql.join(expiry.statuses.map((s) => sql`${s}`));
  const table = sql.table(expiry.table);
  const due = await deps.db.system((trx) =>
    sql<{
      id: string;
      account_id: string;
    }>`select id, account_id from ${table} where status in (${open}) and ${sql.ref(expiry.expiresAt)} <= ${now}
      order by ${sql.ref(expiry.expiresAt)} limit ${limit}`.execute(trx),
  );
  for (const d of due.rows) {
    await deps.db.tenant(d.account_id, async (trx) => {
      const row = (
        await sql<Row>`select * from ${table} where id = ${d.id} and status in (${open}) for update skip locked`.execute(trx)
      ).rows[0];
      if (row) await expiry.expire(trx, d.account_id, row, now);
    });
  }
  return due.rows.length;
}
