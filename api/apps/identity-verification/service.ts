import { sql } from 'kysely';
import * as v from 'valibot';
import type { Deps } from '../../deps';
import type { Trx } from '../../db/index';
import { audit } from '../../audit';
import { ApiError } from '../../http/errors';
import { decryptSecret, encryptSecret } from '../../crypto';
import { recordResult } from '../../results/record';
import { addTaskEvent } from '../platform/task-events';
import { enqueueWebhookEvent } from '../platform/webhook-events';
import { storedAppSettings } from '../platform/app-settings';
import {
  chooseLanguage,
  languageEvent,
  smsLocaleOf,
  taskLanguage,
  templateText,
  type LanguageChoice,
} from '../../customer-pages/language';
import { companyName, renderTemplate, sendAccountSms, sendAppSms } from '../platform/sms';
import { API_KEY_ACTOR, apiCaller, type Caller } from '../platform/caller';
import type { JourneyDelivery } from '../platform/delivery';
import { createLinkToken, linkUrl, revokeTaskLinks } from '../../customer-pages/links';
import { deleteFile, deleteFiles, putFile } from '../../storage/files';
import { maskPhone } from '../../contract/platform';
import type { ResultStatus } from '../../contract/results';
import {
  IDV_APP,
  IDV_CUSTOMER_STATUSES,
  IDV_DEFAULT_SETTINGS,
  IDV_FINAL_STATUSES,
  IDV_SIDE_LABELS,
  IDV_TEMPLATES,
  IdvGeneralSettingsSchema,
  documentTypeOf,
  type IdvDecisionBody,
  type IdvExtracted,
  type IdvGeneralSettings,
  type IdvSession,
  type IdvSide,
  type IdvStartBody,
  type IdvStatus,
} from '../../contract/apps/identity-verification';
import { checkImage, isRefusal } from './images';
import { checkOf, runChecks } from './checks';
import { sweepDue, type Expiry } from '../platform/expiry';

// The Identity Verification rules, in one place: /api/v1, the agent action, the console's review
// screen, the customer page and the demo seed all call these functions.

export type IdvDeps = Pick<Deps, 'db' | 'config' | 'now' | 'log'>;
export const IDV_LINK_PURPOSE = 'idv.capture';

export type SessionRow = {
  id: string;
  account_id: string;
  phone_number: string;
  customer_ref: string;
  agent: string | null;
  status: IdvStatus;
  document_type: string | null;
  expected_name: string | null;
  expected_date_of_birth: string | null;
  attempt: number;
  created_at: Date;
  link_expires_at: Date | null;
  started_at: Date | null;
  submitted_at: Date | null;
  ended_at: Date | null;
  extracted: IdvExtracted | null;
  document_number: string | null;
  failed_checks: number;
  assigned_id: string | null;
  assigned_name: string | null;
  decision: IdvDecisionBody['decision'] | null;
  decision_reason: string | null;
  decision_note: string | null;
  reviewer_id: string | null;
  reviewer_name: string | null;
  decided_at: Date | null;
  failure_reason: string | null;
  /** a journey's step: the journey's link, where IDV's page sends the caller back (encrypted) */
  return_url_encrypted: string | null;
  images_redacted_at: Date | null;
  data_redacted_at: Date | null;
  redacted_at: Date | null;
};

type CheckRow = { key: string; status: 'passed' | 'failed' | 'not_run'; reason: string };
export type ImageRow = { side: IdvSide; file_id: string | null; content_type: string; size: number; uploaded_at: Date };

const RESULT_OF: Partial<Record<IdvStatus, ResultStatus>> = {
  approved: 'success',
  declined: 'failure',
  cancelled: 'failure',
  expired: 'timeout',
};
export const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);
const CHECK_ORDER = ['mrz', 'expiry', 'minimum_age', 'name', 'date_of_birth', 'document_number', 'face_match', 'liveness'];

export function sessionOf(r: SessionRow, checks: CheckRow[]): IdvSession {
  const sorted = [...checks].sort((a, b) => CHECK_ORDER.indexOf(a.key) - CHECK_ORDER.indexOf(b.key));
  return {
    id: r.id,
    status: r.status,
    phoneNumber: maskPhone(r.phone_number)!,
    customerRef: r.customer_ref,
    agent: r.agent,
    documentType: r.document_type,
    createdAt: new Date(r.created_at).toISOString(),
    linkExpiresAt: iso(r.link_expires_at),
    submittedAt: iso(r.submitted_at),
    decidedAt: iso(r.decided_at),
    decisionReason: r.decision_reason,
    redactedAt: iso(r.redacted_at),
    checks: sorted.map((c) => checkOf(c.key, c.status, c.reason)),
    failureReason: r.failure_reason,
  };
}

