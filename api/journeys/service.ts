import crypto from 'node:crypto';
import { sql } from 'kysely';
import * as v from 'valibot';
import type { Deps } from '../deps';
import type { Trx } from '../db/index';
import { later } from '../db/batch';
import { audit, type Actor } from '../audit';
import { decryptSecret, encryptSecret } from '../crypto';
import { ApiError } from '../http/errors';
import { createLinkToken, linkUrl, resolveLink, revokeTaskLinks } from '../customer-pages/links';
import { chooseLanguage, smsLocaleOf } from '../customer-pages/language';
import { translate } from '../customer-pages/i18n/index';
import { companyName, sendAccountSms } from '../apps/platform/sms';
import { idvReleasedFor } from '../apps/identity-verification/service';
import { assertAppUsable } from '../usage/credits';
import { taskEvents } from '../apps/platform/task-events';
import type { Caller } from '../apps/platform/caller';
import type { JourneyDelivery } from '../apps/platform/delivery';
import type { AppId } from '../contract/apps';
import { isLocale, type Locale } from '../contract/locales';
import { ACTION_CHOICES_LIMIT, maskPhone, type ActionChoicesAnswer } from '../contract/platform';
import {
  JOURNEY_APP,
  JourneyStepSchema,
  type Journey,
  type JourneyDetail,
  type JourneySendBody,
  type JourneyStatus,
  type JourneyStep,
  type JourneyStepApp,
  type JourneyStepStatus,
  type JourneyTemplate,
  type JourneyTemplateBody,
} from '../contract/journeys';
import { STEP_KINDS, stepTaskStatus, type JourneyParty, type StepOutcome } from './steps';

// The journey rules in one place: the console, /api/v1, the agent action and the customer page
// all call these functions. A journey sends its steps one at a time, each through its app's own
// send, when the caller reaches it: a later step has no task, no link and no page until every
// step before it is done, so a verification first gates everything after it.

export const WALK_PURPOSE = 'journey.walk';
/** how long the journey's one link works (each step's task keeps its app's own expiry) */
export const JOURNEY_LINK_HOURS = 24;

type TemplateRow = {
  id: string;
  name: string;
  steps: JourneyStep[];
  on_failure: 'end' | 'pause';
  created_at: Date;
  updated_at: Date;
};
type JourneyRow = {
  id: string;
  template_id: string | null;
  name: string;
  steps: JourneyStep[];
  on_failure: 'end' | 'pause';
  phone_number: string;
  customer_ref: string | null;
  customer_name: string | null;
  agent: string | null;
  locale: string | null;
  status: JourneyStatus;
  current_step: number;
  sends: number;
  failure_reason: string | null;
  created_at: Date;
  expires_at: Date;
  ended_at: Date | null;
};
type StepRow = {
  position: number;
  app: JourneyStepApp;
  status: JourneyStepStatus;
  task_id: string | null;
  token_encrypted: string | null;
  attempts: number;
};

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

// ---------------------------------------------------------------- templates

function templateOf(r: TemplateRow): JourneyTemplate {
  return {
    id: r.id,
    name: r.name,
    steps: r.steps,
    onFailure: r.on_failure,
    createdAt: iso(r.created_at)!,
    updatedAt: iso(r.updated_at)!,
  };
}

const TEMPLATE_COLUMNS = sql`id, name, steps, on_failure, created_at, updated_at`;

export async function listTemplates(deps: Pick<Deps, 'db'>, accountId: string): Promise<JourneyTemplate[]> {
  return deps.db.tenant(accountId, async (trx) =>
    (
      await sql<TemplateRow>`select ${TEMPLATE_COLUMNS} from journey_templates where account_id = ${accountId} and archived_at is null
      order by updated_at desc, id desc limit 200`.execute(trx)
    ).rows.map(templateOf),
  );
}

async function templateRow(trx: Trx, accountId: string, id: string, lock = false): Promise<TemplateRow> {
  const row = (
    await sql<TemplateRow>`select ${TEMPLATE_COLUMNS} from journey_templates where account_id = ${accountId} and id = ${id} and archived_at is null
    ${lock ? sql`for update` : sql``}`.execute(trx)
  ).rows[0];
  if (!row) throw new ApiError(404, 'NOT_FOUND', 'There is no journey with this id.');
  return row;
}

export async function getTemplate(deps: Pick<Deps, 'db'>, accountId: string, id: string): Promise<JourneyTemplate> {
  return deps.db.tenant(accountId, async (trx) => templateOf(await templateRow(trx, accountId, id)));
}

const stepWord = (n: number) => (n === 1 ? '1 step' : `${n} steps`);

