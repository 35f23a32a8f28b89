import { sql, type Selectable } from 'kysely';
import type { EformRequestsTable } from '../../db/schema';
import * as v from 'valibot';
import type { Deps } from '../../deps';
import type { Trx } from '../../db/index';
import { audit, type Actor } from '../../audit';
import { ApiError } from '../../http/errors';
import { recordResult } from '../../results/record';
import { createLinkToken, linkUrl, spendLink } from '../../customer-pages/links';
import { putFile } from '../../storage/files';
import { releaseCredits } from '../../usage/credits';
import type { JourneyDelivery } from '../platform/delivery';
import { addTaskEvent } from '../platform/task-events';
import { enqueueWebhookEvent } from '../platform/webhook-events';
import { storedAppSettings } from '../platform/app-settings';
import { chooseLanguage, languageEvent, smsLocaleOf, templateText } from '../../customer-pages/language';
import { companyName, renderTemplate, sendAppSms } from '../platform/sms';
import type { Caller } from '../platform/caller';
import { ACTION_CHOICES_LIMIT, maskPhone, type ActionChoicesAnswer } from '../../contract/platform';
import { choicesAnswer, matchesChoice } from '../platform/choices';
import {
  EFORM_APP,
  EFORM_DEFAULT_SETTINGS,
  EFORM_TEMPLATES,
  EformGeneralSettingsSchema,
  FormDefinitionSchema,
  type EformGeneralSettings,
  type EformStatus,
  type FormDefinition,
  type FormDetail,
  type FormRequest,
  type FormRequestBody,
  type FormStatus,
  type FormSummary,
  type StoredAnswers,
  titleKey,
} from '../../contract/apps/e-form';
import {
  definitionProblems,
  unusablePatterns,
  validateSubmission,
  type Answers,
  type FieldProblem,
  type FileAnswer,
} from '../../contract/logic/e-form-rules';
import { re2Patterns } from '../../contract/logic/e-form-pattern';
import type { ResultStatus } from '../../contract/results';
import { sweepDue, type Expiry } from '../platform/expiry';

// The eForm rules, in one place: console routes, /api/v1, the agent action, the customer page
// and the demo seed all call these functions.

export type EformDeps = Pick<Deps, 'db' | 'config' | 'now' | 'log'>;
export const FILL_PURPOSE = 'e-form.fill';

export type FormRow = {
  id: string;
  status: FormStatus;
  draft: FormDefinition;
  latest_version: number | null;
  submissions: number;
  last_submission_at: Date | null;
  created_at: Date;
  updated_at: Date;
  archived_at: Date | null;
  published?: FormDefinition | null;
};
/** A row of eform_requests as `select *` reads it; `prefill` is the jsonb of the request's hidden-field values. */
export type RequestRow = Omit<Selectable<EformRequestsTable>, 'prefill'> & { prefill: Record<string, string> };

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);
const RESULT_OF: Partial<Record<EformStatus, ResultStatus>> = { submitted: 'success', expired: 'timeout', failed: 'failure' };
const CUSTOMER: Actor = { id: null, firstName: 'Customer', lastName: '' };

export async function eformSettings(trx: Trx, accountId: string): Promise<EformGeneralSettings> {
  const { general } = await storedAppSettings(trx, accountId, EFORM_APP);
  const merged = v.safeParse(EformGeneralSettingsSchema, { ...EFORM_DEFAULT_SETTINGS, ...general });
  return merged.success ? merged.output : EFORM_DEFAULT_SETTINGS;
}

// ---------------------------------------------------------------- forms