/** What a receiver gets: ids, status and outcome; never images, names or document data. */
export function eventData(r: SessionRow, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: r.id,
    status: r.status,
    customerRef: r.customer_ref,
    agent: r.agent,
    documentType: r.document_type,
    submittedAt: iso(r.submitted_at),
    decidedAt: iso(r.decided_at),
    decisionReason: r.decision_reason,
    failedChecks: r.failed_checks,
    ...extra,
  };
}

export async function idvSettings(trx: Trx, accountId: string): Promise<IdvGeneralSettings> {
  const { general } = await storedAppSettings(trx, accountId, IDV_APP);
  const merged = v.safeParse(IdvGeneralSettingsSchema, { ...IDV_DEFAULT_SETTINGS, ...general });
  return merged.success ? merged.output : IDV_DEFAULT_SETTINGS;
}

export async function checksOf(trx: Trx, accountId: string, id: string): Promise<CheckRow[]> {
  return (
    await sql<CheckRow>`select key, status, reason from idv_checks where account_id = ${accountId} and session_id = ${id}`.execute(
      trx,
    )
  ).rows;
}

export async function lockRow(trx: Trx, accountId: string, id: string): Promise<SessionRow> {
  const row = (
    await sql<SessionRow>`select * from idv_sessions where account_id = ${accountId} and id = ${id} for update`.execute(trx)
  ).rows[0];
  if (!row) throw new ApiError(404, 'NOT_FOUND', 'There is no verification session with this id.');
  return row;
}

export async function update(trx: Trx, id: string, set: Record<string, unknown>): Promise<SessionRow> {
  const assignments = Object.entries(set).map(
    ([column, value]) =>
      sql`${sql.ref(column)} = ${value instanceof Date || value === null || typeof value !== 'object' ? value : JSON.stringify(value)}`,
  );
  return (
    await sql<SessionRow>`update idv_sessions set ${sql.join(assignments, sql`, `)} where id = ${id} returning *`.execute(trx)
  ).rows[0]!;
}

/** Ends a session: status, result for search and Watch Tower, timeline, webhook. */
export async function end(
  trx: Trx,
  accountId: string,
  row: SessionRow,
  status: IdvStatus,
  now: Date,
  caller: Caller | null,
  description: string,
  set: Record<string, unknown> = {},
): Promise<SessionRow> {
  const updated = await update(trx, row.id, { status, ended_at: now, ...set });
  await recordResult(trx, accountId, {
    app: IDV_APP,
    status: RESULT_OF[status]!,
    ts: now,
    sessionRef: row.id,
    phoneNumber: row.phone_number,
    customerRef: row.customer_ref,
  });
  await addTaskEvent(trx, accountId, { app: IDV_APP, taskId: row.id, ts: now, type: status, description, caller });
  if (status !== 'cancelled')
    await enqueueWebhookEvent(trx, accountId, IDV_APP, `idv.session.${status}`, eventData(updated), now);
  return updated;
}

/** Lazily expires a session whose link ran out while the customer had not finished. */
export async function expireIfDue(trx: Trx, accountId: string, row: SessionRow, now: Date): Promise<SessionRow> {
  if (
    !IDV_CUSTOMER_STATUSES.includes(row.status) ||
    !row.link_expires_at ||
    new Date(row.link_expires_at).getTime() > now.getTime()
  )
    return row;
  return end(trx, accountId, row, 'expired', now, null, 'The link expired before the customer sent their photos');
}

/** A v1 call that names no agent acts for the agent who started the session. */
function actingFor(caller: Caller, row: SessionRow): Caller {
  return caller.kind === 'api' && caller.label === API_KEY_ACTOR && row.agent
    ? apiCaller(row.agent, caller.ip, caller.userAgent)
    : caller;
}

