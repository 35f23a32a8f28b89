import { accountTimeZone } from '../../branding/time-zone';
import { customerDate } from '../../customer-pages/dates';
import { sql, type Selectable } from 'kysely';
import type { SigRequestsTable } from '../../db/schema';
import * as v from 'valibot';
import type { Deps } from '../../deps';
import type { Trx } from '../../db/index';
import { audit } from '../../audit';
import { ApiError } from '../../http/errors';
import { recordResult } from '../../results/record';
import { createLinkToken, linkUrl, revokeTaskLinks, spendLink } from '../../customer-pages/links';
import { fileLink, putFile, readFile } from '../../storage/files';
import { releaseCredits } from '../../usage/credits';
import type { JourneyDelivery } from '../platform/delivery';
import { addTaskEvent, taskEvents } from '../platform/task-events';
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
import { DEFAULT_LOCALE, isLocale, type Locale } from '../../contract/locales';
import { companyName, renderTemplate, sendAccountSms, sendAppSms } from '../platform/sms';
import { API_KEY_ACTOR, apiCaller, type Caller } from '../platform/caller';
import { maskPhone } from '../../contract/platform';
import { issueSignerCopy } from './signer-copy';
import {
  SIG_APP,
  SIG_DEFAULT_SETTINGS,
  SIG_OPEN_STATUSES,
  SIG_TEMPLATES,
  SigGeneralSettingsSchema,
  type SigField,
  type SigGeneralSettings,
  type SigRequest,
  type SigRequestFiles,
  type SigSendBody,
  type SigStatus,
} from '../../contract/apps/document-signature';
import type { ResultStatus } from '../../contract/results';
import { versionFile, versionRow, type VersionRow } from './documents';
import crypto from 'node:crypto';
import type { StampValue } from './pdf';
import { accountDates } from '../../account-dates';
import { sweepDue, type Expiry } from '../platform/expiry';

// Signature requests, in one place: /api/v1, the agent action, the console, the customer page,
// the sealing job and the demo seed all call these functions.

export const SIGN_PURPOSE = 'document-signature.sign';
const DAY = 86_400_000;

/** A row of sig_requests as `select *` reads it. */
export type RequestRow = Selectable<SigRequestsTable>;

const RESULT_OF: Partial<Record<SigStatus, ResultStatus>> = {
  completed: 'success',
  declined: 'failure',
  cancelled: 'failure',
  expired: 'timeout',
};
const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

export function requestOf(r: RequestRow): SigRequest {
  return {
    id: r.id,
    status: r.status,
    documentId: r.document_id,
    documentName: r.document_name,
    version: r.version,
    signerName: r.signer_name,
    phoneNumber: maskPhone(r.phone_number)!,
    customerRef: r.customer_ref,
    agent: r.agent,
    sends: r.sends,
    createdAt: iso(r.created_at)!,
    expiresAt: iso(r.expires_at)!,
    openedAt: iso(r.opened_at),
    signedAt: iso(r.signed_at),
    completedAt: iso(r.completed_at),
    declineReason: r.decline_reason,
    originalSha256: r.original_sha256,
    signedSha256: r.signed_sha256,
    sealLevel: r.seal_level,
    sealedBy: r.sealed_by,
    timestampedAt: iso(r.timestamped_at),
  };
}

/** What a webhook receiver gets: never the full number, never the values. */
function eventData(r: RequestRow): Record<string, unknown> {
  const {
    id,
    status,
    documentId,
    documentName,
    version,
    signerName,
    phoneNumber,
    customerRef,
    agent,
    expiresAt,
    openedAt,
    signedAt,
    completedAt,
    declineReason,
    signedSha256,
  } = requestOf(r);
  return {
    id,
    status,
    documentId,
    documentName,
    version,
    signerName,
    phoneNumber,
    customerRef,
    agent,
    expiresAt,
    openedAt,
    signedAt,
    completedAt,
    declineReason,
    signedSha256,
  };
}

export async function sigSettings(trx: Trx, accountId: string): Promise<SigGeneralSettings> {
  const { general } = await storedAppSettings(trx, accountId, SIG_APP);
  const merged = v.safeParse(SigGeneralSettingsSchema, { ...SIG_DEFAULT_SETTINGS, ...general });
  return merged.success ? merged.output : SIG_DEFAULT_SETTINGS;
}