/** JSON with sorted keys: jsonb hands objects back in its own key order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, x]) => x !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, x]) => `${JSON.stringify(k)}:${canonical(x)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}
const sameDefinition = (a: unknown, b: unknown) => canonical(a) === canonical(b);

function summaryOf(r: FormRow): FormSummary {
  return {
    id: r.id,
    title: r.draft.title,
    status: r.status,
    version: r.latest_version,
    hasDraftChanges: r.latest_version === null || !sameDefinition(r.draft, r.published),
    submissions: r.submissions,
    lastSubmissionAt: iso(r.last_submission_at),
    updatedAt: new Date(r.updated_at).toISOString(),
    archivedAt: iso(r.archived_at),
  };
}

// the last submission is read from the submissions themselves (eform_submissions_by_form, one
// index step per form): a stored copy drifted from them ("15 days ago" beside one 2 days old)
const FORM_COLUMNS = sql`f.id, f.status, f.draft, f.latest_version, f.submissions,
  (select max(s.submitted_at) from eform_submissions s where s.account_id = f.account_id and s.form_id = f.id) as last_submission_at,
  f.created_at, f.updated_at, f.archived_at,
  (select definition from eform_versions v where v.form_id = f.id and v.version = f.latest_version) as published`;

export async function formRow(trx: Trx, accountId: string, id: string, lock = false): Promise<FormRow> {
  const row = (
    await sql<FormRow>`select ${FORM_COLUMNS} from eform_forms f where f.account_id = ${accountId} and f.id = ${id} ${lock ? sql`for update` : sql``}`.execute(
      trx,
    )
  ).rows[0];
  if (!row) throw new ApiError(404, 'NOT_FOUND', 'There is no form with this id.');
  return row;
}

export async function listForms(deps: EformDeps, accountId: string): Promise<FormSummary[]> {
  return deps.db.tenant(accountId, async (trx) => {
    const rows =
      await sql<FormRow>`select ${FORM_COLUMNS} from eform_forms f where f.account_id = ${accountId} order by f.updated_at desc, f.id limit 500`.execute(
        trx,
      );
    return rows.rows.map(summaryOf);
  });
}

/** The forms an agent can send (published, not closed), newest publication first, for the picker. */
export async function sendableForms(deps: Pick<EformDeps, 'db'>, accountId: string, q: string): Promise<ActionChoicesAnswer> {
  const rows = await deps.db.tenant(accountId, (trx) =>
    sql<{ id: string; title: string; version: number; published_at: Date }>`
      select f.id, v.definition->>'title' as title, v.version, v.published_at
      from eform_forms f join eform_versions v on v.account_id = f.account_id and v.form_id = f.id and v.version = f.latest_version
      where f.account_id = ${accountId} and f.status = 'published' and ${matchesChoice(sql`v.definition->>'title'`, sql.ref('f.id'), q)}
      order by v.published_at desc, title, f.id limit ${ACTION_CHOICES_LIMIT + 1}`.execute(trx),
  );
  return choicesAnswer(
    rows.rows.map((r) => ({ id: r.id, title: r.title, version: r.version, editedAt: new Date(r.published_at).toISOString() })),
  );
}

/** Warnings for a published version whose patterns the engine cannot run (saved before patterns were checked). */
function patternWarnings(definition: FormDefinition | null | undefined): string[] {
  if (!definition) return [];
  const labels = new Map(definition.fields.map((f) => [f.id, f.label]));
  return Object.entries(unusablePatterns(definition, re2Patterns)).map(
    ([id, why]) => `The pattern of "${labels.get(id)}" is not checked: ${why}. Publish a version with a supported pattern.`,
  );
}

export async function detailOf(trx: Trx, accountId: string, row: FormRow): Promise<FormDetail> {
  const versions = await sql<{
    version: number;
    published_at: Date;
    published_by: string;
  }>`select version, published_at, published_by from eform_versions
    where account_id = ${accountId} and form_id = ${row.id} order by version desc`.execute(trx);
  const warnings =
    row.latest_version === null ? [] : patternWarnings(await versionDefinition(trx, accountId, row.id, row.latest_version));
  const twins = row.archived_at ? undefined : await duplicateTitle(trx, accountId, row.id, row.draft.title);
  return {
    ...summaryOf(row),
    ...(twins ? { duplicateTitle: twins } : {}),
    draft: row.draft,
    versions: versions.rows.map((r) => ({
      version: r.version,
      publishedAt: new Date(r.published_at).toISOString(),
      publishedBy: r.published_by,
    })),
    ...(warnings.length ? { warnings } : {}),
  };
}

/** A draft whose patterns the engine cannot run is refused at save, by field. */
function assertPatternsUsable(definition: FormDefinition): void {
  const problems = unusablePatterns(definition, re2Patterns);
  const first = Object.entries(problems)[0];
  if (first) throw new ApiError(400, 'INVALID_PATTERN', `${first[0]}: ${first[1]}`, problems);
}

