import { sql } from 'kysely';
import type { ActionResult } from '../../contract/platform';
import {
  SIG_ACTIONS,
  SIG_APP,
  SIG_COLUMNS,
  SIG_EVENT_TYPES,
  SIG_OPEN_STATUSES,
  SIG_STATUSES,
  SIG_TEMPLATES,
  SigGeneralSettingsSchema,
  SigSendBodySchema,
  type SigRequest,
} from '../../contract/apps/document-signature';
import type { AppModule } from '../platform/registry';
import { registerApp } from '../platform/registry';
import { parseActionInput, taskTableQueries, type TaskTableRow } from '../platform/task-table';
import { SIG_V1 } from './v1';
import { cancelRequest, getRequest, resendRequest, sendForSignature, sigSettings } from './service';
import { sendableDocuments } from './documents';
import './customer-page';
import { rate } from '../platform/rate';
import { runActions } from '../platform/actions';

type ListRow = TaskTableRow & { document_name: string; signer_name: string; version: number };

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
  const waiting = SIG_OPEN_STATUSES.includes(r.status);
  // followed while the signer can act and while a signed document is being sealed (moments later
  // it is completed); resend and cancel only while the signer can act
  return {
    taskId: r.id,
    status: r.status,
    message: message ?? messages[r.status] ?? r.status,
    task: r,
    open: waiting || r.status === 'signed',
    ...(waiting ? {} : { followUps: [] }),
  };
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

  runAction: runActions({
    send: {
      run: async (deps, accountId, { input, caller, agent }) =>
        actionResult(await sendForSignature(deps, accountId, parseActionInput(SigSendBodySchema, { ...input, agent }), caller)),
    },
    resend: {
      onTask: 'Send a document first',
      run: async (deps, accountId, { taskId, caller }) =>
        actionResult(await resendRequest(deps, accountId, taskId, caller), 'A new link was sent.'),
    },
    cancel: {
      onTask: 'Send a document first',
      run: async (deps, accountId, { taskId, caller }) => actionResult(await cancelRequest(deps, accountId, taskId, caller)),
    },
  }),

  choices: { 'send.documentId': sendableDocuments },

  async taskStatus(deps, accountId, taskId) {
    return actionResult(await getRequest(deps, accountId, taskId));
  },

  ...taskTableQueries('sig_requests', sql`document_name, signer_name, version`, (r: ListRow) => ({
    documentName: `${r.document_name} (v${r.version})`,
    signerName: r.signer_name,
  })),

  async dashboard(trx, accountId, p) {
    // Sent and Completed are counted once, per day, and both the tiles and the chart's lines are
    // sums of those rows: a line is named as its tile and adds up to it. The median (shown once)
    // is a percentile, which no sum of days gives, so it has its own query.
    const days = (
      await sql<{ period: 'current' | 'previous'; day: string; sent: number; completed: number }>`
        select case when created_at >= ${p.start} then 'current' else 'previous' end as period,
               to_char(created_at at time zone ${p.timeZone}, 'YYYY-MM-DD') as day,
               count(*) filter (where sends > 0)::int as sent, count(*) filter (where status = 'completed')::int as completed
        from sig_requests where account_id = ${accountId} and created_at >= ${p.previousStart} and created_at < ${p.end}
        group by 1, 2`.execute(trx)
    ).rows;
    const medians = (
      await sql<{ period: 'current' | 'previous'; median: number | null }>`
        select case when created_at >= ${p.start} then 'current' else 'previous' end as period,
               (percentile_cont(0.5) within group (order by extract(epoch from signed_at - created_at)))::float as median
        from sig_requests where account_id = ${accountId} and created_at >= ${p.previousStart} and created_at < ${p.end} and signed_at is not null
        group by 1`.execute(trx)
    ).rows;
    const sum = (period: 'current' | 'previous', key: 'sent' | 'completed') =>
      days.filter((d) => d.period === period).reduce((n, d) => n + d[key], 0);
    // nothing signed: no median (shown "—"), never 0 minutes
    const minutes = (period: 'current' | 'previous') => {
      const median = medians.find((m) => m.period === period)?.median ?? null;
      return median === null ? null : Math.round((median / 60) * 10) / 10;
    };
    const byDay = new Map(days.filter((d) => d.period === 'current').map((d) => [d.day, d]));
    const line = (key: 'sent' | 'completed', label: string) => ({
      key,
      label,
      points: p.days.map((date) => ({ date, value: byDay.get(date)?.[key] ?? 0 })),
    });
    return {
      tiles: [
        { key: 'sent', label: 'Sent', value: sum('current', 'sent'), previous: sum('previous', 'sent'), format: 'count' },
        {
          key: 'completed',
          label: 'Completed',
          value: sum('current', 'completed'),
          previous: sum('previous', 'completed'),
          format: 'count',
        },
        {
          key: 'completion',
          label: 'Completion rate',
          value: rate(sum('current', 'completed'), sum('current', 'sent')),
          previous: rate(sum('previous', 'completed'), sum('previous', 'sent')),
          format: 'percent',
        },
        {
          key: 'median',
          label: 'Median time to sign (minutes)',
          value: minutes('current'),
          previous: minutes('previous'),
          format: 'count',
        },
      ],
      series: [line('sent', 'Sent'), line('completed', 'Completed')],
    };
  },
};

registerApp(sigModule);