export async function createTemplate(
  deps: Pick<Deps, 'db' | 'now'>,
  accountId: string,
  body: JourneyTemplateBody,
  actor: Actor,
): Promise<JourneyTemplate> {
  const now = deps.now();
  return deps.db.tenant(accountId, async (trx) => {
    const row = (
      await sql<TemplateRow>`insert into journey_templates (id, account_id, name, steps, on_failure, created_at, updated_at)
      values (${crypto.randomUUID()}, ${accountId}, ${body.name}, ${JSON.stringify(body.steps)}::jsonb, ${body.onFailure}, ${now}, ${now})
      returning ${TEMPLATE_COLUMNS}`.execute(trx)
    ).rows[0]!;
    await audit(trx, accountId, actor, {
      namespace: 'global',
      description: `Created the journey "${body.name}" (${stepWord(body.steps.length)})`,
      event: 'journey-template.created',
      at: now,
    });
    return templateOf(row);
  });
}

export async function updateTemplate(
  deps: Pick<Deps, 'db' | 'now'>,
  accountId: string,
  id: string,
  body: JourneyTemplateBody,
  actor: Actor,
): Promise<JourneyTemplate> {
  const now = deps.now();
  return deps.db.tenant(accountId, async (trx) => {
    await templateRow(trx, accountId, id, true);
    const row = (
      await sql<TemplateRow>`update journey_templates set name = ${body.name}, steps = ${JSON.stringify(body.steps)}::jsonb, on_failure = ${body.onFailure}, updated_at = ${now}
      where account_id = ${accountId} and id = ${id} returning ${TEMPLATE_COLUMNS}`.execute(trx)
    ).rows[0]!;
    await audit(trx, accountId, actor, {
      namespace: 'global',
      description: `Updated the journey "${body.name}" (${stepWord(body.steps.length)})`,
      event: 'journey-template.updated',
      at: now,
    });
    return templateOf(row);
  });
}

/** Archived, never deleted: journeys already sent keep their copy of its steps. */
export async function archiveTemplate(
  deps: Pick<Deps, 'db' | 'now'>,
  accountId: string,
  id: string,
  actor: Actor,
): Promise<void> {
  const now = deps.now();
  await deps.db.tenant(accountId, async (trx) => {
    const row = await templateRow(trx, accountId, id, true);
    await sql`update journey_templates set archived_at = ${now} where account_id = ${accountId} and id = ${id}`.execute(trx);
    await audit(trx, accountId, actor, {
      namespace: 'global',
      description: `Deleted the journey "${row.name}"`,
      event: 'journey-template.deleted',
      at: now,
    });
  });
}

/** The account's journeys for a picker (console, Zoom and Webex panels), matching `q`, as the apps' pickers answer. */
export async function journeyChoices(deps: Pick<Deps, 'db'>, accountId: string, q: string): Promise<ActionChoicesAnswer> {
  const needle = q.trim().toLowerCase();
  const matching = (await listTemplates(deps, accountId)).filter(
    (t) => !needle || t.name.toLowerCase().includes(needle) || t.id === needle,
  );
  return {
    choices: matching
      .slice(0, ACTION_CHOICES_LIMIT)
      .map((t) => ({ id: t.id, title: t.name, editedAt: t.updatedAt, detail: t.steps.map((s) => stepName(s)).join(' → ') })),
    more: matching.length > ACTION_CHOICES_LIMIT,
  };
}

export const STEP_NAMES: Record<JourneyStepApp, string> = {
  'one-time-passcode': 'Verify with a code',
  passkeys: 'Verify with a passkey',
  'identity-verification': 'Verify an identity document',
  'e-form': 'Fill in a form',
  'document-signature': 'Sign a document',
  payments: 'Pay',
};

/** A step's name in timelines and pickers: a passkey step verifies or enrolls. */
export const stepName = (step: JourneyStep | undefined, app?: JourneyStepApp): string =>
  step?.app === 'passkeys' && step.action === 'enroll' ? 'Create a passkey' : STEP_NAMES[step?.app ?? app!];

// ---------------------------------------------------------------- journeys

async function journeyRow(trx: Trx, accountId: string, id: string, lock = false): Promise<JourneyRow> {
  const row = (
    await sql<JourneyRow>`select * from journeys where account_id = ${accountId} and id = ${id} ${lock ? sql`for update` : sql``}`.execute(
      trx,
    )
  ).rows[0];
  if (!row) throw new ApiError(404, 'NOT_FOUND', 'There is no journey with this id.');
  return row;
}

async function stepRows(trx: Trx, accountId: string, journeyId: string): Promise<StepRow[]> {
  return (
    await sql<StepRow>`select position, app, status, task_id, token_encrypted, attempts from journey_steps
    where account_id = ${accountId} and journey_id = ${journeyId} order by position`.execute(trx)
  ).rows;
}