export async function getForm(deps: EformDeps, accountId: string, id: string): Promise<FormDetail> {
  return deps.db.tenant(accountId, async (trx) => detailOf(trx, accountId, await formRow(trx, accountId, id)));
}

export async function createForm(
  deps: EformDeps,
  accountId: string,
  definition: FormDefinition,
  actor: Actor,
): Promise<FormDetail> {
  assertPatternsUsable(definition);
  const now = deps.now();
  return deps.db.tenant(accountId, async (trx) => {
    const { id } = (
      await sql<{ id: string }>`insert into eform_forms (account_id, status, draft, created_at, updated_at)
      values (${accountId}, 'draft', ${JSON.stringify(definition)}::jsonb, ${now}, ${now}) returning id`.execute(trx)
    ).rows[0]!;
    await audit(trx, accountId, actor, {
      namespace: EFORM_APP,
      description: `Created the form "${definition.title}"`,
      event: 'form.created',
      at: now,
    });
    return detailOf(trx, accountId, await formRow(trx, accountId, id));
  });
}

/** Autosave: the draft is the builder's working copy; published versions never change. */
export async function saveDraft(
  deps: EformDeps,
  accountId: string,
  id: string,
  definition: FormDefinition,
  actor: Actor,
): Promise<FormDetail> {
  assertPatternsUsable(definition);
  const now = deps.now();
  return deps.db.tenant(accountId, async (trx) => {
    const row = await formRow(trx, accountId, id, true);
    if (!sameDefinition(row.draft, definition)) {
      await sql`update eform_forms set draft = ${JSON.stringify(definition)}::jsonb, updated_at = ${now} where id = ${id}`.execute(
        trx,
      );
      // one audit entry per editing session, not per keystroke: only when the last edit is older than 10 minutes
      if (now.getTime() - new Date(row.updated_at).getTime() > 10 * 60_000) {
        await audit(trx, accountId, actor, {
          namespace: EFORM_APP,
          description: `Edited the draft of the form "${definition.title}"`,
          event: 'form.draft-saved',
          at: now,
        });
      }
    }
    return detailOf(trx, accountId, await formRow(trx, accountId, id));
  });
}

/**
 * Other forms (not archived) with this title, ignoring case and surrounding spaces. Flagged, not
 * refused: a draft's title is saved on every keystroke and often passes through another's on its
 * way ("Claim" before "Claim (motor)"), and the Send picker tells two forms of one title apart by
 * version and publication date. The builder shows it beside the title; every form answer carries
 * it as `duplicateTitle` with the stable code DUPLICATE_TITLE.
 */
async function duplicateTitle(trx: Trx, accountId: string, id: string, title: string): Promise<FormDetail['duplicateTitle']> {
  if (!titleKey(title)) return undefined;
  const others = (
    await sql<{ id: string; title: string }>`select id, draft->>'title' as title from eform_forms
      where account_id = ${accountId} and id <> ${id} and archived_at is null and lower(btrim(draft->>'title', ${' \t\r\n'})) = ${titleKey(title)}
      order by updated_at desc limit 10`.execute(trx)
  ).rows;
  if (!others.length) return undefined;
  return {
    code: 'DUPLICATE_TITLE',
    message: `Another form is already called "${others[0]!.title.trim()}": give this one a title agents can tell apart.`,
    forms: others,
  };
}

function problemsError(problems: Record<string, string>): ApiError {
  const [key, message] = Object.entries(problems)[0]!;
  return new ApiError(400, 'FORM_NOT_READY', key === '_' ? message : `${key}: ${message}`, problems);
}

/**
 * Freezes the draft as the next version. A form with submissions asks first (409
 * CONFIRM_REQUIRED): its later submissions will answer a different set of fields.
 */