async function lockRow(trx: Trx, accountId: string, id: string): Promise<RequestRow> {
  const row = (
    await sql<RequestRow>`select * from sig_requests where account_id = ${accountId} and id = ${id} for update`.execute(trx)
  ).rows[0];
  if (!row) throw new ApiError(404, 'NOT_FOUND', 'There is no signature request with this id.');
  return row;
}

type Change = {
  status: SigStatus;
  set?: Record<string, unknown>;
  event: string;
  description: string;
  webhook?: string;
  caller: Caller | null;
};

/** Moves a request to a status: row, result (when it ends), timeline, webhook. */
async function move(trx: Trx, accountId: string, row: RequestRow, now: Date, change: Change): Promise<RequestRow> {
  const ends = change.status in RESULT_OF;
  const sets = { ...(change.set ?? {}), status: change.status, ...(ends ? { ended_at: now } : {}) };
  const assignments = sql.join(
    Object.entries(sets).map(([k, value]) => sql`${sql.ref(k)} = ${value}`),
    sql`, `,
  );
  const updated = (await sql<RequestRow>`update sig_requests set ${assignments} where id = ${row.id} returning *`.execute(trx))
    .rows[0]!;
  if (ends)
    await recordResult(trx, accountId, {
      app: SIG_APP,
      status: RESULT_OF[change.status]!,
      ts: now,
      sessionRef: row.id,
      phoneNumber: row.phone_number,
      customerRef: row.customer_ref,
    });
  await addTaskEvent(trx, accountId, {
    app: SIG_APP,
    taskId: row.id,
    ts: now,
    type: change.event,
    description: change.description,
    caller: change.caller,
  });
  if (change.webhook) await enqueueWebhookEvent(trx, accountId, SIG_APP, change.webhook, eventData(updated), now);
  return updated;
}

/** Lazily expires an open request whose time is up (the job does the same for the rest). */
async function expireIfDue(trx: Trx, accountId: string, row: RequestRow, now: Date): Promise<RequestRow> {
  if (!SIG_OPEN_STATUSES.includes(row.status) || new Date(row.expires_at).getTime() > now.getTime()) return row;
  const expired = await move(trx, accountId, row, now, {
    status: 'expired',
    event: 'expired',
    description: 'The request expired before it was signed',
    webhook: 'document.expired',
    caller: null,
  });
  await revokeTaskLinks(trx, accountId, row.id, now);
  return expired;
}

/** A v1 call that names no agent acts for the agent the request was sent by. */
function actingFor(caller: Caller, row: RequestRow): Caller {
  return caller.kind === 'api' && caller.label === API_KEY_ACTOR && row.agent
    ? apiCaller(row.agent, caller.ip, caller.userAgent)
    : caller;
}

async function smsText(trx: Trx, accountId: string, publicUrl: string, token: string, language: LanguageChoice): Promise<string> {
  const { templates } = await storedAppSettings(trx, accountId, SIG_APP);
  return renderTemplate(templateText(SIG_APP, SIG_TEMPLATES[0]!, templates, smsLocaleOf(language)), {
    company: await companyName(trx, accountId),
    link: await linkUrl(trx, accountId, publicUrl, token),
  });
}

async function deliver(deps: Deps, accountId: string, phone: string, text: string): Promise<string | null> {
  try {
    await sendAccountSms(deps, accountId, phone, text);
    return null;
  } catch (err) {
    if (err instanceof ApiError && err.code === 'SMS_NOT_CONFIGURED') throw err;
    if (!(err instanceof ApiError)) deps.log('Signature request SMS failed', err);
    return err instanceof ApiError ? err.message : 'The SMS provider could not be reached.';
  }
}