/** A fresh link for the session and the SMS text that carries it. */
export async function prepareLink(
  deps: IdvDeps,
  trx: Trx,
  accountId: string,
  row: SessionRow,
  template: 'link' | 'resubmission',
  now: Date,
  language: LanguageChoice,
): Promise<{ text: string; expiresAt: Date; token: string }> {
  const settings = await idvSettings(trx, accountId);
  const { token, expiresAt } = await createLinkToken(trx, accountId, {
    app: IDV_APP,
    purpose: IDV_LINK_PURPOSE,
    taskId: row.id,
    ttlMs: settings.linkValidityMinutes * 60_000,
    now,
    locale: language.locale,
  });
  const text = await linkText(trx, accountId, template, await linkUrl(trx, accountId, deps.config.publicUrl, token), language);
  return { text, expiresAt, token };
}

/** The account's IDV text `template` in the caller's language, carrying `link`. */
export async function linkText(
  trx: Trx,
  accountId: string,
  template: 'link' | 'resubmission',
  link: string,
  language: LanguageChoice,
): Promise<string> {
  const settings = await idvSettings(trx, accountId);
  const { templates } = await storedAppSettings(trx, accountId, IDV_APP);
  const def = IDV_TEMPLATES.find((t) => t.key === template)!;
  return renderTemplate(templateText(IDV_APP, def, templates, smsLocaleOf(language)), {
    link,
    company: await companyName(trx, accountId),
    ttl: String(settings.linkValidityMinutes),
  });
}

/**
 * A journey's step whose link a resubmission revoked (review.ts `decide`): a new link token for
 * the session, in the language it was sent in and expiring with it, which the journey's page
 * shows from then on. Null when the session is no journey's step or no longer waits for photos.
 */
export async function renewStepToken(deps: IdvDeps, accountId: string, id: string): Promise<string | null> {
  const now = deps.now();
  return deps.db.tenant(accountId, async (trx) => {
    const row = await expireIfDue(trx, accountId, await lockRow(trx, accountId, id), now);
    if (!row.return_url_encrypted || !IDV_CUSTOMER_STATUSES.includes(row.status) || !row.link_expires_at) return null;
    const language = await taskLanguage(trx, accountId, id);
    const ttlMs = new Date(row.link_expires_at).getTime() - now.getTime();
    return (
      await createLinkToken(trx, accountId, {
        app: IDV_APP,
        purpose: IDV_LINK_PURPOSE,
        taskId: id,
        ttlMs,
        now,
        locale: language.locale,
      })
    ).token;
  });
}

/** Sends one SMS outside any transaction; answers the failure in words, or null. */
export async function trySend(deps: IdvDeps, accountId: string, phone: string, text: string): Promise<string | null> {
  try {
    await sendAccountSms(deps, accountId, phone, text);
    return null;
  } catch (err) {
    if (err instanceof ApiError && err.code === 'SMS_NOT_CONFIGURED') throw err;
    if (!(err instanceof ApiError)) deps.log('IDV SMS failed', err);
    return err instanceof ApiError ? err.message : 'The SMS provider could not be reached.';
  }
}

/**
 * Whether Identity Verification is released for the account. The app is unreleased: it exists
 * only for the provider's own staff. A secret key or a journey has no user to ask, so the account
 * stands for it: one with an active admin of the provider's e-mail domain.
 */
export async function idvReleasedFor(trx: Trx, accountId: string, providerEmailDomain: string): Promise<boolean> {
  const domain = providerEmailDomain.toLowerCase();
  if (!domain) return false;
  const staff = await trx
    .selectFrom('admins')
    .select('id')
    .where('account_id', '=', accountId)
    .where('archived_at', 'is', null)
    .where('email', 'ilike', `%@${domain.replace(/[%_\\]/g, '\\$&')}`)
    .executeTakeFirst();
  return Boolean(staff);
}

