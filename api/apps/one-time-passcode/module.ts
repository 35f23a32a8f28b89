import { sql } from 'kysely';
import type { ActionResult } from '../../contract/platform';
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
import type { AppModule } from '../platform/registry';
import { registerApp } from '../platform/registry';
import { creditsTile, parseActionInput, taskTableQueries, type TaskTableRow } from '../platform/task-table';
import { OTP_V1 } from './v1';
import { checkPasscode, getVerification, otpSettings, sendPasscode } from './service';
import { rate } from '../platform/rate';
import { runActions } from '../platform/actions';

type ListRow = TaskTableRow & { sends: number; checks: number };

const attemptsLeft = (n: number) => (n === 1 ? '1 attempt left' : `${n} attempts left`);

function actionResult(verification: OtpVerification, message?: string): ActionResult {
  const wrongCode = verification.status === 'pending' && verification.checks > 0;
  const messages: Record<string, string> = {
    pending: wrongCode
      ? `Wrong code: ${attemptsLeft(verification.attemptsLeft)}. Ask the caller to read it again.`
      : `Passcode sent to ${verification.phoneNumber}.`,
    approved: 'Code correct: the caller is verified.',
    max_attempts_reached: 'Too many wrong codes: send a new passcode.',
    expired: 'The passcode expired: send a new one.',
    canceled: 'This verification was canceled.',
    failed: `The passcode could not be delivered${verification.failureReason ? `: ${verification.failureReason}` : '.'}`,
  };
  return {
    taskId: verification.id,
    status: verification.status,
    message: message ?? messages[verification.status] ?? verification.status,
    task: verification,
    ...(wrongCode ? { failed: true } : {}),
  };
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

  runAction: runActions({
    send: {
      run: async (deps, accountId, { input, caller, agent }) =>
        actionResult(
          (await sendPasscode(deps, accountId, parseActionInput(OtpSendBodySchema, { ...input, agent }), caller)).verification,
        ),
    },
    check: {
      onTask: 'Send a passcode first',
      run: async (deps, accountId, { input, taskId, caller }) => {
        const parsed = parseActionInput(OtpCheckBodySchema, { id: taskId, code: input.code });
        return actionResult(await checkPasscode(deps, accountId, parsed.id, parsed.code, caller));
      },
    },
  }),

  async taskStatus(deps, accountId, taskId) {
    return actionResult(await getVerification(deps, accountId, taskId));
  },

  ...taskTableQueries('otp_verifications', sql`sends, checks`, (r: ListRow) => ({ sends: r.sends, checks: r.checks })),

  async dashboard(trx, accountId, p) {
    const totals = (
      await sql<{ period: 'current' | 'previous'; sent: number; verified: number }>`
        select case when created_at >= ${p.start} then 'current' else 'previous' end as period,
               count(*) filter (where sends > 0)::int as sent, count(*) filter (where status = 'approved')::int as verified
        from otp_verifications where account_id = ${accountId} and created_at >= ${p.previousStart} and created_at < ${p.end}
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
    const byDay = new Map(daily.map((d) => [d.day, d]));
    return {
      tiles: [
        { key: 'sent', label: 'Sent', value: of('current').sent, previous: of('previous').sent, format: 'count' },
        { key: 'verified', label: 'Verified', value: of('current').verified, previous: of('previous').verified, format: 'count' },
        {
          key: 'conversion',
          label: 'Conversion rate',
          value: rate(of('current').verified, of('current').sent),
          previous: rate(of('previous').verified, of('previous').sent),
          format: 'percent',
        },
        await creditsTile(trx, accountId, OTP_APP),
      ],
      series: [
        { key: 'sent', label: 'Sent', points: p.days.map((date) => ({ date, value: byDay.get(date)?.sent ?? 0 })) },
        { key: 'verified', label: 'Verified', points: p.days.map((date) => ({ date, value: byDay.get(date)?.verified ?? 0 })) },
      ],
    };
  },
};

registerApp(otpModule);