/** Sends a published version for signature: a request, a link by SMS, one credit. */
export async function sendForSignature(
  deps: Deps,
  accountId: string,
  body: SigSendBody,
  caller: Caller,
  delivery?: JourneyDelivery,
): Promise<SigRequest> {
  const now = deps.now();
  const agent = body.agent ?? (caller.kind === 'api' ? null : caller.label);
  const { row: done, failure } = await sendAppSms(deps, accountId, {
    app: SIG_APP,
    to: body.phoneNumber,
    // a journey's step: the journey's one SMS carries the link
    handOff: delivery ? () => {} : undefined,
    prepare: async (trx) => {
      const settings = await sigSettings(trx, accountId);
      let version: VersionRow | undefined;
      if (body.version) {
        version = await versionRow(trx, accountId, body.documentId, body.version);
        if (!version) throw new ApiError(404, 'NOT_FOUND', `The document has no version ${body.version}.`);
        if (version.state !== 'published')
          throw new ApiError(
            409,
            'VERSION_NOT_PUBLISHED',
            `Version ${body.version} is a draft: publish it before sending it for signature.`,
          );
      } else {
        version = await versionRow(trx, accountId, body.documentId, 'published');
        if (!version) {
          if (await versionRow(trx, accountId, body.documentId, 'draft'))
            throw new ApiError(
              409,
              'VERSION_NOT_PUBLISHED',
              'This document has no published version yet: publish it before sending it for signature.',
            );
          throw new ApiError(404, 'NOT_FOUND', 'There is no such document.');
        }
      }
      const original = await readFile(deps, trx, accountId, version.file_id);
      if (!original) throw new ApiError(410, 'FILE_GONE', 'The document file no longer exists.');
      const days = body.expiresInDays ?? settings.defaultExpiryDays;
      const row = (
        await sql<RequestRow>`insert into sig_requests (account_id, document_id, version_id, version, document_name, signer_name, phone_number, customer_ref, agent,
            status, consent_text, created_at, expires_at, original_file_id, original_sha256)
          values (${accountId}, ${version.document_id}, ${version.id}, ${version.version}, ${version.name}, ${body.signerName}, ${body.phoneNumber}, ${body.customerRef ?? null}, ${agent},
            'sent', ${settings.consentText}, ${now}, ${new Date(now.getTime() + days * DAY)}, ${version.file_id}, ${original.sha256})
          returning *`.execute(trx)
      ).rows[0]!;
      const language = await chooseLanguage(trx, accountId, body.locale);
      const { token } = await createLinkToken(trx, accountId, {
        app: SIG_APP,
        purpose: SIGN_PURPOSE,
        taskId: row.id,
        ttlMs: days * DAY,
        now,
        locale: language.locale,
      });
      if (delivery) delivery.token = token;
      return {
        text: await smsText(trx, accountId, deps.config.publicUrl, token, language),
        credit: { taskId: row.id, kind: 'request' },
        state: { row, language },
      };
    },
    record: async (trx, prepared, _written, outcome) => {
      let row = await lockRow(trx, accountId, prepared.row.id);
      const masked = maskPhone(row.phone_number);
      const failure = outcome.sent ? null : outcome.failure;
      if (failure !== null) return { row: await undelivered(trx, accountId, row, failure, caller, now), failure };
      row = (await sql<RequestRow>`update sig_requests set sends = sends + 1 where id = ${row.id} returning *`.execute(trx))
        .rows[0]!;
      const description = `${row.document_name} (version ${row.version}) sent to ${row.signer_name} at ${masked}`;
      await addTaskEvent(trx, accountId, { app: SIG_APP, taskId: row.id, ts: now, type: 'sent', description, caller });
      await addTaskEvent(trx, accountId, { app: SIG_APP, taskId: row.id, ts: now, caller, ...languageEvent(prepared.language) });
      await audit(trx, accountId, caller.actor, { namespace: SIG_APP, description, event: 'document.sent', at: now });
      await enqueueWebhookEvent(trx, accountId, SIG_APP, 'document.sent', eventData(row), now);
      return { row, failure: null };
    },
  });
  if (failure !== null) throw new ApiError(502, 'SMS_NOT_DELIVERED', `The link could not be delivered: ${failure}`);
  return requestOf(done);
}

/** A request whose link never reached the signer: cancelled, its credit given back, the link revoked. */
async function undelivered(
  trx: Trx,
  accountId: string,
  row: RequestRow,
  failure: string,
  caller: Caller,
  now: Date,
): Promise<RequestRow> {
  await releaseCredits(trx, { accountId, app: SIG_APP, taskId: row.id, kind: 'request', now });
  const moved = await move(trx, accountId, row, now, {
    status: 'cancelled',
    event: 'send_failed',
    description: `Link not delivered: ${failure}`,
    caller,
  });
  await revokeTaskLinks(trx, accountId, row.id, now);
  await audit(trx, accountId, caller.actor, {
    namespace: SIG_APP,
    description: `Signature request to ${maskPhone(row.phone_number)} not delivered: ${failure}`,
    event: 'document.send-failed',
    at: now,
  });
  return moved;
}

/**
 * The SMS that carried a request's link failed after the request was written (a journey's one
 * SMS, api/journeys): the request ends exactly as sendForSignature ends one whose own SMS failed.
 */