/** One line of the journey's timeline (task_events under the app name 'journeys'), sent with the COMMIT. */
async function addEvent(
  trx: Trx,
  accountId: string,
  journeyId: string,
  now: Date,
  type: string,
  description: string,
  caller: Caller | null,
): Promise<void> {
  await later(
    trx,
    sql`insert into task_events (account_id, app, task_id, ts, type, description, actor, ip, user_agent)
    values (${accountId}, ${JOURNEY_APP}, ${journeyId}, ${now}, ${type}, ${description}, ${caller?.label ?? 'System'}, ${caller?.ip ?? null}, ${caller?.userAgent?.slice(0, 300) ?? null})`,
  );
}

function journeyOf(r: JourneyRow, steps: StepRow[], taskStatuses: Map<number, string> = new Map()): Journey {
  return {
    id: r.id,
    templateId: r.template_id,
    name: r.name,
    status: r.status,
    onFailure: r.on_failure,
    phoneNumber: maskPhone(r.phone_number)!,
    customerRef: r.customer_ref,
    agent: r.agent,
    locale: r.locale,
    currentStep: r.current_step,
    steps: steps.map((s) => ({
      position: s.position,
      app: s.app,
      optional: Boolean(r.steps[s.position]?.optional),
      status: s.status,
      taskId: s.task_id,
      taskStatus: taskStatuses.get(s.position) ?? null,
      attempts: s.attempts,
    })),
    failureReason: r.failure_reason,
    createdAt: iso(r.created_at)!,
    expiresAt: iso(r.expires_at)!,
    endedAt: iso(r.ended_at),
  };
}

/**
 * The journey's webhook event, signed and delivered as the apps' are: queued for every enabled
 * endpoint of the journey's apps that subscribed to it, once per address.
 */
async function enqueueJourneyEvent(
  trx: Trx,
  accountId: string,
  row: JourneyRow,
  steps: StepRow[],
  type: string,
  now: Date,
): Promise<void> {
  const id = crypto.randomUUID();
  const data = journeyOf(row, steps);
  const event = {
    id: `evt_${id.replaceAll('-', '')}`,
    type,
    created: Math.floor(now.getTime() / 1000),
    account: accountId,
    data,
  };
  const apps = [...new Set(row.steps.map((s) => s.app))];
  await later(
    trx,
    sql`with event as (insert into webhook_events (id, account_id, app, type, payload, created_at) values (${id}, ${accountId}, ${JOURNEY_APP}, ${type}, ${JSON.stringify(event)}::jsonb, ${now}))
    insert into webhook_deliveries (account_id, endpoint_id, event_id, state, next_attempt_at, created_at, updated_at)
    select distinct on (url) account_id, id, ${id}::uuid, 'pending', ${now}::timestamptz, ${now}::timestamptz, ${now}::timestamptz from webhook_endpoints
    where account_id = ${accountId} and app = any(${apps}::text[]) and enabled and ${type} = any(event_types)
    order by url, created_at`,
  );
}

const ENDING: Partial<Record<JourneyStatus, { event: string; audit: string }>> = {
  completed: { event: 'journey.completed', audit: 'completed' },
  failed: { event: 'journey.failed', audit: 'failed' },
  expired: { event: 'journey.expired', audit: 'expired' },
};

/** Ends (or pauses) a locked journey: its status, timeline, audit entry and webhook event. */
async function settle(
  trx: Trx,
  accountId: string,
  row: JourneyRow,
  status: JourneyStatus,
  now: Date,
  caller: Caller | null,
  description: string,
  reason: string | null = null,
): Promise<JourneyRow> {
  const ends = status !== 'paused' && status !== 'active';
  const updated = (
    await sql<JourneyRow>`update journeys set status = ${status}, failure_reason = ${reason}, updated_at = ${now}, ended_at = ${ends ? now : null}
    where id = ${row.id} returning *`.execute(trx)
  ).rows[0]!;
  await addEvent(trx, accountId, row.id, now, status, description, caller);
  await audit(trx, accountId, caller?.actor ?? null, {
    namespace: 'global',
    description: `Journey "${row.name}" for ${maskPhone(row.phone_number)}: ${description}`,
    event: `journey.${status}`,
    at: now,
  });
  const ending = ENDING[status];
  if (ending) await enqueueJourneyEvent(trx, accountId, updated, await stepRows(trx, accountId, row.id), ending.event, now);
  return updated;
}

const partyOf = (r: JourneyRow): JourneyParty => ({
  phoneNumber: r.phone_number,
  customerRef: r.customer_ref,
  customerName: r.customer_name,
  agent: r.agent,
  locale: isLocale(r.locale) ? r.locale : null,
});

/** Who sends the steps after the first: the journey's own agent (or the API key that sent it). */
function journeyCaller(r: JourneyRow): Caller {
  const label = r.agent ?? 'Journey';
  return { kind: 'api', actor: { id: null, firstName: label, lastName: '' }, label, ip: null, userAgent: null };
}