export async function publishForm(
  deps: EformDeps,
  accountId: string,
  id: string,
  confirm: boolean,
  actor: Actor,
  by: string,
): Promise<FormDetail> {
  const now = deps.now();
  return deps.db.tenant(accountId, async (trx) => {
    const row = await formRow(trx, accountId, id, true);
    const parsed = v.safeParse(FormDefinitionSchema, row.draft);
    if (!parsed.success) throw new ApiError(400, 'FORM_NOT_READY', 'The draft is not a valid form.');
    const problems = definitionProblems(parsed.output, re2Patterns);
    if (Object.keys(problems).length) throw problemsError(problems);
    if (row.archived_at) throw new ApiError(409, 'FORM_ARCHIVED', 'This form is archived: restore it before publishing it.');
    if (row.latest_version !== null && sameDefinition(row.draft, row.published)) {
      if (row.status === 'closed') {
        await sql`update eform_forms set status = 'published', updated_at = ${now} where id = ${id}`.execute(trx);
        await audit(trx, accountId, actor, {
          namespace: EFORM_APP,
          description: `Reopened the form "${row.draft.title}" (version ${row.latest_version})`,
          event: 'form.reopened',
          at: now,
        });
      }
      return detailOf(trx, accountId, await formRow(trx, accountId, id));
    }
    if (row.submissions > 0 && !confirm) {
      throw new ApiError(
        409,
        'CONFIRM_REQUIRED',
        `This form has ${row.submissions} submission${row.submissions === 1 ? '' : 's'}. Publishing makes a new version: earlier submissions keep the fields they answered.`,
      );
    }
    const version = (row.latest_version ?? 0) + 1;
    await sql`insert into eform_versions (account_id, form_id, version, definition, published_at, published_by)
      values (${accountId}, ${id}, ${version}, ${JSON.stringify(parsed.output)}::jsonb, ${now}, ${by})`.execute(trx);
    await sql`update eform_forms set status = 'published', latest_version = ${version}, updated_at = ${now} where id = ${id}`.execute(
      trx,
    );
    await audit(trx, accountId, actor, {
      namespace: EFORM_APP,
      description: `Published version ${version} of the form "${parsed.output.title}"`,
      event: 'form.published',
      at: now,
    });
    return detailOf(trx, accountId, await formRow(trx, accountId, id));
  });
}

/** A closed form takes no new requests; links already sent still work until they expire. */
export async function closeForm(deps: EformDeps, accountId: string, id: string, actor: Actor): Promise<FormDetail> {
  const now = deps.now();
  return deps.db.tenant(accountId, async (trx) => {
    const row = await formRow(trx, accountId, id, true);
    if (row.status === 'draft') throw new ApiError(409, 'FORM_NOT_PUBLISHED', 'Only a published form can be closed.');
    if (row.status !== 'closed') {
      await sql`update eform_forms set status = 'closed', updated_at = ${now} where id = ${id}`.execute(trx);
      await audit(trx, accountId, actor, {
        namespace: EFORM_APP,
        description: `Closed the form "${row.draft.title}"`,
        event: 'form.closed',
        at: now,
      });
    }
    return detailOf(trx, accountId, await formRow(trx, accountId, id));
  });
}

export async function versionDefinition(trx: Trx, accountId: string, formId: string, version: number): Promise<FormDefinition> {
  const row = (
    await sql<{
      definition: FormDefinition;
    }>`select definition from eform_versions where account_id = ${accountId} and form_id = ${formId} and version = ${version}`.execute(
      trx,
    )
  ).rows[0];
  if (!row) throw new ApiError(404, 'NOT_FOUND', 'There is no such form version.');
  return row.definition;
}

// ---------------------------------------------------------------- requests

export function requestOf(r: RequestRow, title: string, answers: StoredAnswers | null): FormRequest {
  return {
    id: r.id,
    formId: r.form_id,
    formTitle: title,
    version: r.version,
    status: r.status,
    phoneNumber: maskPhone(r.phone_number)!,
    customerRef: r.customer_ref,
    agent: r.agent,
    prefill: r.prefill ?? {},
    createdAt: new Date(r.created_at).toISOString(),
    expiresAt: new Date(r.expires_at).toISOString(),
    openedAt: iso(r.opened_at),
    submittedAt: iso(r.submitted_at),
    failureReason: r.failure_reason,
    answers,
  };
}