export async function endUndeliveredRequest(
  deps: Deps,
  accountId: string,
  id: string,
  failure: string,
  caller: Caller,
): Promise<void> {
  const now = deps.now();
  await deps.db.tenant(accountId, async (trx) => {
    const row = await lockRow(trx, accountId, id);
    if (row.status === 'sent') await undelivered(trx, accountId, row, failure, caller, now);
  });
}

export async function getRequest(deps: Deps, accountId: string, id: string): Promise<SigRequest> {
  const now = deps.now();
  return deps.db.tenant(accountId, async (trx) =>
    requestOf(await expireIfDue(trx, accountId, await lockRow(trx, accountId, id), now)),
  );
}

/** The console's detail: the request and short-lived download links. */
export async function requestFiles(deps: Deps, accountId: string, id: string): Promise<SigRequestFiles> {
  const request = await getRequest(deps, accountId, id);
  const row = await deps.db.tenant(accountId, (trx) => lockRow(trx, accountId, id));
  // the document's name as the admin wrote it, in any script: the download route takes out what a
  // file name cannot hold and sends it as RFC 6266 filename* (api/storage/routes.ts)
  const base = row.document_name;
  return {
    request,
    originalUrl: fileLink(deps, accountId, row.original_file_id, {
      filename: `${base} (original).pdf`,
      disposition: 'attachment',
    }),
    signedUrl: row.signed_file_id
      ? fileLink(deps, accountId, row.signed_file_id, { filename: `${base} (signed).pdf`, disposition: 'attachment' })
      : null,
  };
}

export async function cancelRequest(deps: Deps, accountId: string, id: string, caller: Caller): Promise<SigRequest> {
  const now = deps.now();
  return deps.db.tenant(accountId, async (trx) => {
    let row = await expireIfDue(trx, accountId, await lockRow(trx, accountId, id), now);
    if (!SIG_OPEN_STATUSES.includes(row.status))
      throw new ApiError(
        409,
        'NOT_OPEN',
        `This request is ${row.status}: only a request waiting for its signer can be cancelled.`,
      );
    caller = actingFor(caller, row);
    row = await move(trx, accountId, row, now, {
      status: 'cancelled',
      event: 'cancelled',
      description: 'Request cancelled: the link no longer works',
      caller,
    });
    await revokeTaskLinks(trx, accountId, row.id, now);
    await audit(trx, accountId, caller.actor, {
      namespace: SIG_APP,
      description: `Cancelled the signature request for ${row.document_name} to ${maskPhone(row.phone_number)}`,
      event: 'document.cancelled',
      at: now,
    });
    return requestOf(row);
  });
}

/** Texts a new link (the old one stops working); the expiry stays. */
export async function resendRequest(deps: Deps, accountId: string, id: string, caller: Caller): Promise<SigRequest> {
  const now = deps.now();
  const prepared = await deps.db.tenant(accountId, async (trx) => {
    const row = await expireIfDue(trx, accountId, await lockRow(trx, accountId, id), now);
    if (!SIG_OPEN_STATUSES.includes(row.status))
      throw new ApiError(
        409,
        'NOT_OPEN',
        `This request is ${row.status}: only a request waiting for its signer can be sent again.`,
      );
    // sent again in the language it was first sent in
    const language = await taskLanguage(trx, accountId, row.id);
    await revokeTaskLinks(trx, accountId, row.id, now);
    const { token } = await createLinkToken(trx, accountId, {
      app: SIG_APP,
      purpose: SIGN_PURPOSE,
      taskId: row.id,
      ttlMs: new Date(row.expires_at).getTime() - now.getTime(),
      now,
      locale: language.locale,
    });
    return { row, text: await smsText(trx, accountId, deps.config.publicUrl, token, language) };
  });
  const failure = await deliver(deps, accountId, prepared.row.phone_number, prepared.text);
  const done = await deps.db.tenant(accountId, async (trx) => {
    let row = await lockRow(trx, accountId, id);
    caller = actingFor(caller, row);
    if (failure !== null) {
      await addTaskEvent(trx, accountId, {
        app: SIG_APP,
        taskId: row.id,
        ts: now,
        type: 'send_failed',
        description: `Resend not delivered: ${failure}`,
        caller,
      });
      return row;
    }
    row = (await sql<RequestRow>`update sig_requests set sends = sends + 1 where id = ${row.id} returning *`.execute(trx))
      .rows[0]!;
    const description = `Link sent again to ${maskPhone(row.phone_number)} (send ${row.sends})`;
    await addTaskEvent(trx, accountId, { app: SIG_APP, taskId: row.id, ts: now, type: 'resent', description, caller });
    await audit(trx, accountId, caller.actor, {
      namespace: SIG_APP,
      description: `${description} for ${row.document_name}`,
      event: 'document.resent',
      at: now,
    });
    return row;
  });
  if (failure !== null) throw new ApiError(502, 'SMS_NOT_DELIVERED', `The link could not be delivered: ${failure}`);
  return requestOf(done);
}