/**
 * Sends step `position` through its app (claimed first, so two requests never send it twice).
 * A refusal of the app (a closed form, the free tier used up) fails the step; `rethrow` hands it
 * to the caller instead (the journey's first step, answered to whoever sent the journey).
 */
async function sendStep(
  deps: Deps,
  accountId: string,
  journeyId: string,
  position: number,
  returnUrl: string,
  caller: Caller,
  rethrow: boolean,
): Promise<JourneyDelivery | null> {
  const now = deps.now();
  const claimed = await deps.db.tenant(accountId, async (trx) => {
    const row = await journeyRow(trx, accountId, journeyId);
    const won =
      (
        await sql<{ position: number }>`update journey_steps set status = 'sending', attempts = attempts + 1, started_at = ${now}
      where account_id = ${accountId} and journey_id = ${journeyId} and position = ${position} and status = 'waiting' returning position`.execute(
          trx,
        )
      ).rows.length > 0;
    return won ? row : null;
  });
  if (!claimed) return null;
  const step = v.parse(JourneyStepSchema, claimed.steps[position]);
  const delivery: JourneyDelivery = { returnUrl };
  let taskId: string;
  try {
    taskId = await STEP_KINDS[step.app].send(deps, accountId, step, partyOf(claimed), caller, delivery);
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    if (rethrow) throw err;
    await deps.db.tenant(accountId, async (trx) => {
      const row = await journeyRow(trx, accountId, journeyId, true);
      await sql`update journey_steps set status = 'failed', ended_at = ${now} where account_id = ${accountId} and journey_id = ${journeyId} and position = ${position}`.execute(
        trx,
      );
      const description = `Step ${position + 1} (${stepName(step)}) could not be sent: ${err.message}`;
      await settle(trx, accountId, row, row.on_failure === 'end' ? 'failed' : 'paused', now, caller, description, err.message);
    });
    return null;
  }
  await deps.db.tenant(accountId, async (trx) => {
    await sql`update journey_steps set status = 'active', task_id = ${taskId}, token_encrypted = ${delivery.token ? encryptSecret(delivery.token, deps.config.encryptionKey) : null}
      where account_id = ${accountId} and journey_id = ${journeyId} and position = ${position}`.execute(trx);
    await addEvent(
      trx,
      accountId,
      journeyId,
      now,
      'step_sent',
      `Step ${position + 1} (${stepName(step)}) started: task ${taskId}`,
      caller,
    );
  });
  return delivery;
}

/**
 * The journey's SMS did not go out, so the caller never got the step just sent: its task ends as
 * its app ends one whose own SMS failed (the credit given back, the app's status, timeline, audit
 * entry and webhook), and the step fails with it. The journey is then settled by the caller.
 */
async function stepUndelivered(
  deps: Deps,
  accountId: string,
  journeyId: string,
  position: number,
  failure: string,
  caller: Caller,
): Promise<void> {
  const step = (await deps.db.tenant(accountId, (trx) => stepRows(trx, accountId, journeyId)))[position];
  if (!step?.task_id) return;
  try {
    await STEP_KINDS[step.app].undelivered(deps, accountId, step.task_id, failure, caller);
  } catch (err) {
    // the journey still fails below, so the agent sees it and can resend: the task keeps its status
    deps.log(`journey ${journeyId}: step ${position + 1}'s task could not be ended as undelivered`, err);
  }
}

async function failUndeliveredStep(trx: Trx, accountId: string, journeyId: string, position: number, now: Date): Promise<void> {
  await sql`update journey_steps set status = 'failed', ended_at = ${now} where account_id = ${accountId} and journey_id = ${journeyId} and position = ${position} and status = 'active'`.execute(
    trx,
  );
}

/** The journey's one SMS: the first step's own text when it carries a secret (a passcode), then the link. */
async function textJourney(
  deps: Deps,
  accountId: string,
  row: JourneyRow,
  link: string,
  first: JourneyDelivery | null,
  locale: Locale,
): Promise<string | null> {
  const company = await deps.db.tenant(accountId, (trx) => companyName(trx, accountId));
  const text = [first?.smsText, translate(locale, 'journey.sms', { company, link, steps: row.steps.length })]
    .filter(Boolean)
    .join('\n');
  try {
    await sendAccountSms(deps, accountId, row.phone_number, text);
    return null;
  } catch (err) {
    if (!(err instanceof ApiError)) deps.log('Journey SMS failed', err);
    return err instanceof ApiError ? err.message : 'The SMS provider could not be reached.';
  }
}

/**
 * Sends a journey: one SMS with one link, the first step sent through its app. A refusal of the
 * first step's app (or of the SMS configuration) is answered as that app answers it, and leaves
 * no journey behind.
 */
