import { sql } from 'kysely';
import type { Trx } from '../db/index';
import type { AppId } from '../contract/apps';
import type { ResultStatus } from '../contract/results';
import { markSmsAnswered } from '../sms-guard/service';

export type NewResult = {
  app: AppId;
  status: ResultStatus;
  /** when the task completed; defaults to now */
  ts?: Date;
  sessionRef: string;
  phoneNumber?: string | null;
  customerRef?: string | null;
};

/**
 * Records one completed task and counts it in the daily rollup in the caller's transaction, so
 * the statistics always agree with the results. Every app's activity records through here.
 */
export async function recordResult(trx: Trx, accountId: string, result: NewResult): Promise<{ id: string; ts: Date }> {
  const [row] = await recordResults(trx, accountId, [result]);
  return row!;
}

/** Several results of one account at once (imports, the demo seed): one insert, one upsert. */
export async function recordResults(
  trx: Trx,
  accountId: string,
  results: readonly NewResult[],
): Promise<{ id: string; ts: Date }[]> {
  if (results.length === 0) return [];
  const now = new Date();
  // One array per column: a batch costs seven parameters, however many rows it has.
  const col = <T>(f: (r: NewResult) => T) => results.map(f);
  const rows = (
    await sql<{ id: string; ts: Date; app: string; day: string }>`
      insert into customer_results (account_id, app, status, ts, session_ref, phone_number, customer_ref)
      select ${accountId}::uuid, app, status, ts, session_ref, phone_number, customer_ref
      from unnest(${col((r) => r.app)}::text[], ${col((r) => r.status)}::text[], ${col((r) => (r.ts ?? now).toISOString())}::timestamptz[],
                  ${col((r) => r.sessionRef)}::text[], ${col((r) => r.phoneNumber ?? null)}::text[], ${col((r) => r.customerRef ?? null)}::text[])
        as t(app, status, ts, session_ref, phone_number, customer_ref)
      returning id, ts, app, (ts at time zone 'UTC')::date::text as day`.execute(trx)
  ).rows;
  const counts = new Map<string, DailyCount>();
  for (const r of rows) {
    const key = `${r.app} ${r.day}`;
    const c = counts.get(key);
    if (c) c.count += 1;
    else counts.set(key, { app: r.app, day: r.day, count: 1 });
  }
  await addToDailyRollup(trx, accountId, [...counts.values()]);
  // a completed task means its SMS reached a person: the pumping rules count it as answered
  await markSmsAnswered(
    trx,
    accountId,
    results.filter((r) => r.status === 'success' && r.phoneNumber).map((r) => r.phoneNumber!),
  );
  return rows.map((r) => ({ id: r.id, ts: new Date(r.ts) }));
}

export type DailyCount = { app: string; day: string; count: number };

/** Adds recorded results to the per-day rollup; only the recording functions call it. */
export async function addToDailyRollup(trx: Trx, accountId: string, counts: readonly DailyCount[]): Promise<void> {
  if (counts.length === 0) return;
  await trx
    .insertInto('result_daily')
    .values(counts.map((c) => ({ account_id: accountId, app: c.app, day: c.day, count: c.count })))
    .onConflict((oc) => oc.columns(['account_id', 'app', 'day']).doUpdateSet({ count: sql`result_daily.count + excluded.count` }))
    .execute();
}
