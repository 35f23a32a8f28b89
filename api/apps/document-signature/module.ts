import { sql, type RawBuilder } from 'kysely';
import * as v from 'valibot';
import type { Trx } from '../../db/index';
import { ApiError } from '../../http/errors';
import { validationError } from '../../http/validate';
import { maskPhone, type ActionResult, type TaskRow } from '../../contract/platform';
import {
  SIG_ACTIONS,
  SIG_APP,
  SIG_COLUMNS,
  SIG_EVENT_TYPES,
  SIG_STATUSES,
  SIG_TEMPLATES,
  SigGeneralSettingsSchema,
  SigSendBodySchema,
  type SigRequest,
} from '../../contract/apps/document-signature';
import type { AppModule, KeyedTaskRow, TaskFilter } from '../platform/registry';
import { registerApp } from '../platform/registry';
import { SIG_V1 } from './v1';
import { cancelRequest, getRequest, resendRequest, sendForSignature, sigSettings } from './service';
import './customer-page';

type ListRow = {
  id: string;
  status: string;
  document_name: string;
  signer_name: string;
  phone_number: string;
  customer_ref: string | null;
  agent: string | null;
  version: number;
  created_at: Date;
  ended_at: Date | null;
  key_ts: string;
};

const rowOf = (r: ListRow): KeyedTaskRow => ({
  id: r.id,
  status: r.status,
  phoneNumber: maskPhone(r.phone_number),
  customerRef: r.customer_ref,
  agent: r.agent,
  createdAt: new Date(r.created_at).toISOString(),
  endedAt: r.ended_at ? new Date(r.ended_at).toISOString() : null,
  values: { documentName: `${r.document_name} (v${r.version})`, signerName: r.signer_name },
  key: { ts: r.key_ts, id: r.id },
});

function where(accountId: string, f: TaskFilter): RawBuilder<unknown> {
  const parts = [sql`account_id = ${accountId}`];
  if (f.status) parts.push(sql`status = ${f.status}`);
  if (f.from) parts.push(sql`created_at >= ${f.from}`);
  if (f.to) parts.push(sql`created_at < ${f.to}`);
  if (f.agent) parts.push(sql`agent = ${f.agent}`);
  if (f.q) {
    // as in One-Time Passcode: a whole number is its index range, a customer id is its own
    const digits = f.q.replace(/[^\d]/g, '');
    const phoneLike = digits.length >= 3 && /^[\d\s+().-]+$/.test(f.q);
    const whole = phoneLike && f.q.trim().startsWith('+') && digits.length >= 8;
    parts.push(!phoneLike ? sql`customer_ref = ${f.q}` : whole ? sql`phone_number = ${`+${digits}`}` : sql`(customer_ref = ${f.q} or phone_number like ${`%${digits}%`})`);
  }
  return sql.join(parts, sql` and `);
}

const COLUMNS = sql`id, status, document_name, signer_name, phone_number, customer_ref, agent, version, created_at, ended_at,
  to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as key_ts`;

function actionResult(r: SigRequest, message?: string): ActionResult {
  const messages: Record<string, string> = {
    sent: `${r.documentName} sent to ${r.signerName} at ${r.phoneNumber}.`,
    opened: `${r.signerName} opened the document.`,
    signed: `${r.signerName} signed: the document is being sealed.`,
    completed: `${r.signerName} signed: the sealed document is ready.`,
    declined: `${r.signerName} declined${r.declineReason ? `: ${r.declineReason}` : '.'}`,
    expired: 'The request expired: send a new one.',
    cancelled: 'This request was cancelled.',
  };
  return { taskId: r.id, status: r.status, message: message ?? messages[r.status] ?? r.status, task: r };
}

function parseInput<S extends v.GenericSchema>(schema: S, input: unknown): v.InferOutput<S> {
  const parsed = v.safeParse(schema, input);
  if (!parsed.success) {
    const err = validationError(parsed.issues);
    const fields = Object.fromEntries(Object.entries(err.fields ?? {}).map(([k, m]) => [`input.${k}`, m]));
    throw new ApiError(400, 'VALIDATION_FAILED', err.message, fields);
  }
  return parsed.output;
}

