import { sql } from 'kysely';
import type { ActionResult } from '../../contract/platform';
import {
  IDV_ACTIONS,
  IDV_APP,
  IDV_COLUMNS,
  IDV_EVENT_TYPES,
  IDV_STATUSES,
  IDV_TEMPLATES,
  IdvGeneralSettingsSchema,
  IdvStartBodySchema,
  documentTypeOf,
  type IdvSession,
} from '../../contract/apps/identity-verification';
import type { AppModule } from '../platform/registry';
import { registerApp } from '../platform/registry';
import { parseActionInput, taskTableQueries, type TaskTableRow } from '../platform/task-table';
import { IDV_V1 } from './v1';
import { getSession, idvSettings, startSession } from './service';
import './customer-page';
import { rate } from '../platform/rate';
import { runActions } from '../platform/actions';

type ListRow = TaskTableRow & { document_type: string | null; failed_checks: number; reviewer: string | null };

function actionResult(session: IdvSession): ActionResult {
  const messages: Record<string, string> = {
    created: 'Verification started.',
    link_sent: `Link sent to ${session.phoneNumber}. Ask the caller to open it and follow the steps.`,
    in_progress: 'The caller is taking their photos.',
    submitted: 'Photos received: waiting for a reviewer.',
    needs_review: 'Checks have run: waiting for a reviewer’s decision.',
    approved: 'Approved: the caller’s identity is verified.',
    declined: 'Declined: the identity could not be verified.',
    resubmission_requested: 'The reviewer asked for new photos; a new link was sent.',
    expired: 'The link expired: start a new verification.',
    cancelled: session.failureReason
      ? `The link could not be delivered: ${session.failureReason}`
      : 'This verification was cancelled.',
  };
  return { taskId: session.id, status: session.status, message: messages[session.status] ?? session.status, task: session };
}

export const idvModule: AppModule = {
  id: IDV_APP,
  settings: { schema: IdvGeneralSettingsSchema, read: idvSettings },
  templates: IDV_TEMPLATES,
  actions: IDV_ACTIONS,
  columns: IDV_COLUMNS,
  statuses: IDV_STATUSES,
  eventTypes: IDV_EVENT_TYPES,
  v1: IDV_V1,

  runAction: runActions({
    start: {
      run: async (deps, accountId, { input, caller, agent }) =>
        actionResult(await startSession(deps, accountId, parseActionInput(IdvStartBodySchema, { ...input, agent }), caller)),
    },
  }),

  async taskStatus(deps, accountId, taskId) {
    return actionResult(await getSession(deps, accountId, taskId));
  },

  ...taskTableQueries(
    'idv_sessions',
    sql`document_type, failed_checks, coalesce(reviewer_name, assigned_name) as reviewer`,
    (r: ListRow) => ({
      documentType: r.document_type ? (documentTypeOf(r.document_type)?.label ?? r.document_type) : null,
      failedChecks: r.failed_checks,
      reviewer: r.reviewer,
    }),
  ),

  async dashboard(trx, accountId, p) {
    const totals = (
      await sql<{
        period: 'current' | 'previous';
        started: number;
        approved: number;
        decided: number;
        in_review: number;
        median: number | null;
      }>`
        select case when created_at >= ${p.start} then 'current' else 'previous' end as period,
               count(*)::int as started,
               count(*) filter (where status = 'approved')::int as approved,
               count(*) filter (where status in ('approved', 'declined'))::int as decided,
               count(*) filter (where status in ('submitted', 'needs_review'))::int as in_review,
               percentile_cont(0.5) within group (order by extract(epoch from (decided_at - submitted_at)))
                 filter (where status in ('approved', 'declined') and submitted_at is not null) as median
        from idv_sessions where account_id = ${accountId} and created_at >= ${p.previousStart} and created_at < ${p.end}
        group by 1`.execute(trx)
    ).rows;
    const daily = (
      await sql<{ day: string; approved: number; declined: number }>`
        select to_char(ended_at at time zone ${p.timeZone}, 'YYYY-MM-DD') as day,
               count(*) filter (where status = 'approved')::int as approved, count(*) filter (where status = 'declined')::int as declined
        from idv_sessions where account_id = ${accountId} and ended_at >= ${p.start} and ended_at < ${p.end} and status in ('approved', 'declined')
        group by 1`.execute(trx)
    ).rows;
    const of = (period: 'current' | 'previous') =>
      totals.find((t) => t.period === period) ?? { started: 0, approved: 0, decided: 0, in_review: 0, median: null };
    const minutes = (t: { median: number | null }) => (t.median === null ? 0 : Math.round(Number(t.median) / 60));
    const byDay = new Map(daily.map((d) => [d.day, d]));
    return {
      tiles: [
        { key: 'started', label: 'Started', value: of('current').started, previous: of('previous').started, format: 'count' },
        {
          key: 'approvedRate',
          label: 'Approved rate',
          value: rate(of('current').approved, of('current').decided),
          previous: rate(of('previous').approved, of('previous').decided),
          format: 'percent',
        },
        {
          key: 'inReview',
          label: 'In review',
          value: of('current').in_review,
          previous: of('previous').in_review,
          format: 'count',
        },
        {
          key: 'medianReview',
          label: 'Median review time (minutes)',
          value: minutes(of('current')),
          previous: minutes(of('previous')),
          format: 'count',
        },
      ],
      series: [
        { key: 'approved', label: 'Approved', points: p.days.map((date) => ({ date, value: byDay.get(date)?.approved ?? 0 })) },
        { key: 'declined', label: 'Declined', points: p.days.map((date) => ({ date, value: byDay.get(date)?.declined ?? 0 })) },
      ],
    };
  },
};

registerApp(idvModule);