export async function sendJourney(deps: Deps, accountId: string, body: JourneySendBody, caller: Caller): Promise<Journey> {
  const now = deps.now();
  const id = crypto.randomUUID();
  const agent = body.agent ?? (caller.kind === 'api' ? null : caller.label);
  const created = await deps.db.tenant(accountId, async (trx) => {
    const template = body.templateId ? await templateRow(trx, accountId, body.templateId) : null;
    const steps = template ? template.steps : body.steps!;
    if (steps.some((s) => s.app === 'passkeys') && !body.customerRef) {
      throw new ApiError(
        400,
        'VALIDATION_FAILED',
        'customerRef: A journey with a passkey step needs the customer ID the passkey was enrolled for',
        { customerRef: 'A journey with a passkey step needs the customer ID the passkey was enrolled for' },
      );
    }
    if (steps.some((s) => s.app === 'identity-verification')) {
      if (!body.customerRef)
        throw new ApiError(400, 'VALIDATION_FAILED', 'customerRef: A journey with an identity step needs the customer ID', {
          customerRef: 'A journey with an identity step needs the customer ID',
        });
      // unreleased: offered only where Identity Verification is released for the account
      if (!(await idvReleasedFor(trx, accountId, deps.config.providerEmailDomain)))
        throw new ApiError(
          403,
          'APP_NOT_RELEASED',
          'Identity Verification is not released for this account: a journey cannot have an identity step.',
        );
    }
    if (steps.some((s) => s.app === 'document-signature') && !body.customerName) {
      throw new ApiError(400, 'VALIDATION_FAILED', "customerName: A journey with a signature step needs the signer's name", {
        customerName: "A journey with a signature step needs the signer's name",
      });
    }
    // every step's app must be usable now (each app's own rule): a journey that would stop at
    // its third step for an inactive app is refused before the caller gets anything
    for (const app of new Set(steps.map((s) => s.app))) await assertAppUsable(trx, accountId, app, 1);
    const language = await chooseLanguage(trx, accountId, body.locale);
    const expiresAt = new Date(now.getTime() + JOURNEY_LINK_HOURS * 3_600_000);
    const row = (
      await sql<JourneyRow>`insert into journeys (id, account_id, template_id, name, steps, on_failure, phone_number, customer_ref, customer_name, agent, locale,
        status, created_at, updated_at, expires_at)
      values (${id}, ${accountId}, ${template?.id ?? null}, ${template?.name ?? 'Journey'}, ${JSON.stringify(steps)}::jsonb, ${body.onFailure ?? template?.on_failure ?? 'end'},
        ${body.phoneNumber}, ${body.customerRef ?? null}, ${body.customerName ?? null}, ${agent}, ${body.locale ?? null}, 'active', ${now}, ${now}, ${expiresAt})
      returning *`.execute(trx)
    ).rows[0]!;
    for (const [position, step] of steps.entries()) {
      await sql`insert into journey_steps (account_id, journey_id, position, app, status) values (${accountId}, ${id}, ${position}, ${step.app}, 'waiting')`.execute(
        trx,
      );
    }
    const { token } = await createLinkToken(trx, accountId, {
      app: JOURNEY_APP as AppId,
      purpose: WALK_PURPOSE,
      taskId: id,
      ttlMs: expiresAt.getTime() - now.getTime(),
      now,
      locale: language.locale,
    });
    const link = await linkUrl(trx, accountId, deps.config.publicUrl, token);
    await sql`update journeys set link_encrypted = ${encryptSecret(link, deps.config.encryptionKey)} where id = ${id}`.execute(
      trx,
    );
    return { row, locale: smsLocaleOf(language), link };
  });
  let first: JourneyDelivery | null;
  try {
    first = await sendStep(deps, accountId, id, 0, created.link, caller, true);
  } catch (err) {
    // nothing was sent: the journey never existed (its steps and link go with it)
    await deps.db.tenant(accountId, (trx) =>
      sql`delete from journeys where account_id = ${accountId} and id = ${id}`.execute(trx),
    );
    throw err;
  }
  const failure = await textJourney(deps, accountId, created.row, created.link, first, created.locale);
  if (failure !== null) await stepUndelivered(deps, accountId, id, 0, failure, caller);
  return deps.db.tenant(accountId, async (trx) => {
    let row = await journeyRow(trx, accountId, id, true);
    const masked = maskPhone(row.phone_number);
    if (failure === null) {
      await addEvent(trx, accountId, id, now, 'sent', `Journey sent to ${masked} (${stepWord(row.steps.length)})`, caller);
      await audit(trx, accountId, caller.actor, {
        namespace: 'global',
        description: `Sent the journey "${row.name}" to ${masked}`,
        event: 'journey.sent',
        at: now,
      });
    } else {
      await failUndeliveredStep(trx, accountId, id, 0, now);
      row = await settle(
        trx,
        accountId,
        row,
        'failed',
        now,
        caller,
        `Journey link not delivered: ${failure}`,
        `Link not delivered: ${failure}`,
      );
    }
    return journeyOf(row, await stepRows(trx, accountId, id));
  });
}