export const sigModule: AppModule = {
  id: SIG_APP,
  settings: { schema: SigGeneralSettingsSchema, read: sigSettings },
  templates: SIG_TEMPLATES,
  actions: SIG_ACTIONS,
  columns: SIG_COLUMNS,
  statuses: SIG_STATUSES,
  eventTypes: SIG_EVENT_TYPES,
  v1: SIG_V1,

  async runAction(deps, accountId, key, body, caller) {
    if (key === 'send') {
      const input = parseInput(SigSendBodySchema, { ...body.input, agent: caller.kind === 'api' ? body.input.agent : caller.label });
      return actionResult(await sendForSignature(deps, accountId, input, caller));
    }
    if (key === 'resend' || key === 'cancel') {
      if (!body.taskId) throw new ApiError(400, 'VALIDATION_FAILED', 'taskId: Send a document first', { taskId: 'Send a document first' });
      if (key === 'resend') return actionResult(await resendRequest(deps, accountId, body.taskId, caller), 'A new link was sent.');
      return actionResult(await cancelRequest(deps, accountId, body.taskId, caller));
    }
    throw new ApiError(404, 'NOT_FOUND', 'This app has no such action.');
  },

  async taskStatus(deps, accountId, taskId) {
    return actionResult(await getRequest(deps, accountId, taskId));
  },

  async listTasks(trx, accountId, filter, after, limit) {
    const rows = await sql<ListRow>`select ${COLUMNS} from sig_requests
      where ${where(accountId, filter)} ${after ? sql`and (created_at, id) < (${after.ts}::timestamptz, ${after.id}::uuid)` : sql``}
      order by created_at desc, id desc limit ${limit}`.execute(trx);
    return rows.rows.map(rowOf);
  },

  async countTasks(trx, accountId, filter, cap) {
    const row = await sql<{ n: number }>`select count(*)::int as n from (select 1 from sig_requests where ${where(accountId, filter)} limit ${cap}) t`.execute(trx);
    return row.rows[0]?.n ?? 0;
  },

  async task(trx: Trx, accountId: string, id: string): Promise<TaskRow | null> {
    const row = (await sql<ListRow>`select ${COLUMNS} from sig_requests where account_id = ${accountId} and id = ${id}`.execute(trx)).rows[0];
    if (!row) return null;
    const { key: _key, ...task } = rowOf(row);
    return task;
  },

  async dashboard(trx, accountId, p) {
    const totals = (
      await sql<{ period: 'current' | 'previous'; sent: number; completed: number; median: number | null }>`
        select case when created_at >= ${p.start} then 'current' else 'previous' end as period,
               count(*) filter (where sends > 0)::int as sent, count(*) filter (where status = 'completed')::int as completed,
               (percentile_cont(0.5) within group (order by extract(epoch from signed_at - created_at)) filter (where signed_at is not null))::float as median
        from sig_requests where account_id = ${accountId} and created_at >= ${p.previousStart} and created_at < ${p.end}
        group by 1`.execute(trx)
    ).rows;
    const daily = (
      await sql<{ day: string; status: string; n: number }>`
        select to_char(created_at at time zone ${p.timeZone}, 'YYYY-MM-DD') as day, status, count(*)::int as n
        from sig_requests where account_id = ${accountId} and created_at >= ${p.start} and created_at < ${p.end}
        group by 1, 2`.execute(trx)
    ).rows;
    const of = (period: 'current' | 'previous') => totals.find((t) => t.period === period) ?? { sent: 0, completed: 0, median: null };
    const rate = (t: { sent: number; completed: number }) => (t.sent ? Math.round((t.completed / t.sent) * 1000) / 10 : 0);
    const minutes = (t: { median: number | null }) => (t.median === null ? 0 : Math.round((t.median / 60) * 10) / 10);
    const count = (date: string, status: string) => daily.find((d) => d.day === date && d.status === status)?.n ?? 0;
    return {
      tiles: [
        { key: 'sent', label: 'Sent', value: of('current').sent, previous: of('previous').sent, format: 'count' },
        { key: 'completed', label: 'Completed', value: of('current').completed, previous: of('previous').completed, format: 'count' },
        { key: 'completion', label: 'Completion rate', value: rate(of('current')), previous: rate(of('previous')), format: 'percent' },
        { key: 'median', label: 'Median time to sign (minutes)', value: minutes(of('current')), previous: minutes(of('previous')), format: 'count' },
      ],
      series: SIG_STATUSES.map((status) => ({ key: status, label: status[0]!.toUpperCase() + status.slice(1), points: p.days.map((date) => ({ date, value: count(date, status) })) })),
    };
  },
};

registerApp(sigModule);