// ---------------------------------------------------------------- the customer's side

/**
 * A page's images for the signer, by content (the first 16 hex digits of each file's SHA-256):
 * the page names them in addresses that never change while the link lives, so a phone keeps
 * them (api/apps/document-signature/customer-page.tsx, `/c/<token>/pages/...`).
 */
export type SignerPageImage = { large: string; small: string | null };
export type SignerView = { row: RequestRow; version: VersionRow; pageImages: SignerPageImage[]; originalUrl: string };
const HASH_CHARS = 16;
export type Origin = { ip: string | null; userAgent: string | null };
const customer = (row: RequestRow, origin: Origin): Caller => ({
  kind: 'api',
  actor: { id: null, firstName: row.signer_name, lastName: '(signer)' },
  label: `${row.signer_name} (signer)`,
  ip: origin.ip,
  userAgent: origin.userAgent,
});

/** What the customer page shows; the first view marks the request opened. */
export async function openForSigner(deps: Deps, accountId: string, id: string, origin: Origin): Promise<SignerView> {
  const now = deps.now();
  return deps.db.tenant(accountId, async (trx) => {
    let row = await expireIfDue(trx, accountId, await lockRow(trx, accountId, id), now);
    if (row.status === 'sent') {
      row = await move(trx, accountId, row, now, {
        status: 'opened',
        set: { opened_at: now },
        event: 'opened',
        description: 'The signer opened the document',
        webhook: 'document.opened',
        caller: customer(row, origin),
      });
    }
    const version = (await sql<VersionRow>`select * from sig_document_versions where id = ${row.version_id}`.execute(trx))
      .rows[0]!;
    const ttlSeconds = Math.max(60, Math.min(3600, Math.floor((new Date(row.expires_at).getTime() - now.getTime()) / 1000)));
    const ids = [...version.page_image_ids, ...version.page_image_small_ids];
    const hashes = new Map(
      ids.length
        ? (
            await sql<{
              id: string;
              sha256: string;
            }>`select id, sha256 from stored_files where account_id = ${accountId} and id = any(${ids}::uuid[])`.execute(trx)
          ).rows.map((f) => [f.id, f.sha256.slice(0, HASH_CHARS)])
        : [],
    );
    return {
      row,
      version,
      pageImages: version.page_image_ids.map((fid, i) => {
        const small = version.page_image_small_ids[i];
        return { large: hashes.get(fid) ?? '', small: small ? (hashes.get(small) ?? null) : null };
      }),
      originalUrl: fileLink(deps, accountId, row.original_file_id, {
        ttlSeconds,
        filename: `${row.document_name.replace(/[^\w.\- ]/g, '_')}.pdf`,
        disposition: 'attachment',
      }),
    };
  });
}

/**
 * One page image of a request's version, by its page (0-based), width and content hash; null
 * when there is no such image or its content is not the one named.
 */
export async function signerPageImage(
  deps: Deps,
  accountId: string,
  id: string,
  page: number,
  size: 'large' | 'small',
  hash: string,
): Promise<Buffer | null> {
  return deps.db.tenant(accountId, async (trx) => {
    const version = (
      await sql<VersionRow>`select v.* from sig_document_versions v join sig_requests r on r.version_id = v.id where r.account_id = ${accountId} and r.id = ${id}`.execute(
        trx,
      )
    ).rows[0];
    const fileId = version ? (size === 'large' ? version.page_image_ids : version.page_image_small_ids)[page] : undefined;
    if (!fileId) return null;
    const file = await readFile(deps, trx, accountId, fileId);
    return file && file.sha256.startsWith(hash) && hash.length === HASH_CHARS ? file.bytes : null;
  });
}

export type SignerAnswers = {
  values: Record<string, string>;
  signatures: Record<string, { typed?: string; pngDataUrl?: string }>;
  consent: boolean;
};

/**
 * What stops the signer, by field id ('consent', 'reason' for the form's own boxes): a code the
 * signer's page words in their language (`sig.problem.<code>` in api/customer-pages/i18n).
 */
export type SignerProblem =
  | { code: 'drawUnreadable' | 'signRequired' | 'tick' | 'required' | 'consent' | 'reason' }
  | { code: 'tooLong'; max: number };

