import { sql } from 'kysely';
import type { ActionResult } from '../../contract/platform';
import {
  PASSKEYS_APP,
  PASSKEY_ACTIONS,
  PASSKEY_COLUMNS,
  PASSKEY_EVENT_TYPES,
  PASSKEY_FAILURE_REASONS,
  PASSKEY_STATUSES,
  PASSKEY_TEMPLATES,
  PasskeyEnrollBodySchema,
  PasskeyGeneralSettingsSchema,
  PasskeyVerifyBodySchema,
  type PasskeyFailureReason,
  type PasskeyTask,
} from '../../contract/apps/passkeys';
import type { AppModule } from '../platform/registry';
import { registerApp } from '../platform/registry';
import { creditsTile, parseActionInput, taskTableQueries, type TaskTableRow } from '../platform/task-table';
import { PASSKEYS_V1 } from './v1';
import { passkeyConsoleRoutes, passkeyCustomerRoutes } from './routes';
import { cancelPasskeyTask, enrollPasskey, getPasskeyTask, passkeySettings, verifyWithPasskey } from './service';
import './customer-page';
import { rate } from '../platform/rate';
import { runActions } from '../platform/actions';

type ListRow = TaskTableRow & { kind: string; failure_reason: PasskeyFailureReason | null };

const KIND_LABEL: Record<string, string> = { enrollment: 'Enrollment', verification: 'Verification' };

const valuesOf = (r: ListRow) => ({
  kind: KIND_LABEL[r.kind] ?? r.kind,
  reason: r.failure_reason ? (PASSKEY_FAILURE_REASONS[r.failure_reason] ?? r.failure_reason) : null,
});

const REASON_TEXT = (t: PasskeyTask) => (t.failureReason ? PASSKEY_FAILURE_REASONS[t.failureReason] : null);

/** While the customer has the link, the frame's status is `pending`: the agent's screen follows it live. */
function actionResult(task: PasskeyTask): ActionResult {
  const noun = task.kind === 'enrollment' ? 'Enrollment' : 'Verification';
  const messages: Record<string, string> = {
    link_sent: `${noun} link sent to ${task.phoneNumber}. Waiting for the caller to open it.`,
    started:
      task.failureReason === 'cancelled'
        ? 'The caller cancelled the passkey prompt; they can try again from the same link.'
        : 'The caller opened the link and is using their passkey.',
    succeeded: task.kind === 'enrollment' ? 'The caller created a passkey.' : 'The caller is verified with their passkey.',
    failed: `${noun} failed: ${REASON_TEXT(task) ?? 'refused'}.`,
    expired: 'The link expired: send a new one.',
    not_delivered: 'The link could not be delivered by SMS.',
    cancelled: 'The link was cancelled.',
  };
  const open = task.status === 'link_sent' || task.status === 'started';
  return { taskId: task.id, status: open ? 'pending' : task.status, message: messages[task.status] ?? task.status, task };
}

export const passkeysModule: AppModule = {
  id: PASSKEYS_APP,
  settings: { schema: PasskeyGeneralSettingsSchema, read: passkeySettings },
  templates: PASSKEY_TEMPLATES,
  actions: PASSKEY_ACTIONS,
  columns: PASSKEY_COLUMNS,
  statuses: PASSKEY_STATUSES,
  eventTypes: PASSKEY_EVENT_TYPES,
  v1: PASSKEYS_V1,
  consoleRoutes: passkeyConsoleRoutes,
  customerRoutes: passkeyCustomerRoutes,

  runAction: runActions({
    enroll: {
      run: async (deps, accountId, { input, caller, agent }) =>
        actionResult(
          await enrollPasskey(deps, accountId, parseActionInput(PasskeyEnrollBodySchema, { ...input, agent }), caller),
        ),
    },
    verify: {
      run: async (deps, accountId, { input, caller, agent }) =>
        actionResult(
          await verifyWithPasskey(deps, accountId, parseActionInput(PasskeyVerifyBodySchema, { ...input, agent }), caller),
        ),
    },
    cancel: {
      onTask: 'Send a link first',
      run: async (deps, accountId, { taskId, caller }) => actionResult(await cancelPasskeyTask(deps, accountId, taskId, caller)),
    },
  }),

  async taskStatus(deps, accountId, taskId) {
    return actionResult(await getPasskeyTask(deps, accountId, taskId));
  },

  ...taskTableQueries('passkey_tasks', sql`kind, failure_reason`, valuesOf),

  async dashboard(trx, accountId, p) {
    // One query feeds the tiles and the chart, so a figure shown twice is one number: each line
    // of the chart is named as its tile and sums to it, and the rate is Verified of Verified plus
    // Not verified (a cancelled request is the agent's, not the customer's, and counts in neither).
    type Day = { period: 'current' | 'previous'; day: string; registrations: number; verified: number; not_verified: number };
    const rows = (
      await sql<Day>`
        select case when created_at >= ${p.start} then 'current' else 'previous' end as period,
               to_char(created_at at time zone ${p.timeZone}, 'YYYY-MM-DD') as day,
               count(*) filter (where kind = 'enrollment' and status = 'succeeded')::int as registrations,
               count(*) filter (where kind = 'verification' and status = 'succeeded')::int as verified,
               count(*) filter (where kind = 'verification' and status in ('failed', 'expired', 'not_delivered'))::int as not_verified
        from passkey_tasks where account_id = ${accountId} and created_at >= ${p.previousStart} and created_at < ${p.end}
        group by 1, 2`.execute(trx)
    ).rows;
    type Key = 'registrations' | 'verified' | 'not_verified';
    const sum = (period: 'current' | 'previous', key: Key) =>
      rows.filter((r) => r.period === period).reduce((n, r) => n + r[key], 0);
    const byDay = new Map(rows.filter((r) => r.period === 'current').map((r) => [r.day, r]));
    const series = (key: Key, label: string) => ({
      key,
      label,
      points: p.days.map((date) => ({ date, value: byDay.get(date)?.[key] ?? 0 })),
    });
    const success = (period: 'current' | 'previous') =>
      rate(sum(period, 'verified'), sum(period, 'verified') + sum(period, 'not_verified'));
    return {
      tiles: [
        {
          key: 'registrations',
          label: 'Registrations',
          value: sum('current', 'registrations'),
          previous: sum('previous', 'registrations'),
          format: 'count',
        },
        {
          key: 'verified',
          label: 'Verified',
          value: sum('current', 'verified'),
          previous: sum('previous', 'verified'),
          format: 'count',
        },
        { key: 'success', label: 'Verified rate', value: success('current'), previous: success('previous'), format: 'percent' },
        await creditsTile(trx, accountId, PASSKEYS_APP),
      ],
      // in this order the frame colours Verified green and Not verified grey (Dashboard.tsx)
      series: [series('registrations', 'Registrations'), series('not_verified', 'Not verified'), series('verified', 'Verified')],
    };
  },
};

registerApp(passkeysModule);