async function lockRequest(trx: Trx, accountId: string, id: string): Promise<RequestRow> {
  const row = (
    await sql<RequestRow>`select * from eform_requests where account_id = ${accountId} and id = ${id} for update`.execute(trx)
  ).rows[0];
  if (!row) throw new ApiError(404, 'NOT_FOUND', 'There is no form request with this id.');
  return row;
}

async function titleOf(trx: Trx, accountId: string, r: RequestRow): Promise<string> {
  return (await versionDefinition(trx, accountId, r.form_id, r.version)).title;
}

async function eventData(
  trx: Trx,
  accountId: string,
  r: RequestRow,
  answers: StoredAnswers | null = null,
): Promise<Record<string, unknown>> {
  const { id, formId, formTitle, version, status, phoneNumber, customerRef, agent, prefill, expiresAt, openedAt, submittedAt } =
    requestOf(r, await titleOf(trx, accountId, r), answers);
  return {
    id,
    formId,
    formTitle,
    version,
    status,
    phoneNumber,
    customerRef,
    agent,
    prefill,
    expiresAt,
    openedAt,
    submittedAt,
    ...(answers ? { answers } : {}),
  };
}

async function end(
  trx: Trx,
  accountId: string,
  row: RequestRow,
  status: EformStatus,
  now: Date,
  caller: Caller | null,
  extra: { description: string; reason?: string },
): Promise<RequestRow> {
  const updated = (
    await sql<RequestRow>`update eform_requests set status = ${status}, ended_at = ${now}, failure_reason = ${extra.reason ?? null},
      submitted_at = ${status === 'submitted' ? now : null} where id = ${row.id} returning *`.execute(trx)
  ).rows[0]!;
  await recordResult(trx, accountId, {
    app: EFORM_APP,
    status: RESULT_OF[status]!,
    ts: now,
    sessionRef: row.id,
    phoneNumber: row.phone_number,
    customerRef: row.customer_ref,
  });
  await addTaskEvent(trx, accountId, {
    app: EFORM_APP,
    taskId: row.id,
    ts: now,
    type: status,
    description: extra.description,
    caller,
  });
  return updated;
}

async function expireIfDue(trx: Trx, accountId: string, row: RequestRow, now: Date): Promise<RequestRow> {
  if ((row.status !== 'sent' && row.status !== 'opened') || new Date(row.expires_at).getTime() > now.getTime()) return row;
  return end(trx, accountId, row, 'expired', now, null, { description: 'The link expired before the form was submitted' });
}

/** The form to send: by id, or (agents type it) by its exact title among published forms. */
async function formToSend(trx: Trx, accountId: string, formRef: string): Promise<FormRow> {
  const byId = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(formRef);
  const row = (
    await sql<FormRow>`select ${FORM_COLUMNS} from eform_forms f where f.account_id = ${accountId}
      and ${byId ? sql`f.id = ${formRef}` : sql`lower(f.draft->>'title') = lower(${formRef.trim()}) and f.status = 'published'`}
      order by f.updated_at desc limit 1`.execute(trx)
  ).rows[0];
  if (!row)
    throw new ApiError(404, 'NOT_FOUND', byId ? 'There is no form with this id.' : 'There is no published form with this title.');
  if (row.latest_version === null)
    throw new ApiError(409, 'FORM_NOT_PUBLISHED', 'This form is a draft: publish it before sending it.');
  if (row.status === 'closed') throw new ApiError(409, 'FORM_CLOSED', 'This form is closed: publish it again to send it.');
  return row;
}

