import { sql } from 'kysely';
import { ApiError } from '../../http/errors';
import type { ActionResult, TaskRow } from '../../contract/platform';
import {
  EFORM_ACTIONS,
  EFORM_APP,
  EFORM_COLUMNS,
  EFORM_EVENT_TYPES,
  EFORM_STATUSES,
  EFORM_TEMPLATES,
  EformGeneralSettingsSchema,
  FormRequestBodySchema,
  type FormRequest,
} from '../../contract/apps/e-form';
import type { AppModule, KeyedTaskRow } from '../platform/registry';
import { registerApp } from '../platform/registry';
import { parseActionInput } from '../platform/task-table';
import { eformSettings, getRequest, sendForm, sendableForms } from './service';
import { countSubmissions, listSubmissions, submissionById, type KeyedSubmission } from './submissions';
import { EFORM_V1 } from './v1';
import './customer-page';
import { rate } from '../platform/rate';
import { runActions } from '../platform/actions';

const taskOf = (s: KeyedSubmission): KeyedTaskRow => ({
  id: s.id,
  status: s.status,
  phoneNumber: s.phoneNumber,
  customerRef: s.customerRef,
  agent: s.agent,
  createdAt: s.createdAt,
  endedAt: s.endedAt,
  values: { form: s.formTitle, version: s.version },
  key: s.key,
});

function resultOf(request: FormRequest): ActionResult {
  const messages: Record<string, string> = {
    sent: `Form "${request.formTitle}" sent to ${request.phoneNumber}.`,
    opened: 'The customer opened the form.',
    submitted: 'The customer submitted the form.',
    expired: 'The link expired: send the form again.',
    failed: `The form could not be delivered${request.failureReason ? `: ${request.failureReason}` : '.'}`,
  };
  // sent and opened wait on the customer: the agent's panel follows the task until it ends
  return {
    taskId: request.id,
    status: request.status,
    message: messages[request.status] ?? request.status,
    task: request,
    open: request.status === 'sent' || request.status === 'opened',
  };
}

export const eformModule: AppModule = {
  id: EFORM_APP,
  settings: { schema: EformGeneralSettingsSchema, read: eformSettings },
  templates: EFORM_TEMPLATES,
  actions: EFORM_ACTIONS,
  columns: EFORM_COLUMNS,
  statuses: EFORM_STATUSES,
  eventTypes: EFORM_EVENT_TYPES,
  v1: EFORM_V1,

  runAction: runActions({
    send: {
      run: async (deps, accountId, { input, caller, agent }) => {
        const { form, caseId, ...rest } = input;
        if (!form?.trim())
          throw new ApiError(400, 'VALIDATION_FAILED', 'input.form: Choose the form to send', {
            'input.form': 'Choose the form to send',
          });
        const parsed = parseActionInput(FormRequestBodySchema, {
          ...rest,
          prefill: caseId?.trim() ? { caseId: caseId.trim() } : undefined,
          agent,
        });
        return resultOf(await sendForm(deps, accountId, form, parsed, caller));
      },
    },
  }),

  choices: { 'send.form': sendableForms },

  async taskStatus(deps, accountId, taskId) {
    return resultOf(await getRequest(deps, accountId, taskId));
  },

  async listTasks(trx, accountId, filter, after, limit) {
    return (await listSubmissions(trx, accountId, filter, after, limit)).map(taskOf);
  },

  countTasks: countSubmissions,

  async task(trx, accountId, id): Promise<TaskRow | null> {
    const row = await submissionById(trx, accountId, id);
    if (!row) return null;
    const { key: _key, ...task } = taskOf(row);
    return task;
  },

  async dashboard(trx, accountId, p) {
    type Totals = { sent: number; opened: number; submitted: number; median: number | null };
    const totals = (
      await sql<Totals & { period: 'current' | 'previous' }>`
        select case when created_at >= ${p.start} then 'current' else 'previous' end as period,
               count(*) filter (where status <> 'failed')::int as sent,
               count(*) filter (where opened_at is not null)::int as opened,
               count(*) filter (where status = 'submitted')::int as submitted,
               percentile_cont(0.5) within group (order by extract(epoch from submitted_at - created_at)) filter (where status = 'submitted') as median
        from eform_requests where account_id = ${accountId} and created_at >= ${p.previousStart} and created_at < ${p.end}
        group by 1`.execute(trx)
    ).rows;
    const daily = (
      await sql<{ day: string; sent: number; opened: number; submitted: number }>`
        select to_char(created_at at time zone ${p.timeZone}, 'YYYY-MM-DD') as day,
               count(*) filter (where status <> 'failed')::int as sent,
               count(*) filter (where opened_at is not null)::int as opened,
               count(*) filter (where status = 'submitted')::int as submitted
        from eform_requests where account_id = ${accountId} and created_at >= ${p.start} and created_at < ${p.end}
        group by 1`.execute(trx)
    ).rows;
    const of = (period: 'current' | 'previous'): Totals =>
      totals.find((t) => t.period === period) ?? { sent: 0, opened: 0, submitted: 0, median: null };
    // nothing completed: no median (shown "—"), never 0 minutes
    const minutes = (t: Totals) => (t.median === null ? null : Math.round(Number(t.median) / 60));
    const byDay = new Map(daily.map((d) => [d.day, d]));
    const cur = of('current');
    const prev = of('previous');
    return {
      tiles: [
        { key: 'sent', label: 'Sent', value: cur.sent, previous: prev.sent, format: 'count' },
        {
          key: 'opened',
          label: 'Opened rate',
          value: rate(cur.opened, cur.sent),
          previous: rate(prev.opened, prev.sent),
          format: 'percent',
        },
        {
          key: 'submitted',
          label: 'Submitted rate',
          value: rate(cur.submitted, cur.sent),
          previous: rate(prev.submitted, prev.sent),
          format: 'percent',
        },
        { key: 'median', label: 'Median minutes to complete', value: minutes(cur), previous: minutes(prev), format: 'count' },
      ],
      series: [
        {
          key: 'submitted',
          label: 'Submitted',
          points: p.days.map((date) => ({ date, value: byDay.get(date)?.submitted ?? 0 })),
        },
        { key: 'sent', label: 'Sent', points: p.days.map((date) => ({ date, value: byDay.get(date)?.sent ?? 0 })) },
        { key: 'opened', label: 'Opened', points: p.days.map((date) => ({ date, value: byDay.get(date)?.opened ?? 0 })) },
      ],
    };
  },
};

registerApp(eformModule);