/** Starts a session and texts the customer the link (201 with the session); a journey's step texts nothing (`delivery`). */
export async function startSession(
  deps: IdvDeps,
  accountId: string,
  body: IdvStartBody,
  caller: Caller,
  delivery?: JourneyDelivery,
): Promise<IdvSession> {
  const now = deps.now();
  const done = await sendAppSms(deps, accountId, {
    // the app is unreleased and takes no credit: no billing row admits or pays for its sends
    app: null,
    to: body.phoneNumber,
    // a journey's step: the journey's one SMS carries the link
    handOff: delivery ? () => {} : undefined,
    prepare: async (trx) => {
      const row = (
        await sql<SessionRow>`insert into idv_sessions (account_id, phone_number, customer_ref, agent, status, expected_name, expected_date_of_birth, created_at)
          values (${accountId}, ${body.phoneNumber}, ${body.customerRef}, ${body.agent ?? (caller.kind === 'api' ? null : caller.label)}, 'created',
                  ${body.expectedName || null}, ${body.expectedDateOfBirth || null}, ${now})
          returning *`.execute(trx)
      ).rows[0]!;
      const language = await chooseLanguage(trx, accountId, body.locale);
      const link = await prepareLink(deps, trx, accountId, row, 'link', now, language);
      // a journey's step keeps the journey's link: IDV's page and forms send the caller back to it
      const updated = await update(trx, row.id, {
        link_expires_at: link.expiresAt,
        ...(delivery ? { return_url_encrypted: encryptSecret(delivery.returnUrl, deps.config.encryptionKey) } : {}),
      });
      if (delivery) delivery.token = link.token;
      await addTaskEvent(trx, accountId, {
        app: IDV_APP,
        taskId: row.id,
        ts: now,
        type: 'created',
        description: `Verification started for ${body.customerRef}`,
        caller,
      });
      return { text: link.text, state: { row: updated, language } };
    },
    record: async (trx, prepared, _written, outcome) => {
      let row = await lockRow(trx, accountId, prepared.row.id);
      const masked = maskPhone(row.phone_number);
      if (!outcome.sent) return undelivered(trx, accountId, row, outcome.failure, caller, now);
      if (row.status === 'created') row = await update(trx, row.id, { status: 'link_sent' });
      const description = `Verification link sent to ${masked}`;
      await addTaskEvent(trx, accountId, { app: IDV_APP, taskId: row.id, ts: now, type: 'link_sent', description, caller });
      await addTaskEvent(trx, accountId, { app: IDV_APP, taskId: row.id, ts: now, caller, ...languageEvent(prepared.language) });
      await audit(trx, accountId, caller.actor, {
        namespace: IDV_APP,
        description: `${description} (${row.customer_ref})`,
        event: 'idv.started',
        at: now,
      });
      return row;
    },
  });
  return deps.db.tenant(accountId, async (trx) => sessionOf(done, await checksOf(trx, accountId, done.id)));
}

/** A session whose link never reached the customer: cancelled, the link revoked. */
async function undelivered(
  trx: Trx,
  accountId: string,
  row: SessionRow,
  failure: string,
  caller: Caller,
  now: Date,
): Promise<SessionRow> {
  await revokeTaskLinks(trx, accountId, row.id, now);
  const ended = await end(trx, accountId, row, 'cancelled', now, caller, `Link not delivered: ${failure}`, {
    failure_reason: failure,
  });
  await audit(trx, accountId, caller.actor, {
    namespace: IDV_APP,
    description: `Identity verification link to ${maskPhone(row.phone_number)} not delivered: ${failure}`,
    event: 'idv.send-failed',
    at: now,
  });
  return ended;
}

/**
 * The SMS that carried a session's link failed after the session started (a journey's one SMS,
 * api/journeys): it ends exactly as startSession ends one whose own SMS failed.
 */
export async function endUndeliveredSession(
  deps: IdvDeps,
  accountId: string,
  id: string,
  failure: string,
  caller: Caller,
): Promise<void> {
  const now = deps.now();
  await deps.db.tenant(accountId, async (trx) => {
    const row = await lockRow(trx, accountId, id);
    if (row.status === 'created' || row.status === 'link_sent') await undelivered(trx, accountId, row, failure, caller, now);
  });
}

/** Where the customer's page sends the caller after each of its forms: a journey's link, or null (IDV's own page). */
export async function returnUrlOf(deps: IdvDeps, accountId: string, id: string): Promise<string | null> {
  const row = await deps.db.tenant(accountId, (trx) =>
    sql<{
      return_url_encrypted: string | null;
    }>`select return_url_encrypted from idv_sessions where account_id = ${accountId} and id = ${id}`.execute(trx),
  );
  const stored = row.rows[0]?.return_url_encrypted;
  return stored ? decryptSecret(stored, deps.config.encryptionKey) : null;
}

export async function getSession(deps: IdvDeps, accountId: string, id: string): Promise<IdvSession> {
  const now = deps.now();
  return deps.db.tenant(accountId, async (trx) => {
    const row = await expireIfDue(trx, accountId, await lockRow(trx, accountId, id), now);
    return sessionOf(row, await checksOf(trx, accountId, id));
  });
}

