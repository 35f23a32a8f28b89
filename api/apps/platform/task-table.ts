import { sql, type RawBuilder } from 'kysely';
import * as v from 'valibot';
import type { Trx } from '../../db/index';
import { ApiError } from '../../http/errors';
import { validationError } from '../../http/validate';
import { maskPhone, type KpiTile, type TaskRow } from '../../contract/platform';
import type { AppModule, KeyedTaskRow, TaskFilter } from './registry';
import { billingQuery } from '../../usage/credits';
import type { AppId } from '../../contract/apps';

// What every app's task table shares: the columns the activity list filters on (account_id,
// status, created_at, agent, customer_ref, phone_number), walked by the indexes of migration 0710,
// and the way an agent action's input is checked.

/** An app's whole task count: the counter migration 0710's triggers keep (one row read, however many tasks). */
export async function taskCount(trx: Trx, accountId: string, app: AppId): Promise<number> {
  const row = await trx
    .selectFrom('task_counts')
    .select('count')
    .where('account_id', '=', accountId)
    .where('app', '=', app)
    .executeTakeFirst();
  return Number(row?.count ?? 0);
}

/** The filter of an activity list as SQL, each part served by an index in the list's order. `alias` qualifies the columns when the query names the table (`eform_requests r`). */
export function taskFilterSql(accountId: string, f: TaskFilter, alias?: string): RawBuilder<unknown> {
  const col = (name: string) => sql.ref(alias ? `${alias}.${name}` : name);
  const parts = [sql`${col('account_id')} = ${accountId}`];
  if (f.status) parts.push(sql`${col('status')} = ${f.status}`);
  if (f.from) parts.push(sql`${col('created_at')} >= ${f.from}`);
  if (f.to) parts.push(sql`${col('created_at')} < ${f.to}`);
  if (f.agent) parts.push(sql`${col('agent')} = ${f.agent}`);
  if (f.q) {
    // Only what looks like a phone number searches phones: a customer id with digits in it
    // (CUST-4242) stays one index range. A whole number (+ and 8 or more digits) is that
    // number's index range; only part of a number ("555 1001") is a substring, which no index
    // serves (see docs/architecture.md).
    const digits = f.q.replace(/[^\d]/g, '');
    const phoneLike = digits.length >= 3 && /^[\d\s+().-]+$/.test(f.q);
    const whole = phoneLike && f.q.trim().startsWith('+') && digits.length >= 8;
    parts.push(
      !phoneLike
        ? sql`${col('customer_ref')} = ${f.q}`
        : whole
          ? sql`${col('phone_number')} = ${`+${digits}`}`
          : sql`(${col('customer_ref')} = ${f.q} or ${col('phone_number')} like ${`%${digits}%`})`,
    );
  }
  return sql.join(parts, sql` and `);
}

/** The columns every app's task table has, as a row of its activity list reads them. */
export type TaskTableRow = {
  id: string;
  status: string;
  phone_number: string;
  customer_ref: string | null;
  agent: string | null;
  created_at: Date;
  ended_at: Date | null;
  /** created_at to the microsecond, the list's keyset cursor (a Date would drop the microseconds) */
  key_ts: string;
};

const TASK_TABLE_COLUMNS = sql`id, status, phone_number, customer_ref, agent, created_at, ended_at,
  to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as key_ts`;

/** A row of a task table as the activity list shows it: the phone masked, times ISO 8601, the app's own columns in `values`. */
export function keyedTaskRow(r: TaskTableRow, values: TaskRow['values']): KeyedTaskRow {
  return {
    id: r.id,
    status: r.status,
    phoneNumber: maskPhone(r.phone_number),
    customerRef: r.customer_ref,
    agent: r.agent,
    createdAt: new Date(r.created_at).toISOString(),
    endedAt: r.ended_at ? new Date(r.ended_at).toISOString() : null,
    values,
    key: { ts: r.key_ts, id: r.id },
  };
}

/**
 * listTasks, countTasks and task of an app whose tasks live in `table`, newest first by key. The
 * app names only its own columns (`ownColumns`, read into `Row`) and how they show (`valuesOf`).
 */
export function taskTableQueries<Row extends TaskTableRow>(
  table: string,
  ownColumns: RawBuilder<unknown>,
  valuesOf: (r: Row) => TaskRow['values'],
): Pick<AppModule, 'listTasks' | 'countTasks' | 'task'> {
  const from = sql.table(table);
  const columns = sql`${TASK_TABLE_COLUMNS}, ${ownColumns}`;
  const rowOf = (r: Row) => keyedTaskRow(r, valuesOf(r));
  return {
    async listTasks(trx, accountId, filter, after, limit) {
      const rows = await sql<Row>`select ${columns} from ${from}
        where ${taskFilterSql(accountId, filter)} ${after ? sql`and (created_at, id) < (${after.ts}::timestamptz, ${after.id}::uuid)` : sql``}
        order by created_at desc, id desc limit ${limit}`.execute(trx);
      return rows.rows.map(rowOf);
    },
    async countTasks(trx, accountId, filter, cap) {
      const row = await sql<{
        n: number;
      }>`select count(*)::int as n from (select 1 from ${from} where ${taskFilterSql(accountId, filter)} limit ${cap}) t`.execute(
        trx,
      );
      return row.rows[0]?.n ?? 0;
    },
    async task(trx: Trx, accountId: string, id: string): Promise<TaskRow | null> {
      const row = (await sql<Row>`select ${columns} from ${from} where account_id = ${accountId} and id = ${id}`.execute(trx))
        .rows[0];
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

/**
 * The credits tile: the billing period's running total, read from the row the header's figure
 * reads (GET /api/{app}/billing/usage), so the two never disagree (a charge 31 days into a trial
 * made "960" in the header and "959" on a 30-day dashboard).
 */
export async function creditsTile(trx: Trx, accountId: string, app: AppId): Promise<KpiTile> {
  const row = await billingQuery(trx, accountId, app).executeTakeFirst();
  const credits = row?.credits ?? 0;
  const included = row?.free_tier ?? 0;
  const period = row?.status === 'free-trial' ? 'in the free trial' : 'this billing period';
  const caption = included > 0 ? `of ${new Intl.NumberFormat('en-US').format(included)} ${period}` : period;
  return { key: 'credits', label: 'Credits used', value: credits, previous: null, format: 'credits', caption };
}