/** Texts the customer a one-time link to the form's published version (201 with the request). */
export async function sendForm(
  deps: EformDeps,
  accountId: string,
  formRef: string,
  body: FormRequestBody,
  caller: Caller,
  delivery?: JourneyDelivery,
): Promise<FormRequest> {
  const now = deps.now();
  const done = await sendAppSms(deps, accountId, {
    app: EFORM_APP,
    to: body.phoneNumber,
    // a journey's step: the journey's one SMS carries the link
    handOff: delivery ? () => {} : undefined,
    prepare: async (trx) => {
      const form = await formToSend(trx, accountId, formRef);
      const definition = await versionDefinition(trx, accountId, form.id, form.latest_version!);
      const hidden = new Set(definition.hiddenFields.map((h) => h.key));
      const prefill: Record<string, string> = {};
      for (const [key, value] of Object.entries(body.prefill ?? {})) {
        if (!hidden.has(key))
          throw new ApiError(400, 'VALIDATION_FAILED', `prefill.${key}: ${key} is not a hidden field of this form`, {
            [`prefill.${key}`]: `${key} is not a hidden field of this form`,
          });
        if (value.trim()) prefill[key] = value.trim();
      }
      if (body.customerRef && hidden.has('customerRef')) prefill.customerRef ??= body.customerRef;
      const settings = await eformSettings(trx, accountId);
      const expiresAt = new Date(now.getTime() + settings.linkValidityDays * 86_400_000);
      const row = (
        await sql<RequestRow>`insert into eform_requests (account_id, form_id, version, status, phone_number, customer_ref, agent, prefill, created_at, expires_at)
          values (${accountId}, ${form.id}, ${form.latest_version}, 'sent', ${body.phoneNumber}, ${body.customerRef ?? null},
                  ${body.agent ?? (caller.kind === 'api' ? null : caller.label)}, ${JSON.stringify(prefill)}::jsonb, ${now}, ${expiresAt})
          returning *`.execute(trx)
      ).rows[0]!;
      const language = await chooseLanguage(trx, accountId, body.locale);
      const { token } = await createLinkToken(trx, accountId, {
        app: EFORM_APP,
        purpose: FILL_PURPOSE,
        taskId: row.id,
        ttlMs: expiresAt.getTime() - now.getTime(),
        now,
        locale: language.locale,
      });
      if (delivery) delivery.token = token;
      const { templates } = await storedAppSettings(trx, accountId, EFORM_APP);
      const text = renderTemplate(templateText(EFORM_APP, EFORM_TEMPLATES[0]!, templates, smsLocaleOf(language)), {
        company: await companyName(trx, accountId),
        link: await linkUrl(trx, accountId, deps.config.publicUrl, token),
      });
      return { text, credit: { taskId: row.id, kind: 'sms-1' }, state: { row, title: definition.title, language } };
    },
    record: async (trx, prepared, _written, outcome) => {
      const row = await lockRequest(trx, accountId, prepared.row.id);
      const masked = maskPhone(row.phone_number);
      if (!outcome.sent)
        return {
          row: await undelivered(trx, accountId, row, prepared.title, outcome.failure, caller, now),
          title: prepared.title,
        };
      const description = `Form "${prepared.title}" sent to ${masked}`;
      await addTaskEvent(trx, accountId, { app: EFORM_APP, taskId: row.id, ts: now, type: 'sent', description, caller });
      await addTaskEvent(trx, accountId, {
        app: EFORM_APP,
        taskId: row.id,
        ts: now,
        caller,
        ...languageEvent(prepared.language),
      });
      await audit(trx, accountId, caller.actor, { namespace: EFORM_APP, description, event: 'form.sent', at: now });
      await enqueueWebhookEvent(trx, accountId, EFORM_APP, 'form.sent', await eventData(trx, accountId, row), now);
      return { row, title: prepared.title };
    },
  });
  return requestOf(done.row, done.title, null);
}

/** A request whose link never reached the customer: failed, its credit given back, the link spent. */
async function undelivered(
  trx: Trx,
  accountId: string,
  row: RequestRow,
  title: string,
  failure: string,
  caller: Caller,
  now: Date,
): Promise<RequestRow> {
  await releaseCredits(trx, { accountId, app: EFORM_APP, taskId: row.id, kind: 'sms-1', now });
  const ended = await end(trx, accountId, row, 'failed', now, caller, {
    description: `Form link not delivered: ${failure}`,
    reason: failure,
  });
  await audit(trx, accountId, caller.actor, {
    namespace: EFORM_APP,
    description: `Form "${title}" to ${maskPhone(row.phone_number)} not delivered: ${failure}`,
    event: 'form.send-failed',
    at: now,
  });
  return ended;
}

/**
 * The SMS that carried a request's link failed after the request was written (a journey's one
 * SMS, api/journeys): the request ends exactly as sendForm ends one whose own SMS failed.
 */