export async function cancelSession(deps: IdvDeps, accountId: string, id: string, caller: Caller): Promise<IdvSession> {
  const now = deps.now();
  return deps.db.tenant(accountId, async (trx) => {
    let row = await expireIfDue(trx, accountId, await lockRow(trx, accountId, id), now);
    if (!IDV_FINAL_STATUSES.includes(row.status)) {
      caller = actingFor(caller, row);
      await revokeTaskLinks(trx, accountId, row.id, now);
      row = await end(trx, accountId, row, 'cancelled', now, caller, 'Verification cancelled');
      await audit(trx, accountId, caller.actor, {
        namespace: IDV_APP,
        description: `Cancelled the identity verification of ${row.customer_ref}`,
        event: 'idv.cancelled',
        at: now,
      });
    }
    return sessionOf(row, await checksOf(trx, accountId, id));
  });
}

// ---------------------------------------------------------------- the customer's side

export type CustomerView = {
  status: IdvStatus;
  documentType: string | null;
  documentTypes: string[];
  /** sides the chosen document needs, with whether a photo is in */
  sides: { side: IdvSide; label: string; received: { contentType: string; size: number } | null }[];
  resubmission: boolean;
};

/** What the customer page shows for a session (after lazy expiry). */
export async function customerView(deps: IdvDeps, accountId: string, id: string): Promise<CustomerView> {
  const now = deps.now();
  return deps.db.tenant(accountId, async (trx) => {
    const row = await expireIfDue(trx, accountId, await lockRow(trx, accountId, id), now);
    const settings = await idvSettings(trx, accountId);
    const images = (
      await sql<ImageRow>`select side, file_id, content_type, size, uploaded_at from idv_images where account_id = ${accountId} and session_id = ${id}`.execute(
        trx,
      )
    ).rows;
    return {
      status: row.status,
      documentType: row.document_type,
      documentTypes: settings.documentTypes,
      sides: requiredSides(row.document_type).map((side) => {
        const image = images.find((i) => i.side === side && i.file_id);
        return {
          side,
          label: IDV_SIDE_LABELS[side],
          received: image ? { contentType: image.content_type, size: image.size } : null,
        };
      }),
      resubmission: row.attempt > 1,
    };
  });
}

export function requiredSides(documentType: string | null): IdvSide[] {
  const def = documentType ? documentTypeOf(documentType) : undefined;
  if (!def) return [];
  return def.back ? ['front', 'back', 'selfie'] : ['front', 'selfie'];
}

/** The customer's step is refused when the session no longer waits for them. */
function assertCustomerTurn(row: SessionRow): void {
  if (!IDV_CUSTOMER_STATUSES.includes(row.status))
    throw new ApiError(409, 'SESSION_CLOSED', 'This verification no longer takes photos.');
}

async function markStarted(trx: Trx, accountId: string, row: SessionRow, now: Date, caller: Caller): Promise<SessionRow> {
  if (row.status !== 'created' && row.status !== 'link_sent') return row;
  const updated = await update(trx, row.id, { status: 'in_progress', started_at: row.started_at ?? now });
  await addTaskEvent(trx, accountId, {
    app: IDV_APP,
    taskId: row.id,
    ts: now,
    type: 'in_progress',
    description: 'The customer opened the link and started',
    caller,
  });
  return updated;
}

export async function chooseDocument(
  deps: IdvDeps,
  accountId: string,
  id: string,
  documentType: string,
  caller: Caller,
): Promise<void> {
  const now = deps.now();
  await deps.db.tenant(accountId, async (trx) => {
    let row = await expireIfDue(trx, accountId, await lockRow(trx, accountId, id), now);
    assertCustomerTurn(row);
    const settings = await idvSettings(trx, accountId);
    if (!(settings.documentTypes as string[]).includes(documentType))
      throw new ApiError(400, 'DOCUMENT_TYPE', 'Choose one of the documents listed.');
    row = await markStarted(trx, accountId, row, now, caller);
    if (row.document_type === documentType) return;
    // photos of another document do not belong to this one
    const stale = (
      await sql<{
        side: IdvSide;
        file_id: string | null;
      }>`delete from idv_images where session_id = ${id} returning side, file_id`.execute(trx)
    ).rows;
    for (const s of stale) if (s.file_id) await deleteFile(deps as Deps, trx, accountId, s.file_id);
    await update(trx, id, { document_type: documentType });
    await addTaskEvent(trx, accountId, {
      app: IDV_APP,
      taskId: id,
      ts: now,
      type: 'document_chosen',
      description: `The customer chose to show a ${documentTypeOf(documentType)!.label.toLowerCase()}`,
      caller,
    });
  });
}