/**
 * Moves a journey on as far as its steps allow: a done step opens the next (sent through its
 * app), a failed or expired one ends or pauses the journey as its template says, and a journey
 * past its link's time expires. Every reader calls it (page, console, /api/v1): nothing waits on
 * a timer.
 */
export async function advanceJourney(deps: Deps, accountId: string, id: string): Promise<void> {
  for (let round = 0; round < 20; round++) {
    const now = deps.now();
    const { row, steps } = await deps.db.tenant(accountId, async (trx) => ({
      row: await journeyRow(trx, accountId, id),
      steps: await stepRows(trx, accountId, id),
    }));
    if (row.status !== 'active') return;
    if (new Date(row.expires_at).getTime() <= now.getTime()) {
      await settleLocked(deps, accountId, id, row.current_step, (trx, locked) =>
        settle(trx, accountId, locked, 'expired', now, null, 'The journey link expired before every step was done'),
      );
      return;
    }
    const step = steps[row.current_step]!;
    if (step.status === 'waiting') {
      const link = await journeyLink(deps, accountId, id);
      if (!link) return;
      await sendStep(deps, accountId, id, step.position, link, journeyCaller(row), false);
      continue;
    }
    if (step.status !== 'active' || !step.task_id) return;
    const { outcome } = await stepTaskStatus(deps, accountId, step.app, step.task_id);
    if (outcome === 'waiting') return;
    await settleLocked(deps, accountId, id, row.current_step, (trx, locked) =>
      finishStep(trx, accountId, locked, step, outcome, now),
    );
  }
}

/** Runs `fn` on the locked journey if it is still active at the same step (else another request got there first). */
async function settleLocked(
  deps: Deps,
  accountId: string,
  id: string,
  at: number,
  fn: (trx: Trx, row: JourneyRow) => Promise<unknown>,
): Promise<void> {
  await deps.db.tenant(accountId, async (trx) => {
    const row = await journeyRow(trx, accountId, id, true);
    if (row.status === 'active' && row.current_step === at) await fn(trx, row);
  });
}

async function finishStep(
  trx: Trx,
  accountId: string,
  row: JourneyRow,
  step: StepRow,
  outcome: Exclude<StepOutcome, 'waiting'>,
  now: Date,
): Promise<void> {
  const name = `Step ${step.position + 1} (${stepName(row.steps[step.position], step.app)})`;
  await sql`update journey_steps set status = ${outcome}, ended_at = ${now} where account_id = ${accountId} and journey_id = ${row.id} and position = ${step.position}`.execute(
    trx,
  );
  if (outcome === 'done') {
    await addEvent(trx, accountId, row.id, now, 'step_done', `${name} done`, null);
    await moveOn(trx, accountId, row, now, null);
    return;
  }
  const what = outcome === 'failed' ? 'failed' : 'expired';
  if (row.on_failure === 'pause') {
    await settle(
      trx,
      accountId,
      row,
      'paused',
      now,
      null,
      `${name} ${what}: paused until the agent resends it`,
      `${name} ${what}`,
    );
  } else {
    await settle(
      trx,
      accountId,
      row,
      outcome === 'failed' ? 'failed' : 'expired',
      now,
      null,
      `${name} ${what}`,
      `${name} ${what}`,
    );
  }
}

/** After a done or skipped step: the next one, or the journey is complete. */
async function moveOn(trx: Trx, accountId: string, row: JourneyRow, now: Date, caller: Caller | null): Promise<void> {
  const next = row.current_step + 1;
  if (next >= row.steps.length) {
    const moved = (
      await sql<JourneyRow>`update journeys set current_step = ${next - 1}, updated_at = ${now} where id = ${row.id} returning *`.execute(
        trx,
      )
    ).rows[0]!;
    await settle(trx, accountId, moved, 'completed', now, caller, 'Every step is done');
    return;
  }
  await sql`update journeys set current_step = ${next}, updated_at = ${now} where id = ${row.id}`.execute(trx);
}

/** The journey's link, for a step whose page leaves for another site and must come back (Stripe). */
async function journeyLink(deps: Deps, accountId: string, journeyId: string): Promise<string | null> {
  const row = await deps.db.tenant(accountId, (trx) =>
    sql<{
      link_encrypted: string | null;
    }>`select link_encrypted from journeys where account_id = ${accountId} and id = ${journeyId}`.execute(trx),
  );
  const stored = row.rows[0]?.link_encrypted;
  return stored ? decryptSecret(stored, deps.config.encryptionKey) : null;
}