export async function endUndeliveredRequest(
  deps: EformDeps,
  accountId: string,
  id: string,
  failure: string,
  caller: Caller,
): Promise<void> {
  const now = deps.now();
  await deps.db.tenant(accountId, async (trx) => {
    const row = await lockRequest(trx, accountId, id);
    if (row.status !== 'sent') return;
    await undelivered(trx, accountId, row, await titleOf(trx, accountId, row), failure, caller, now);
  });
}

async function answersOf(trx: Trx, accountId: string, requestId: string): Promise<StoredAnswers | null> {
  const row = (
    await sql<{
      answers: StoredAnswers;
    }>`select answers from eform_submissions where account_id = ${accountId} and request_id = ${requestId}`.execute(trx)
  ).rows[0];
  return row?.answers ?? null;
}

export async function getRequest(deps: EformDeps, accountId: string, id: string): Promise<FormRequest> {
  const now = deps.now();
  return deps.db.tenant(accountId, async (trx) => {
    const row = await expireIfDue(trx, accountId, await lockRequest(trx, accountId, id), now);
    return requestOf(row, await titleOf(trx, accountId, row), await answersOf(trx, accountId, id));
  });
}

/** The customer opened the link: the first time, the request becomes opened (form.opened). */
export async function openRequest(
  deps: EformDeps,
  accountId: string,
  id: string,
  origin: { ip: string | null; userAgent: string | null },
): Promise<{ request: RequestRow; definition: FormDefinition }> {
  const now = deps.now();
  return deps.db.tenant(accountId, async (trx) => {
    let row = await expireIfDue(trx, accountId, await lockRequest(trx, accountId, id), now);
    if (row.status === 'sent') {
      row = (
        await sql<RequestRow>`update eform_requests set status = 'opened', opened_at = ${now} where id = ${id} returning *`.execute(
          trx,
        )
      ).rows[0]!;
      await addTaskEvent(trx, accountId, {
        app: EFORM_APP,
        taskId: id,
        ts: now,
        type: 'opened',
        description: 'The customer opened the form',
        caller: { kind: 'api', actor: CUSTOMER, label: 'Customer', ...origin },
      });
      await enqueueWebhookEvent(trx, accountId, EFORM_APP, 'form.opened', await eventData(trx, accountId, row), now);
    }
    return { request: row, definition: await versionDefinition(trx, accountId, row.form_id, row.version) };
  });
}

/** The first submission that meets an unusable pattern says so in the audit log, once per version. */
async function auditDroppedPatterns(
  trx: Trx,
  accountId: string,
  formId: string,
  version: number,
  definition: FormDefinition,
  now: Date,
): Promise<void> {
  const warnings = patternWarnings(definition);
  if (!warnings.length) return;
  const first = await sql`update eform_versions set patterns_dropped_at = ${now}
    where account_id = ${accountId} and form_id = ${formId} and version = ${version} and patterns_dropped_at is null returning version`.execute(
    trx,
  );
  if (first.rows.length)
    await audit(trx, accountId, null, {
      namespace: EFORM_APP,
      description: `Version ${version} of the form "${definition.title}": ${warnings.join(' ')}`,
      event: 'form.pattern-dropped',
      at: now,
    });
}

/** What the customer page posted: text by field id (lists for multiple choice) and files. */
export type PostedAnswers = {
  values: Record<string, string | string[]>;
  files: Record<string, { name: string; type: string; bytes: Uint8Array }>;
};

export function answersFromPost(definition: FormDefinition, posted: PostedAnswers, prefill: Record<string, string>): Answers {
  const answers: Answers = { ...prefill };
  for (const field of definition.fields) {
    const value = posted.values[field.id];
    if (field.type === 'file') {
      const file = posted.files[field.id];
      answers[field.id] =
        file && file.bytes.length > 0
          ? { name: file.name.slice(0, 200), size: file.bytes.length, type: file.type || 'application/octet-stream' }
          : null;
    } else if (field.type === 'multiple_choice')
      answers[field.id] = value === undefined ? [] : Array.isArray(value) ? value : [value];
    else if (field.type === 'consent') answers[field.id] = value === 'yes';
    else answers[field.id] = Array.isArray(value) ? (value[0] ?? '') : (value ?? '');
  }
  return answers;
}