/**
 * Stores one photo (type by its bytes, size limit, metadata stripped) for a side the chosen
 * document needs; a new photo of the same side replaces the old one, whose bytes are deleted.
 */
export async function uploadImage(
  deps: IdvDeps,
  accountId: string,
  id: string,
  side: IdvSide,
  bytes: Uint8Array,
  caller: Caller,
): Promise<{ removed: string[] }> {
  const checked = checkImage(bytes);
  if (isRefusal(checked)) throw new ApiError(checked.code === 'IMAGE_TOO_LARGE' ? 413 : 415, checked.code, checked.message);
  const now = deps.now();
  return deps.db.tenant(accountId, async (trx) => {
    let row = await expireIfDue(trx, accountId, await lockRow(trx, accountId, id), now);
    assertCustomerTurn(row);
    if (!requiredSides(row.document_type).includes(side))
      throw new ApiError(400, 'SIDE_NOT_NEEDED', 'Choose your document first; this photo is not needed for it.');
    row = await markStarted(trx, accountId, row, now, caller);
    const file = await putFile(deps as Deps, trx, accountId, {
      app: IDV_APP,
      contentType: checked.contentType,
      bytes: checked.bytes,
    });
    const previous = (
      await sql<{ file_id: string | null }>`select file_id from idv_images where session_id = ${id} and side = ${side}`.execute(
        trx,
      )
    ).rows[0];
    if (previous?.file_id) await deleteFile(deps as Deps, trx, accountId, previous.file_id);
    await sql`insert into idv_images (account_id, session_id, side, file_id, content_type, size, uploaded_at)
      values (${accountId}, ${id}, ${side}, ${file.id}, ${file.contentType}, ${file.size}, ${now})
      on conflict (session_id, side) do update set file_id = excluded.file_id, content_type = excluded.content_type, size = excluded.size, uploaded_at = excluded.uploaded_at`.execute(
      trx,
    );
    const stripped = checked.removed.length ? ` (${[...new Set(checked.removed)].join(', ')} removed)` : '';
    await addTaskEvent(trx, accountId, {
      app: IDV_APP,
      taskId: id,
      ts: now,
      type: 'photo',
      description: `${IDV_SIDE_LABELS[side]} received${stripped}`,
      caller,
    });
    return { removed: checked.removed };
  });
}

/** Stores the results of a check run and answers how many failed. */
export async function storeChecks(
  trx: Trx,
  accountId: string,
  id: string,
  results: ReturnType<typeof runChecks>,
  now: Date,
): Promise<number> {
  await sql`delete from idv_checks where session_id = ${id}`.execute(trx);
  for (const r of results) {
    await sql`insert into idv_checks (account_id, session_id, key, status, reason, checked_at) values (${accountId}, ${id}, ${r.key}, ${r.status}, ${r.reason}, ${now})`.execute(
      trx,
    );
  }
  return results.filter((r) => r.status === 'failed').length;
}

/** The customer sends the photos: the session waits for a reviewer; checks run on what is known. */
export async function submitSession(deps: IdvDeps, accountId: string, id: string, caller: Caller): Promise<void> {
  const now = deps.now();
  await deps.db.tenant(accountId, async (trx) => {
    const row = await expireIfDue(trx, accountId, await lockRow(trx, accountId, id), now);
    assertCustomerTurn(row);
    const have = new Set(
      (
        await sql<{ side: IdvSide }>`select side from idv_images where session_id = ${id} and file_id is not null`.execute(trx)
      ).rows.map((r) => r.side),
    );
    const missing = requiredSides(row.document_type).filter((s) => !have.has(s));
    if (!row.document_type || missing.length)
      throw new ApiError(
        400,
        'PHOTOS_MISSING',
        `Add the ${missing.map((s) => IDV_SIDE_LABELS[s].toLowerCase()).join(' and ') || 'document'} first.`,
      );
    const settings = await idvSettings(trx, accountId);
    const failed = await storeChecks(
      trx,
      accountId,
      id,
      runChecks({
        reading: null,
        expectedName: row.expected_name,
        expectedDateOfBirth: row.expected_date_of_birth,
        minimumAge: settings.minimumAge,
        today: now,
        seenElsewhere: false,
      }),
      now,
    );
    const updated = await update(trx, id, {
      status: 'submitted',
      submitted_at: now,
      failed_checks: failed,
      extracted: null,
      document_number: null,
    });
    await addTaskEvent(trx, accountId, {
      app: IDV_APP,
      taskId: id,
      ts: now,
      type: 'submitted',
      description: 'The customer sent their photos for review',
      caller,
    });
    await enqueueWebhookEvent(trx, accountId, IDV_APP, 'idv.session.submitted', eventData(updated), now);
  });
}