export class SignerInputError extends Error {
  constructor(readonly problems: Record<string, SignerProblem>) {
    super(
      `The signer's answers were refused: ${Object.values(problems)
        .map((p) => p.code)
        .join(', ')}`,
    );
  }
}

function pngOf(dataUrl: string): Buffer | null {
  const m = /^data:image\/png;base64,([A-Za-z0-9+/=]+)$/.exec(dataUrl);
  if (!m) return null;
  const bytes = Buffer.from(m[1]!, 'base64');
  // the PNG signature: what a canvas gives, and all pdf-lib will embed
  return bytes.length > 8 &&
    bytes.length <= 300_000 &&
    bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
    ? bytes
    : null;
}

/** Checks the customer's answers against the version's fields: problems by field id. */
export function checkAnswers(fields: SigField[], answers: SignerAnswers): Record<string, SignerProblem> {
  const problems: Record<string, SignerProblem> = {};
  for (const f of fields) {
    if (f.kind === 'dateSigned') continue;
    if (f.kind === 'signature') {
      const s = answers.signatures[f.id];
      const typed = s?.typed?.trim();
      if (s?.pngDataUrl) {
        if (!pngOf(s.pngDataUrl)) problems[f.id] = { code: 'drawUnreadable' };
      } else if (!typed && f.required) problems[f.id] = { code: 'signRequired' };
      else if (typed && typed.length > 100) problems[f.id] = { code: 'tooLong', max: 100 };
      continue;
    }
    const value = answers.values[f.id]?.trim() ?? '';
    if (f.kind === 'checkbox') {
      if (f.required && value !== 'on' && value !== 'true') problems[f.id] = { code: 'tick' };
      continue;
    }
    if (!value && f.required) problems[f.id] = { code: 'required' };
    else if (value.length > 500) problems[f.id] = { code: 'tooLong', max: 500 };
  }
  if (!answers.consent) problems.consent = { code: 'consent' };
  return problems;
}

/** The customer signs: values stored, link spent, request signed; sealing follows. */
/** `locale`: the page's language when they signed; their certificate of completion is written in it. */
export async function signAsCustomer(
  deps: Deps,
  accountId: string,
  id: string,
  token: string,
  answers: SignerAnswers,
  origin: Origin,
  locale: Locale = DEFAULT_LOCALE,
): Promise<SigRequest & { copyToken: string }> {
  const now = deps.now();
  const signed = await deps.db.tenant(accountId, async (trx) => {
    let row = await expireIfDue(trx, accountId, await lockRow(trx, accountId, id), now);
    if (!SIG_OPEN_STATUSES.includes(row.status)) throw new ApiError(409, 'NOT_OPEN', `This request is ${row.status}.`);
    const version = (await sql<VersionRow>`select * from sig_document_versions where id = ${row.version_id}`.execute(trx))
      .rows[0]!;
    const problems = checkAnswers(version.fields, answers);
    if (Object.keys(problems).length) throw new SignerInputError(problems);
    if (!(await spendLink(trx, token, now))) throw new ApiError(409, 'NOT_OPEN', 'This link was already used.');
    const timeZone = await accountTimeZone(trx, accountId);
    for (const f of version.fields) {
      let value: string | null = null;
      let imageFileId: string | null = null;
      // the day as the signer reads it: their language, the account's time zone (as the page and the certificate)
      if (f.kind === 'dateSigned') value = customerDate(now, locale, timeZone);
      else if (f.kind === 'signature') {
        const s = answers.signatures[f.id];
        const png = s?.pngDataUrl ? pngOf(s.pngDataUrl) : null;
        if (png) imageFileId = (await putFile(deps, trx, accountId, { app: SIG_APP, contentType: 'image/png', bytes: png })).id;
        else value = s?.typed?.trim() || null;
      } else if (f.kind === 'checkbox')
        value = answers.values[f.id] === 'on' || answers.values[f.id] === 'true' ? 'true' : 'false';
      else value = answers.values[f.id]?.trim() || null;
      await sql`insert into sig_field_values (account_id, request_id, field_id, value, image_file_id) values (${accountId}, ${row.id}, ${f.id}, ${value}, ${imageFileId})`.execute(
        trx,
      );
    }
    row = await move(trx, accountId, row, now, {
      status: 'signed',
      set: {
        signed_at: now,
        signer_ip: origin.ip,
        signer_user_agent: origin.userAgent?.slice(0, 300) ?? null,
        signer_locale: locale,
      },
      event: 'signed',
      description: `${row.signer_name} accepted the consent text and signed`,
      webhook: 'document.signed',
      caller: customer(row, origin),
    });
    await audit(trx, accountId, customer(row, origin).actor, {
      namespace: SIG_APP,
      description: `${row.signer_name} signed ${row.document_name}`,
      event: 'document.signed',
      at: now,
    });
    // the signer's own copy: a link of its own, made with the signature (signer-copy.ts)
    return { row, copyToken: await issueSignerCopy(deps, trx, accountId, row.id, locale, now) };
  });
  return { ...requestOf(signed.row), copyToken: signed.copyToken };
}