/** refused: 400 with each field's problem (and its English words), or 410 with why the form is closed */
export type SubmitOutcome =
  | { ok: true; request: RequestRow }
  | { ok: false; status: 400; errors: Record<string, string>; problems: Record<string, FieldProblem>; answers: Answers }
  | { ok: false; status: 410; closed: 'not-open' | 'link-used'; errors: Record<string, string>; answers: Answers };

/**
 * The customer's submission, checked with the same evaluator as their page: on any error
 * nothing is stored (not even the files) and the page shows each field's message.
 */
export async function submitRequest(
  deps: EformDeps & Pick<Deps, 'config'>,
  accountId: string,
  id: string,
  token: string,
  posted: PostedAnswers,
  origin: { ip: string | null; userAgent: string | null },
): Promise<SubmitOutcome> {
  const now = deps.now();
  return deps.db.tenant(accountId, async (trx) => {
    let row = await expireIfDue(trx, accountId, await lockRequest(trx, accountId, id), now);
    const definition = await versionDefinition(trx, accountId, row.form_id, row.version);
    const input = answersFromPost(definition, posted, row.prefill ?? {});
    if (row.status !== 'sent' && row.status !== 'opened')
      return {
        ok: false,
        status: 410,
        closed: 'not-open',
        errors: { _: 'This form can no longer be submitted.' },
        answers: input,
      };
    await auditDroppedPatterns(trx, accountId, row.form_id, row.version, definition, now);
    const { errors, problems, answers } = validateSubmission(definition, input, re2Patterns);
    if (Object.keys(errors).length) return { ok: false, status: 400, errors, problems, answers: input };
    if (!(await spendLink(trx, token, now)))
      return { ok: false, status: 410, closed: 'link-used', errors: { _: 'This link has already been used.' }, answers: input };
    const fileIds: string[] = [];
    for (const field of definition.fields) {
      const file = posted.files[field.id];
      if (field.type !== 'file' || !(field.id in answers) || !file) continue;
      const stored = await putFile(deps as Deps, trx, accountId, {
        app: EFORM_APP,
        contentType: (answers[field.id] as FileAnswer).type,
        bytes: file.bytes,
      });
      answers[field.id] = { ...(answers[field.id] as FileAnswer), fileId: stored.id };
      fileIds.push(stored.id);
    }
    const searchable = Object.values(answers)
      .map((a) => (a && typeof a === 'object' && !Array.isArray(a) ? a.name : Array.isArray(a) ? a.join(' ') : String(a)))
      .join(' \u241e ')
      .toLowerCase();
    await sql`insert into eform_submissions (request_id, account_id, form_id, version, answers, answers_text, file_ids, submitted_at)
      values (${id}, ${accountId}, ${row.form_id}, ${row.version}, ${JSON.stringify(answers)}::jsonb, ${searchable}, ${fileIds}::uuid[], ${now})`.execute(
      trx,
    );
    await sql`update eform_forms set submissions = submissions + 1, last_submission_at = ${now} where id = ${row.form_id}`.execute(
      trx,
    );
    row = await end(
      trx,
      accountId,
      row,
      'submitted',
      now,
      { kind: 'api', actor: CUSTOMER, label: 'Customer', ...origin },
      { description: 'The customer submitted the form' },
    );
    await audit(trx, accountId, CUSTOMER, {
      namespace: EFORM_APP,
      description: `${maskPhone(row.phone_number)} submitted the form "${definition.title}"`,
      event: 'form.submitted',
      at: now,
    });
    await enqueueWebhookEvent(trx, accountId, EFORM_APP, 'form.submitted', await eventData(trx, accountId, row, answers), now);
    return { ok: true, request: row };
  });
}

/** Open requests past their time expire: the shared sweep (api/apps/platform/expiry.ts), run by the jobs. */
export function expireDueRequests(deps: EformDeps, limit?: number): Promise<number> {
  return sweepDue(deps, EXPIRY, limit);
}

const EXPIRY: Expiry<RequestRow> = {
  table: 'eform_requests',
  statuses: ['sent', 'opened'],
  expiresAt: 'expires_at',
  expire: expireIfDue,
};