// ---------------------------------------------------------------- background work

/** Open sessions past their time expire: the shared sweep (api/apps/platform/expiry.ts), run by the jobs. */
export function expireDueSessions(deps: IdvDeps, limit?: number): Promise<number> {
  return sweepDue(deps, EXPIRY, limit);
}

const EXPIRY: Expiry<SessionRow> = {
  table: 'idv_sessions',
  statuses: IDV_CUSTOMER_STATUSES,
  expiresAt: 'link_expires_at',
  expire: expireIfDue,
};

/**
 * Retention: photos (kind `idv.images`) and extracted data (kind `idv.data`) of finished sessions
 * older than the account's days for each kind are deleted; status, times and check results stay,
 * and the session says when (redactedAt, webhook idv.session.redacted). Sessions still waiting
 * for the customer or a reviewer are left for later. One batch of the one `privacy.retention` job,
 * which decides which kinds are in force and audits the run: answers how many of each.
 */
export async function redactDueSessions(
  deps: IdvDeps,
  trx: Trx,
  accountId: string,
  before: { images?: Date; data?: Date },
  limit = 200,
): Promise<{ images: number; data: number }> {
  const now = deps.now();
  const imagesBefore = before.images ?? null;
  const dataBefore = before.data ?? null;
  const done = { images: 0, data: 0 };
  const rows = (
    await sql<SessionRow>`select * from idv_sessions where account_id = ${accountId} and status in ('approved', 'declined', 'expired', 'cancelled')
      and ((${imagesBefore}::timestamptz is not null and images_redacted_at is null and created_at < ${imagesBefore}::timestamptz)
        or (${dataBefore}::timestamptz is not null and data_redacted_at is null and created_at < ${dataBefore}::timestamptz))
      order by created_at limit ${limit} for update skip locked`.execute(trx)
  ).rows;
  const images = rows
    .filter((row) => imagesBefore && !row.images_redacted_at && new Date(row.created_at) < imagesBefore)
    .map((r) => r.id);
  if (images.length) {
    const files = (
      await sql<{
        file_id: string | null;
      }>`select file_id from idv_images where account_id = ${accountId} and session_id = any(${images}::uuid[]) for update`.execute(
        trx,
      )
    ).rows;
    await deleteFiles(
      deps as Deps,
      trx,
      accountId,
      files.map((f) => f.file_id),
    );
    await sql`update idv_images set file_id = null where account_id = ${accountId} and session_id = any(${images}::uuid[])`.execute(
      trx,
    );
  }
  for (const row of rows) {
    const image = images.includes(row.id);
    const data = dataBefore && !row.data_redacted_at && new Date(row.created_at) < dataBefore;
    const set: Record<string, unknown> = { redacted_at: now };
    const what: string[] = [];
    if (image) {
      set.images_redacted_at = now;
      what.push('photos');
      done.images++;
    }
    if (data) {
      Object.assign(set, {
        extracted: null,
        document_number: null,
        expected_name: null,
        expected_date_of_birth: null,
        data_redacted_at: now,
      });
      what.push('extracted data');
      done.data++;
    }
    const updated = await update(trx, row.id, set);
    await addTaskEvent(trx, accountId, {
      app: IDV_APP,
      taskId: row.id,
      ts: now,
      type: 'redacted',
      description: `Retention: ${what.join(' and ')} deleted`,
      caller: null,
    });
    await enqueueWebhookEvent(
      trx,
      accountId,
      IDV_APP,
      'idv.session.redacted',
      eventData(updated, {
        imagesRedacted: !!updated.images_redacted_at,
        dataRedacted: !!updated.data_redacted_at,
        redactedAt: iso(updated.redacted_at),
      }),
      now,
    );
  }
  return done;
}