export async function declineAsCustomer(
  deps: Deps,
  accountId: string,
  id: string,
  token: string,
  reason: string,
  origin: Origin,
): Promise<SigRequest> {
  const now = deps.now();
  const text = reason.trim().slice(0, 500);
  if (!text) throw new SignerInputError({ reason: { code: 'reason' } });
  return deps.db.tenant(accountId, async (trx) => {
    let row = await expireIfDue(trx, accountId, await lockRow(trx, accountId, id), now);
    if (!SIG_OPEN_STATUSES.includes(row.status)) throw new ApiError(409, 'NOT_OPEN', `This request is ${row.status}.`);
    if (!(await spendLink(trx, token, now))) throw new ApiError(409, 'NOT_OPEN', 'This link was already used.');
    row = await move(trx, accountId, row, now, {
      status: 'declined',
      set: { decline_reason: text, signer_ip: origin.ip, signer_user_agent: origin.userAgent?.slice(0, 300) ?? null },
      event: 'declined',
      description: `${row.signer_name} declined: ${text}`,
      webhook: 'document.declined',
      caller: customer(row, origin),
    });
    await audit(trx, accountId, customer(row, origin).actor, {
      namespace: SIG_APP,
      description: `${row.signer_name} declined ${row.document_name}`,
      event: 'document.declined',
      at: now,
    });
    return requestOf(row);
  });
}

// ---------------------------------------------------------------- sealing and expiry

/**
 * Seals a signed request: values stamped into the ORIGINAL, the certificate of completion
 * appended, the whole signed with the platform certificate; then completed. Safe to repeat:
 * a completed request is left alone, and each attempt starts from the original.
 */
