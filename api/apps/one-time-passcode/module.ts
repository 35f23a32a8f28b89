import { sql, type RawBuilder } from 'kysely';
import * as v from 'valibot';
import type { Trx } from '../../db/index';
import { ApiError } from '../../http/errors';
import { validationError } from '../../http/validate';
import { maskPhone, type ActionResult, type TaskRow } from '../../contract/platform';
import {
  OTP_ACTIONS,
  OTP_APP,
  OTP_COLUMNS,
  OTP_EVENT_TYPES,
  OTP_STATUSES,
  OTP_TEMPLATES,
  OtpCheckBodySchema,
  OtpGeneralSettingsSchema,
  OtpSendBodySchema,
  type OtpVerification,
} from '../../contract/apps/one-time-passcode';
import type { AppModule, KeyedTaskRow, TaskFilter } from '../platform/registry';
import { registerApp } from '../platform/registry';
import { OTP_V1 } from './v1';
import { checkPasscode, getVerification, otpSettings, sendPasscode } from './service';

type ListRow = {
  id: string;
  status: string;
  phone_number: string;
  customer_ref: string | null;
  agent: string | null;
  sends: number;
  checks: number;
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
  values: { sends: r.sends, checks: r.checks },
  key: { ts: r.key_ts, id: r.id },
});

function where(accountId: string, f: TaskFilter): RawBuilder<unknown> {
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

const COLUMNS = sql`id, status, phone_number, customer_ref, agent, sends, checks, created_at, ended_at,
  to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as key_ts`;

function actionResult(verification: OtpVerification, message?: string): ActionResult {
  const messages: Record<string, string> = {
    pending: verification.checks > 0 ? 'Wrong code. Ask the caller to read it again.' : `Passcode sent to ${verification.phoneNumber}.`,
    approved: 'Code correct: the caller is verified.',
    max_attempts_reached: 'Too many wrong codes: send a new passcode.',
    expired: 'The passcode expired: send a new one.',
    canceled: 'This verification was canceled.',
    failed: `The passcode could not be delivered${verification.failureReason ? `: ${verification.failureReason}` : '.'}`,
  };
  return { taskId: verification.id, status: verification.status, message: message ?? messages[verification.status] ?? verification.status, task: verification };
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

export const otpModule: AppModule = {
  id: OTP_APP,
  settings: { schema: OtpGeneralSettingsSchema, read: otpSettings },
  templates: OTP_TEMPLATES,
  actions: OTP_ACTIONS,
  columns: OTP_COLUMNS,
  statuses: OTP_STATUSES,
  eventTypes: OTP_EVENT_TYPES,
  v1: OTP_V1,

  async runAction(deps, accountId, key, body, caller) {
    if (key === 'send') {
      const input = parseInput(OtpSendBodySchema, { ...body.input, agent: caller.kind === 'api' ? body.input.agent : caller.label });
      const { verification } = await sendPasscode(deps, accountId, input, caller);
      return actionResult(verification);
    }
    if (key === 'check') {
      if (!body.taskId) throw new ApiError(400, 'VALIDATION_FAILED', 'taskId: Send a passcode first', { taskId: 'Send a passcode first' });
      const input = parseInput(OtpCheckBodySchema, { id: body.taskId, code: body.input.code });
      return actionResult(await checkPasscode(deps, accountId, input.id, input.code, caller));
    }
    throw new ApiError(404, 'NOT_FOUND', 'This app has no such action.');
  },

  async taskStatus(deps, accountId, taskId) {
    return actionResult(await getVerification(deps, accountId, taskId));
  },

  async listTasks(trx, accountId, filter, after, limit) {
    const rows = await sql<ListRow>`select ${COLUMNS} from otp_verifications
      where ${where(accountId, filter)} ${after ? sql`and (created_at, id) < (${after.ts}::timestamptz, ${after.id}::uuid)` : sql``}
      order by created_at desc, id desc limit ${limit}`.execute(trx);
    return rows.rows.map(rowOf);
  },

  async countTasks(trx, accountId, filter, cap) {
    const row = await sql<{ n: number }>`select count(*)::int as n from (select 1 from otp_verifications where ${where(accountId, filter)} limit ${cap}) t`.execute(trx);
    return row.rows[0]?.n ?? 0;
  },

  async task(trx: Trx, accountId: string, id: string): Promise<TaskRow | null> {
    const row = (await sql<ListRow>`select ${COLUMNS} from otp_verifications where account_id = ${accountId} and id = ${id}`.execute(trx)).rows[0];
    if (!row) return null;
    const { key: _key, ...task } = rowOf(row);
    return task;
  },

  async dashboard(trx, accountId, p) {
    const totals = (
      await sql<{ period: 'current' | 'previous'; sent: number; verified: number }>`
        select case when created_at >= ${p.start} then 'current' else 'previous' end as period,
               count(*) filter (where sends > 0)::int as sent, count(*) filter (where status = 'approved')::int as verified
        from otp_verifications where account_id = ${accountId} and created_at >= ${p.previousStart} and created_at < ${p.end}
        group by 1`.execute(trx)
    ).rows;
    const credits = (
      await sql<{ period: 'current' | 'previous'; units: number }>`
        select case when ts >= ${p.start} then 'current' else 'previous' end as period, coalesce(sum(units), 0)::int as units
        from credit_ledger where account_id = ${accountId} and app = ${OTP_APP} and ts >= ${p.previousStart} and ts < ${p.end}
        group by 1`.execute(trx)
    ).rows;
    const daily = (
      await sql<{ day: string; sent: number; verified: number }>`
        select to_char(created_at at time zone ${p.timeZone}, 'YYYY-MM-DD') as day,
               count(*) filter (where sends > 0)::int as sent, count(*) filter (where status = 'approved')::int as verified
        from otp_verifications where account_id = ${accountId} and created_at >= ${p.start} and created_at < ${p.end}
        group by 1`.execute(trx)
    ).rows;
    const of = (period: 'current' | 'previous') => totals.find((t) => t.period === period) ?? { sent: 0, verified: 0 };
    const rate = (t: { sent: number; verified: number }) => (t.sent ? Math.round((t.verified / t.sent) * 1000) / 10 : 0);
    const units = (period: 'current' | 'previous') => credits.find((c) => c.period === period)?.units ?? 0;
    const byDay = new Map(daily.map((d) => [d.day, d]));
    return {
      tiles: [
        { key: 'sent', label: 'Sent', value: of('current').sent, previous: of('previous').sent, format: 'count' },
        { key: 'verified', label: 'Verified', value: of('current').verified, previous: of('previous').verified, format: 'count' },
        { key: 'conversion', label: 'Conversion rate', value: rate(of('current')), previous: rate(of('previous')), format: 'percent' },
        { key: 'credits', label: 'Credits used', value: units('current'), previous: units('previous'), format: 'credits' },
      ],
      series: [
        { key: 'sent', label: 'Sent', points: p.days.map((date) => ({ date, value: byDay.get(date)?.sent ?? 0 })) },
        { key: 'verified', label: 'Verified', points: p.days.map((date) => ({ date, value: byDay.get(date)?.verified ?? 0 })) },
      ],
    };
  },
};

registerApp(otpModule);