/**
 * The sweep, every few seconds in every process: active journeys whose link has expired or whose
 * current step was not looked at for a while are moved on, so journey.completed, failed and
 * expired are sent when the last step's task ends (a payment's Stripe event, an expiry), not
 * only when someone next opens the journey. A batch at a time, least recently looked at first.
 */
export async function sweepJourneys(deps: Deps, limit = 100): Promise<number> {
  const now = deps.now();
  const due = await deps.db.system((trx) =>
    sql<{ id: string; account_id: string }>`select j.id, j.account_id from journeys j
      join journey_steps s on s.journey_id = j.id and s.position = j.current_step
      where j.status = 'active' and (j.expires_at <= ${now} or s.checked_at is null or s.checked_at <= ${new Date(now.getTime() - SWEEP_AGAIN_MS)})
      order by s.checked_at nulls first limit ${limit}`.execute(trx),
  );
  for (const d of due.rows) {
    try {
      await advanceJourney(deps, d.account_id, d.id);
    } catch (err) {
      deps.log(`journey ${d.id} could not be moved on`, err);
    }
    await deps.db.tenant(d.account_id, (trx) =>
      sql`update journey_steps set checked_at = ${now} where account_id = ${d.account_id} and journey_id = ${d.id}
        and position = (select current_step from journeys where id = ${d.id})`.execute(trx),
    );
  }
  return due.rows.length;
}

/** how long a journey's current step goes unlooked-at by the sweep */
export const SWEEP_AGAIN_MS = 5_000;

/** The caller skips an optional step (from the page). */
export async function skipStep(deps: Deps, accountId: string, id: string, position: number, caller: Caller): Promise<boolean> {
  const now = deps.now();
  return deps.db.tenant(accountId, async (trx) => {
    const row = await journeyRow(trx, accountId, id, true);
    if (row.status !== 'active' || row.current_step !== position || !row.steps[position]?.optional) return false;
    await sql`update journey_steps set status = 'skipped', ended_at = ${now} where account_id = ${accountId} and journey_id = ${id} and position = ${position}`.execute(
      trx,
    );
    await addEvent(
      trx,
      accountId,
      id,
      now,
      'step_skipped',
      `Step ${position + 1} (${stepName(row.steps[position])}) skipped by the caller`,
      caller,
    );
    await moveOn(trx, accountId, row, now, caller);
    return true;
  });
}

/** The journey with each step's task status as its app reads it now. */
export async function getJourney(deps: Deps, accountId: string, id: string): Promise<Journey> {
  await advanceJourney(deps, accountId, id);
  const { row, steps } = await deps.db.tenant(accountId, async (trx) => ({
    row: await journeyRow(trx, accountId, id),
    steps: await stepRows(trx, accountId, id),
  }));
  const statuses = new Map<number, string>();
  for (const s of steps)
    if (s.task_id) statuses.set(s.position, (await stepTaskStatus(deps, accountId, s.app, s.task_id)).status);
  return journeyOf(row, steps, statuses);
}

export async function getJourneyDetail(deps: Deps, accountId: string, id: string): Promise<JourneyDetail> {
  const journey = await getJourney(deps, accountId, id);
  return { ...journey, timeline: await deps.db.tenant(accountId, (trx) => taskEvents(trx, accountId, id)) };
}

export async function listJourneys(deps: Pick<Deps, 'db'>, accountId: string, status?: JourneyStatus): Promise<Journey[]> {
  return deps.db.tenant(accountId, async (trx) => {
    const rows = (
      await sql<JourneyRow>`select * from journeys where account_id = ${accountId} ${status ? sql`and status = ${status}` : sql``}
      order by created_at desc, id desc limit 100`.execute(trx)
    ).rows;
    const steps = rows.length
      ? (
          await sql<
            StepRow & { journey_id: string }
          >`select journey_id, position, app, status, task_id, token_encrypted, attempts from journey_steps
          where account_id = ${accountId} and journey_id = any(${rows.map((r) => r.id)}::uuid[]) order by position`.execute(trx)
        ).rows
      : [];
    return rows.map((r) =>
      journeyOf(
        r,
        steps.filter((s) => s.journey_id === r.id),
      ),
    );
  });
}

/**
 * Resends a failed, expired or paused journey from the step that did not finish: that step is
 * sent again through its app (a new task, charged as the app charges a send), and the caller
 * gets a new SMS with a new link (the old one stops working).
 */
