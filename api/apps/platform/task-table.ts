import { sql, type RawBuilder } from 'kysely';
import * as v from 'valibot';
import type { Trx } from '../../db/index';
import { ApiError } from '../../http/errors';
import { validationError } from '../../http/validate';
import type { KpiTile, TaskRow } from '../../contract/platform';
import type { AppModule, KeyedTaskRow, TaskFilter } from './registry';

// What every app's task table shares: the columns the activity list filters on (account_id,
// status, created_at, agent, customer_ref, phone_number), walked by the indexes of migration 0710,
// and the way an agent action's input is checked.

/** The filter of an activity list as SQL, each part served by an index in the list's order. */
export function taskFilterSql(accountId: string, f: TaskFilter): RawBuilder<unknown> {
  const parts = [sql`account_id = ${accountId}`];
  if (f.status) parts.push(sql`status = ${f.status}`);
  if (f.from) parts.push(sql`created_at >= ${f.from}`);
  if (f.to) parts.push(sql`created_at < ${f.to}`);
  if (f.agent) parts.push(sql`agent = ${f.agent}`);
  if (f.q) {
    // Only what looks like a phone number searches phones: a customer id with digits in it
    // (CUST-4242) stays one index range. A whole number (+ and 8 or more digits) is that
    // number's index range; only part of a number ("555 1001") is a substring, which no index
    // serves (see README).
    const digits = f.q.replace(/[^\d]/g, '');
    const phoneLike = digits.length >= 3 && /^[\d\s+().-]+$/.test(f.q);
    const whole = phoneLike && f.q.trim().startsWith('+') && digits.length >= 8;
    parts.push(
      !phoneLike ? sql`customer_ref = ${f.q}`
      : whole ? sql`phone_number = ${`+${digits}`}`
      : sql`(customer_ref = ${f.q} or phone_number like ${`%${digits}%`})`,
    );
  }
  return sql.join(parts, sql` and `);
}

/** listTasks, countTasks and task of an app whose tasks live in `table`, newest first by key. */
export function taskTableQueries<Row>(table: string, columns: RawBuilder<unknown>, rowOf: (r: Row) => KeyedTaskRow): Pick<AppModule, 'listTasks' | 'countTasks' | 'task'> {
  const from = sql.table(table);
  return {
    async listTasks(trx, accountId, filter, after, limit) {
      const rows = await sql<Row>`select ${columns} from ${from}
        where ${taskFilterSql(accountId, filter)} ${after ? sql`and (created_at, id) < (${after.ts}::timestamptz, ${after.id}::uuid)` : sql``}
        order by created_at desc, id desc limit ${limit}`.execute(trx);
      return rows.rows.map(rowOf);
    },
    async countTasks(trx, accountId, filter, cap) {
      const row = await sql<{ n: number }>`select count(*)::int as n from (select 1 from ${from} where ${taskFilterSql(accountId, filter)} limit ${cap}) t`.execute(trx);
      return row.rows[0]?.n ?? 0;
    },
    async task(trx: Trx, accountId: string, id: string): Promise<TaskRow | null> {
      const row = (await sql<Row>`select ${columns} from ${from} where account_id = ${accountId} and id = ${id}`.execute(trx)).rows[0];
      if (!row) return null;
      const { key: _key, ...task } = rowOf(row);
      return task;
    },
  };
}

/** An agent action's input checked by the app's schema; a 400 names `input.<field>`. */
export function parseActionInput<S extends v.GenericSchema>(schema: S, input: unknown): v.InferOutput<S> {
  const parsed = v.safeParse(schema, input);
  if (!parsed.success) {
    const err = validationError(parsed.issues);
    const fields = Object.fromEntries(Object.entries(err.fields ?? {}).map(([k, m]) => [`input.${k}`, m]));
    throw new ApiError(400, 'VALIDATION_FAILED', err.message, fields);
  }
  return parsed.output;
}

/** The "Credits used" tile: units of `app` charged in the period and in the one before it. */
export async function creditsTile(trx: Trx, accountId: string, app: string, p: { start: Date; previousStart: Date; end: Date }): Promise<KpiTile> {
  const rows = (
    await sql<{ period: 'current' | 'previous'; units: number }>`
      select case when ts >= ${p.start} then 'current' else 'previous' end as period, coalesce(sum(units), 0)::int as units
      from credit_ledger where account_id = ${accountId} and app = ${app} and ts >= ${p.previousStart} and ts < ${p.end}
      group by 1`.execute(trx)
  ).rows;
  const units = (period: 'current' | 'previous') => rows.find((c) => c.period === period)?.units ?? 0;
  return { key: 'credits', label: 'Credits used', value: units('current'), previous: units('previous'), format: 'credits' };
}
