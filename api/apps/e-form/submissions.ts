import { sql, type RawBuilder } from 'kysely';
import type { Trx } from '../../db/index';
import { maskPhone } from '../../contract/platform';
import type { FormDefinition, StoredAnswers, SubmissionColumn, SubmissionRow } from '../../contract/apps/e-form';
import type { TaskFilter, TaskKey } from '../platform/registry';
import { taskFilterSql, type TaskTableRow } from '../platform/task-table';

// The Submissions list: form requests (the app's tasks) with their answers, newest first, one
// index range per filter as the other activity lists (see 0940 and 0710).

export type SubmissionFilter = TaskFilter & { formId?: string; contains?: string };
export type KeyedSubmission = SubmissionRow & { key: TaskKey; endedAt: string | null };

type Row = TaskTableRow & {
  form_id: string;
  version: number;
  title: string;
  status: SubmissionRow['status'];
  submitted_at: Date | null;
  answers: StoredAnswers | null;
};

/**
 * Above this many submissions holding the needle (the planner's estimate), the list walks its own
 * index newest first and stops at the page; below it, the trigram index finds them (1250).
 */
const COMMON_NEEDLE_ROWS = 5000;

const likeNeedle = (contains: string) => `%${contains.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * How a needle is searched: `walk` the list newest first (a common needle), or look its
 * submissions up through the trigram index once (a rare one) and reuse the ids for the page and
 * its count in the same transaction. An estimate that was wrong (more than MAX_LOOKED_UP found)
 * falls back to the walk rather than carry that many ids.
 */
type NeedlePlan = { walk: true } | { walk: false; ids: string[] };
const MAX_LOOKED_UP = 20_000;
const plans = new WeakMap<Trx, Map<string, Promise<NeedlePlan>>>();

function needlePlan(trx: Trx, f: SubmissionFilter): Promise<NeedlePlan | null> {
  if (!f.contains) return Promise.resolve(null);
  const needle = likeNeedle(f.contains);
  let byNeedle = plans.get(trx);
  if (!byNeedle) plans.set(trx, (byNeedle = new Map()));
  let plan = byNeedle.get(needle);
  if (!plan) byNeedle.set(needle, (plan = decide(trx, needle)));
  return plan;
}

async function decide(trx: Trx, needle: string): Promise<NeedlePlan> {
  const estimate = Number((await sql<{ n: number }>`select eform_answers_estimate(${needle}) as n`.execute(trx)).rows[0]?.n ?? 0);
  if (estimate <= COMMON_NEEDLE_ROWS) {
    const found = await sql<{
      id: string;
    }>`select id from eform_requests_answering(${needle}) id limit ${MAX_LOOKED_UP + 1}`.execute(trx);
    if (found.rows.length <= MAX_LOOKED_UP) return { walk: false, ids: found.rows.map((r) => r.id) };
  }
  // the walk's cost is guessed high (the planner cannot know it stops after a page), which
  // switches on JIT compilation: 300 ms of compiling for 5 ms of work at 1,000,000 tasks
  await sql`select set_config('jit', 'off', true)`.execute(trx);
  return { walk: true };
}

/** The activity list's filter on `eform_requests r`, and the Submissions page's own: the form, and words in the answers. */
export function submissionWhere(accountId: string, f: SubmissionFilter, plan: NeedlePlan | null = null): RawBuilder<unknown> {
  const parts = [taskFilterSql(accountId, f, 'r')];
  if (f.formId) parts.push(sql`r.form_id = ${f.formId}`);
  if (f.contains) {
    const needle = likeNeedle(f.contains);
    // walk: each request in list order is checked until the page is full (a scalar subquery, not
    // EXISTS: the planner would make EXISTS a join over every submission). Looked up: the
    // requests whose answers hold it, found through the trigram index by the function of 1250
    // (scoped to the transaction's account, as the policies are), each then read by primary key.
    if (!plan || plan.walk)
      parts.push(sql`(select s.answers_text from eform_submissions s where s.request_id = r.id) like ${needle}`);
    else parts.push(sql`r.id = any(string_to_array(${plan.ids.join(',')}, ',')::uuid[])`);
  }
  return sql.join(parts, sql` and `);
}

const COLUMNS = sql`r.id, r.form_id, r.version, r.status, r.phone_number, r.customer_ref, r.agent, r.created_at, r.submitted_at, r.ended_at,
  (select v.definition->>'title' from eform_versions v where v.form_id = r.form_id and v.version = r.version) as title,
  (select s.answers from eform_submissions s where s.request_id = r.id) as answers,
  to_char(r.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as key_ts`;

function rowOf(r: Row): KeyedSubmission {
  return {
    id: r.id,
    formId: r.form_id,
    formTitle: r.title,
    version: r.version,
    status: r.status,
    phoneNumber: maskPhone(r.phone_number)!,
    customerRef: r.customer_ref,
    agent: r.agent,
    createdAt: new Date(r.created_at).toISOString(),
    submittedAt: r.submitted_at ? new Date(r.submitted_at).toISOString() : null,
    endedAt: r.ended_at ? new Date(r.ended_at).toISOString() : null,
    answers: r.answers,
    key: { ts: r.key_ts, id: r.id },
  };
}

export async function listSubmissions(
  trx: Trx,
  accountId: string,
  filter: SubmissionFilter,
  after: TaskKey | null,
  limit: number,
): Promise<KeyedSubmission[]> {
  const rows = await sql<Row>`select ${COLUMNS} from eform_requests r
    where ${submissionWhere(accountId, filter, await needlePlan(trx, filter))} ${after ? sql`and (r.created_at, r.id) < (${after.ts}::timestamptz, ${after.id}::uuid)` : sql``}
    order by r.created_at desc, r.id desc limit ${limit}`.execute(trx);
  return rows.rows.map(rowOf);
}

export async function countSubmissions(trx: Trx, accountId: string, filter: SubmissionFilter, cap: number): Promise<number> {
  const row = await sql<{
    n: number;
  }>`select count(*)::int as n from (select 1 from eform_requests r where ${submissionWhere(accountId, filter, await needlePlan(trx, filter))} limit ${cap}) t`.execute(
    trx,
  );
  return row.rows[0]?.n ?? 0;
}

export async function submissionById(trx: Trx, accountId: string, id: string): Promise<KeyedSubmission | null> {
  const row = (
    await sql<Row>`select ${COLUMNS} from eform_requests r where r.account_id = ${accountId} and r.id = ${id}`.execute(trx)
  ).rows[0];
  return row ? rowOf(row) : null;
}

/**
 * A column per field the form ever had: the latest version's fields in its order, then the
 * hidden fields, then fields later versions removed (so old answers stay readable).
 */
export async function formColumns(trx: Trx, accountId: string, formId: string): Promise<SubmissionColumn[]> {
  const versions = await sql<{
    definition: FormDefinition;
  }>`select definition from eform_versions where account_id = ${accountId} and form_id = ${formId} order by version desc`.execute(
    trx,
  );
  const columns: SubmissionColumn[] = [];
  const seen = new Set<string>();
  versions.rows.forEach(({ definition }, i) => {
    const fields = definition.fields
      .filter((f) => !seen.has(f.id))
      .map((f) => ({ id: f.id, label: f.label, type: f.type, removed: i > 0 }));
    const hidden = definition.hiddenFields
      .filter((h) => !seen.has(h.key))
      .map((h) => ({ id: h.key, label: h.label, type: 'hidden', removed: i > 0 }));
    for (const c of [...fields, ...hidden]) {
      seen.add(c.id);
      columns.push(c);
    }
  });
  return columns;
}