export async function resendJourney(deps: Deps, accountId: string, id: string, caller: Caller): Promise<Journey> {
  await advanceJourney(deps, accountId, id);
  const now = deps.now();
  const prepared = await deps.db.tenant(accountId, async (trx) => {
    const row = await journeyRow(trx, accountId, id, true);
    if (row.status === 'active')
      throw new ApiError(
        409,
        'JOURNEY_IN_PROGRESS',
        'This journey is still in progress: the caller can go on with the link they have.',
      );
    if (row.status === 'completed' || row.status === 'canceled')
      throw new ApiError(409, 'JOURNEY_ENDED', `This journey is ${row.status}: send a new one.`);
    const language = await chooseLanguage(trx, accountId, isLocale(row.locale) ? row.locale : null);
    const expiresAt = new Date(now.getTime() + JOURNEY_LINK_HOURS * 3_600_000);
    await revokeTaskLinks(trx, accountId, id, now);
    const { token } = await createLinkToken(trx, accountId, {
      app: JOURNEY_APP as AppId,
      purpose: WALK_PURPOSE,
      taskId: id,
      ttlMs: expiresAt.getTime() - now.getTime(),
      now,
      locale: language.locale,
    });
    const link = await linkUrl(trx, accountId, deps.config.publicUrl, token);
    await sql`update journey_steps set status = 'waiting', task_id = null, token_encrypted = null, ended_at = null
      where account_id = ${accountId} and journey_id = ${id} and position = ${row.current_step}`.execute(trx);
    const updated = (
      await sql<JourneyRow>`update journeys set status = 'active', failure_reason = null, ended_at = null, sends = sends + 1, expires_at = ${expiresAt}, updated_at = ${now}
      where id = ${id} returning *`.execute(trx)
    ).rows[0]!;
    await sql`update journeys set link_encrypted = ${encryptSecret(link, deps.config.encryptionKey)} where id = ${id}`.execute(
      trx,
    );
    await addEvent(
      trx,
      accountId,
      id,
      now,
      'resent',
      `Journey sent again from step ${row.current_step + 1} (send ${updated.sends})`,
      caller,
    );
    await audit(trx, accountId, caller.actor, {
      namespace: 'global',
      description: `Sent the journey "${row.name}" to ${maskPhone(row.phone_number)} again from step ${row.current_step + 1}`,
      event: 'journey.resent',
      at: now,
    });
    return { row: updated, link, locale: smsLocaleOf(language) };
  });
  const first = await sendStep(deps, accountId, id, prepared.row.current_step, prepared.link, caller, false);
  const failure = await textJourney(deps, accountId, prepared.row, prepared.link, first, prepared.locale);
  if (failure !== null) {
    await stepUndelivered(deps, accountId, id, prepared.row.current_step, failure, caller);
    await settleLocked(deps, accountId, id, prepared.row.current_step, async (trx, row) => {
      await failUndeliveredStep(trx, accountId, id, row.current_step, now);
      await settle(
        trx,
        accountId,
        row,
        'failed',
        now,
        caller,
        `Journey link not delivered: ${failure}`,
        `Link not delivered: ${failure}`,
      );
    });
  }
  return getJourney(deps, accountId, id);
}

// ---------------------------------------------------------------- the caller's page

/** What the journey's page shows now: the journey, and the current step with its own link. */
export async function pageState(
  deps: Deps,
  accountId: string,
  id: string,
): Promise<{
  journey: Journey;
  step: { position: number; app: JourneyStepApp; taskId: string; token: string | null; optional: boolean } | null;
}> {
  await advanceJourney(deps, accountId, id);
  const { row, steps } = await deps.db.tenant(accountId, async (trx) => ({
    row: await journeyRow(trx, accountId, id),
    steps: await stepRows(trx, accountId, id),
  }));
  const journey = journeyOf(row, steps);
  const current = steps[row.current_step];
  if (row.status !== 'active' || !current || current.status !== 'active' || !current.task_id) return { journey, step: null };
  return {
    journey,
    step: {
      position: current.position,
      app: current.app,
      taskId: current.task_id,
      token: await stepToken(deps, accountId, id, current),
      optional: Boolean(row.steps[current.position]?.optional),
    },
  };
}

/**
 * The step's own link token for the page. A task still waiting whose app revoked that link and
 * issued another (IDV's "ask for new photos") gets the new one from its app, kept for the step:
 * the journey's link stays the caller's one link.
 */
async function stepToken(deps: Deps, accountId: string, journeyId: string, step: StepRow): Promise<string | null> {
  if (!step.token_encrypted) return null;
  const token = decryptSecret(step.token_encrypted, deps.config.encryptionKey);
  const renew = STEP_KINDS[step.app].renewToken;
  if (!renew || (await resolveLink(deps.db, token, deps.now()))?.state !== 'revoked') return token;
  const renewed = await renew(deps, accountId, step.task_id!);
  if (!renewed) return token;
  await deps.db.tenant(accountId, (trx) =>
    sql`update journey_steps set token_encrypted = ${encryptSecret(renewed, deps.config.encryptionKey)}
      where account_id = ${accountId} and journey_id = ${journeyId} and position = ${step.position} and token_encrypted = ${step.token_encrypted}`.execute(
      trx,
    ),
  );
  return renewed;
}