export async function sealRequest(deps: Deps, accountId: string, id: string): Promise<SigRequest> {
  // the PDF and certificate libraries load on first use: the server starts without them
  const [{ sealToPades }, { signingCertificate }, { accountSigningCertificate }] = await Promise.all([
    import('./seal'),
    import('./signing-certificate'),
    import('./account-certificates'),
  ]);
  const input = await deps.db.tenant(accountId, async (trx) => {
    const row = (await sql<RequestRow>`select * from sig_requests where account_id = ${accountId} and id = ${id}`.execute(trx))
      .rows[0];
    if (!row) throw new ApiError(404, 'NOT_FOUND', 'There is no signature request with this id.');
    if (row.status !== 'signed') return { row, ready: false as const };
    const version = (await sql<VersionRow>`select * from sig_document_versions where id = ${row.version_id}`.execute(trx))
      .rows[0]!;
    const stored = (
      await sql<{
        field_id: string;
        value: string | null;
        image_file_id: string | null;
      }>`select field_id, value, image_file_id from sig_field_values where request_id = ${row.id}`.execute(trx)
    ).rows;
    const values: StampValue[] = [];
    for (const field of version.fields) {
      const s = stored.find((x) => x.field_id === field.id);
      if (!s) continue;
      const png = s.image_file_id ? ((await readFile(deps, trx, accountId, s.image_file_id))?.bytes ?? null) : null;
      values.push({ field, text: s.value, checked: s.value === 'true', png });
    }
    const original = await versionFile(deps, trx, accountId, row.original_file_id);
    const events = (await taskEvents(trx, accountId, row.id)).map((e) => ({
      time: e.time,
      description: e.description + (e.ip ? ` (IP ${e.ip})` : ''),
    }));
    const cert = (await accountSigningCertificate(deps, trx, accountId, deps.now())) ?? signingCertificate(deps.config);
    return {
      row,
      ready: true as const,
      version,
      values,
      original,
      events,
      cert,
      timeZone: await accountTimeZone(trx, accountId),
    };
  });
  if (!input.ready) return requestOf(input.row);
  const { row, cert } = input;
  const signingTime = deps.now();
  const signatures = input.values
    .filter((v) => v.field.kind === 'signature' || v.field.kind === 'initials')
    .map((v) => ({
      label: v.field.label || (v.field.kind === 'initials' ? 'Initials' : 'Signature'),
      png: v.png ?? null,
      typed: v.png ? null : (v.text ?? null),
    }));
  const result = await sealToPades(
    deps,
    {
      original: input.original,
      values: input.values,
      signingTime,
      signedAt: new Date(row.signed_at ?? signingTime),
      certificate: {
        documentName: row.document_name,
        version: row.version,
        requestId: row.id,
        signerName: row.signer_name,
        phoneNumber: row.phone_number,
        customerRef: row.customer_ref,
        ip: row.signer_ip,
        userAgent: row.signer_user_agent,
        consentText: row.consent_text,
        locale: isLocale(row.signer_locale) ? row.signer_locale : DEFAULT_LOCALE,
        timeZone: input.timeZone,
        events: [
          ...input.events,
          { time: signingTime.toISOString(), description: `Sealed with the signing certificate of ${cert.subject}` },
        ],
        originalSha256: crypto.createHash('sha256').update(input.original).digest('hex'),
        signatures,
      },
    },
    cert,
  );
  const now = deps.now();
  const done = await deps.db.tenant(accountId, async (trx) => {
    const current = await lockRow(trx, accountId, id);
    // another worker sealed it meanwhile: keep theirs
    if (current.status !== 'signed') return current;
    const file = await putFile(deps, trx, accountId, { app: SIG_APP, contentType: 'application/pdf', bytes: result.sealed });
    const trusted = result.timestamp
      ? `, trusted time ${(await accountDates(trx, accountId)).moment(result.timestamp.time)}`
      : result.timestampError
        ? ', no trusted time: the time-stamping authority did not answer'
        : '';
    const updated = await move(trx, accountId, current, now, {
      status: 'completed',
      set: {
        completed_at: now,
        signed_file_id: file.id,
        signed_sha256: file.sha256,
        content_sha256: result.contentSha256,
        seal_attempts: current.seal_attempts + 1,
        seal_error: null,
        seal_level: result.level,
        sealed_by: cert.subject,
        signing_certificate_id: cert.certificateId ?? null,
        timestamped_at: result.timestamp?.time ?? null,
      },
      event: 'completed',
      description: `Sealed (PAdES ${result.level}${trusted}): certificate of completion added and the PDF signed by ${cert.subject} (SHA-256 ${file.sha256.slice(0, 16)}…)`,
      webhook: 'document.completed',
      caller: null,
    });
    await audit(trx, accountId, null, {
      namespace: SIG_APP,
      description: `Sealed ${row.document_name} signed by ${row.signer_name} (PAdES ${result.level})`,
      event: 'document.completed',
      at: now,
    });
    return updated;
  });
  return requestOf(done);
}

/** The job: seals what was signed, a few at a time; a failure is noted and tried again next run. */
export async function sealSignedRequests(deps: Deps, limit = 10): Promise<number> {
  const due = await deps.db.system((trx) =>
    sql<{
      id: string;
      account_id: string;
    }>`select id, account_id from sig_requests where status = 'signed' and seal_attempts < 10 order by signed_at limit ${limit}`.execute(
      trx,
    ),
  );
  for (const d of due.rows) {
    try {
      await sealRequest(deps, d.account_id, d.id);
    } catch (err) {
      deps.log('Sealing a signed document failed', err);
      // waiting for the time-stamping authority is not a failed attempt: the grace time bounds
      // it, and the seal falls back to B-B after it (10 attempts at 30 s would end sooner)
      const waiting = err instanceof Error && err.name === 'TsaUnavailable';
      await deps.db.tenant(d.account_id, (trx) =>
        sql`update sig_requests set seal_attempts = seal_attempts + ${waiting ? 0 : 1}, seal_error = ${String(err instanceof Error ? err.message : err).slice(0, 500)} where id = ${d.id}`.execute(
          trx,
        ),
      );
    }
  }
  return due.rows.length;
}

/** Open requests past their time expire: the shared sweep (api/apps/platform/expiry.ts), run by the jobs. */
export function expireDueRequests(deps: Deps, limit?: number): Promise<number> {
  return sweepDue(deps, EXPIRY, limit);
}

const EXPIRY: Expiry<RequestRow> = {
  table: 'sig_requests',
  statuses: SIG_OPEN_STATUSES,
  expiresAt: 'expires_at',
  expire: expireIfDue,
};
