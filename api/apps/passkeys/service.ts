import crypto from 'node:crypto';
import { sql } from 'kysely';
import * as v from 'valibot';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type AuthenticatorTransport,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import type { Deps } from '../../deps';
import type { Trx } from '../../db/index';
import { compiledOnce } from '../../db/compiled';
import { audit } from '../../audit';
import { ApiError } from '../../http/errors';
import { recordResult } from '../../results/record';
import { createLinkToken, linkUrl, resolveLink, revokeTaskLinks } from '../../customer-pages/links';
import { releaseCredits } from '../../usage/credits';
import type { JourneyDelivery } from '../platform/delivery';
import { addTaskEvent } from '../platform/task-events';
import { chooseLanguage, languageEvent, smsLocaleOf, templateText } from '../../customer-pages/language';
import { translate, type MessageKey } from '../../customer-pages/i18n/index';
import type { Locale } from '../../contract/locales';
import { enqueueWebhookEvent } from '../platform/webhook-events';
import { storedAppSettings } from '../platform/app-settings';
import { companyName, renderTemplate, sendAppSms } from '../platform/sms';
import type { Caller } from '../platform/caller';
import { maskPhone } from '../../contract/platform';
import type { ResultStatus } from '../../contract/results';
import {
  PASSKEYS_APP,
  PASSKEY_DEFAULT_SETTINGS,
  PASSKEY_FAILURE_REASONS,
  PASSKEY_TEMPLATES,
  PasskeyGeneralSettingsSchema,
  type PasskeyCeremonyResponse,
  type PasskeyCeremonyResult,
  type PasskeyEnrollBody,
  type PasskeyFailureReason,
  type PasskeyGeneralSettings,
  type PasskeyStatus,
  type PasskeyTask,
  type PasskeyTaskKind,
  type PasskeyVerifyBody,
} from '../../contract/apps/passkeys';
import { authenticatorName } from './authenticators';
import { sweepDue, type Expiry } from '../platform/expiry';

// The Passkeys rules, in one place: the /api/v1 routes, the agent actions, the customer page's
// ceremony calls, the Enrollments page and the demo seed all call these functions.
//
// A task is one link sent by SMS. The customer page asks for ceremony options (a challenge bound
// to the task, the host the page was served on as RP ID, and its origin), runs the ceremony in
// the browser and posts the answer here. A challenge is spent by the first answer that names it,
// whatever the outcome; a refused answer ends the task (failed, with the reason) and spends the
// link, except a cancelled prompt or an expired challenge, which the customer may try again.

export type PasskeyDeps = Pick<Deps, 'db' | 'config' | 'now' | 'log'>;

type TaskRow = {
  id: string;
  kind: PasskeyTaskKind;
  customer_ref: string;
  phone_number: string;
  display_name: string | null;
  agent: string | null;
  status: PasskeyStatus;
  failure_reason: PasskeyFailureReason | null;
  credential_id: string | null;
  created_at: Date;
  expires_at: Date;
  ended_at: Date | null;
};

export type CredentialRow = {
  id: string;
  customer_ref: string;
  display_name: string;
  user_handle: string;
  credential_id: string;
  public_key: string;
  counter: string | number;
  transports: string[];
  aaguid: string;
  backup_eligible: boolean;
  backed_up: boolean;
  rp_id: string;
  created_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
};

/** Where the customer page runs: its RP ID and origin come from the request, never the client's word. */
/** `locale`: the language of the page that asks, for the words of the answer */
export type PageContext = {
  rpId: string;
  origin: string;
  ip: string | null;
  userAgent: string | null;
  hostAccount: string | null;
  locale: Locale;
};

const CHALLENGE_TTL_MS = 5 * 60_000;
const CEREMONY_TIMEOUT_MS = 120_000;
const MAX_CHALLENGES_PER_TASK = 20;
const PURPOSE: Record<PasskeyTaskKind, string> = { enrollment: 'passkey.enroll', verification: 'passkey.verify' };
export const PASSKEY_PURPOSES = Object.values(PURPOSE);
const RESULT_OF: Partial<Record<PasskeyStatus, ResultStatus>> = {
  succeeded: 'success',
  failed: 'failure',
  not_delivered: 'failure',
  cancelled: 'failure',
  expired: 'timeout',
};
const CEREMONY: Record<PasskeyTaskKind, string> = { enrollment: 'Registration', verification: 'Authentication' };

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

export function taskOf(r: TaskRow, credentialId: string | null = null): PasskeyTask {
  return {
    id: r.id,
    kind: r.kind,
    status: r.status,
    customerRef: r.customer_ref,
    phoneNumber: maskPhone(r.phone_number)!,
    agent: r.agent,
    createdAt: new Date(r.created_at).toISOString(),
    expiresAt: new Date(r.expires_at).toISOString(),
    endedAt: iso(r.ended_at),
    failureReason: r.failure_reason,
    credentialId,
  };
}

/** The customer's caller: the page's IP and browser, named "Customer" in the timeline. */
function customerCaller(ctx: Pick<PageContext, 'ip' | 'userAgent'>): Caller {
  return {
    kind: 'api',
    actor: { id: null, firstName: 'Customer', lastName: '' },
    label: 'Customer',
    ip: ctx.ip,
    userAgent: ctx.userAgent,
  };
}

export async function passkeySettings(trx: Trx, accountId: string): Promise<PasskeyGeneralSettings> {
  const { general } = await storedAppSettings(trx, accountId, PASSKEYS_APP);
  const merged = v.safeParse(PasskeyGeneralSettingsSchema, { ...PASSKEY_DEFAULT_SETTINGS, ...general });
  return merged.success ? merged.output : PASSKEY_DEFAULT_SETTINGS;
}

/** The WebAuthn user handle of a customer: stable, opaque (no customer id on the device), per account. */
function userHandle(encryptionKey: string, accountId: string, customerRef: string): string {
  const key = crypto.createHash('sha256').update(`switchboard:passkey-user:${encryptionKey}`).digest();
  return crypto.createHmac('sha256', key).update(`${accountId}:${customerRef}`).digest('base64url');
}

async function lockTask(trx: Trx, accountId: string, id: string): Promise<TaskRow> {
  const row = (
    await sql<TaskRow>`select * from passkey_tasks where account_id = ${accountId} and id = ${id} for update`.execute(trx)
  ).rows[0];
  if (!row) throw new ApiError(404, 'NOT_FOUND', 'There is no enrollment or verification with this id.');
  return row;
}

async function credentialIdOf(trx: Trx, row: TaskRow): Promise<string | null> {
  if (!row.credential_id) return null;
  const c = (
    await sql<{ credential_id: string }>`select credential_id from passkey_credentials where id = ${row.credential_id}`.execute(
      trx,
    )
  ).rows[0];
  return c?.credential_id ?? null;
}

async function answerOf(trx: Trx, row: TaskRow): Promise<PasskeyTask> {
  return taskOf(row, await credentialIdOf(trx, row));
}

/** The event payload: never the full number. */
async function eventData(trx: Trx, r: TaskRow): Promise<Record<string, unknown>> {
  const t = await answerOf(trx, r);
  return {
    id: t.id,
    kind: t.kind,
    status: t.status,
    customerRef: t.customerRef,
    phoneNumber: t.phoneNumber,
    agent: t.agent,
    failureReason: t.failureReason,
    credentialId: t.credentialId,
    endedAt: t.endedAt,
  };
}

/** Ends a task: status, result for search and Watch Tower, timeline, webhook, link spent. */
async function end(
  trx: Trx,
  accountId: string,
  row: TaskRow,
  status: PasskeyStatus,
  now: Date,
  caller: Caller | null,
  extra: { reason?: PasskeyFailureReason; credentialId?: string; description: string; eventType?: string },
): Promise<TaskRow> {
  const updated = (
    await sql<TaskRow>`update passkey_tasks set status = ${status}, ended_at = ${now}, failure_reason = ${extra.reason ?? null},
        credential_id = ${extra.credentialId ?? row.credential_id}
      where id = ${row.id} returning *`.execute(trx)
  ).rows[0]!;
  // a link the customer finished with reads "already used"; one never delivered is cancelled;
  // an expired one stays expired
  if (status === 'not_delivered' || status === 'cancelled') await revokeTaskLinks(trx, accountId, row.id, now);
  else if (status !== 'expired')
    await sql`update link_tokens set used_at = ${now} where account_id = ${accountId} and task_id = ${row.id} and used_at is null`.execute(
      trx,
    );
  await recordResult(trx, accountId, {
    app: PASSKEYS_APP,
    status: RESULT_OF[status]!,
    ts: now,
    sessionRef: row.id,
    phoneNumber: row.phone_number,
    customerRef: row.customer_ref,
  });
  await addTaskEvent(trx, accountId, {
    app: PASSKEYS_APP,
    taskId: row.id,
    ts: now,
    type: status,
    description: extra.description,
    caller,
  });
  if (extra.eventType)
    await enqueueWebhookEvent(trx, accountId, PASSKEYS_APP, extra.eventType, await eventData(trx, updated), now);
  return updated;
}

const isOpen = (r: Pick<TaskRow, 'status'>) => r.status === 'link_sent' || r.status === 'started';

async function expireIfDue(trx: Trx, accountId: string, row: TaskRow, now: Date): Promise<TaskRow> {
  if (!isOpen(row) || new Date(row.expires_at).getTime() > now.getTime()) return row;
  return end(trx, accountId, row, 'expired', now, null, {
    reason: 'expired',
    description: 'Link expired before the customer finished',
    eventType: 'passkey.failed',
  });
}

async function activeCredentials(trx: Trx, accountId: string, customerRef: string, rpId?: string): Promise<CredentialRow[]> {
  return (
    await sql<CredentialRow>`select * from passkey_credentials where account_id = ${accountId} and customer_ref = ${customerRef} and revoked_at is null
      ${rpId ? sql`and rp_id = ${rpId}` : sql``} order by created_at`.execute(trx)
  ).rows;
}

// ---------------------------------------------------------------- enroll and verify (links by SMS)

async function sendLink(
  deps: PasskeyDeps,
  accountId: string,
  kind: PasskeyTaskKind,
  body: PasskeyEnrollBody | PasskeyVerifyBody,
  caller: Caller,
  delivery?: JourneyDelivery,
): Promise<PasskeyTask> {
  const now = deps.now();
  const agent = body.agent ?? (caller.kind === 'api' ? null : caller.label);
  const noun = kind === 'enrollment' ? 'Enrollment' : 'Verification';
  const done = await sendAppSms(deps, accountId, {
    app: PASSKEYS_APP,
    to: body.phoneNumber,
    // a journey's step: the journey's one SMS carries the link
    handOff: delivery ? () => {} : undefined,
    prepare: async (trx) => {
      if (kind === 'verification' && (await activeCredentials(trx, accountId, body.customerRef)).length === 0) {
        throw new ApiError(409, 'NO_PASSKEY', `Customer ${body.customerRef} has no passkey. Enroll a passkey first.`);
      }
      const settings = await passkeySettings(trx, accountId);
      const ttlMs = settings.linkValidityMinutes * 60_000;
      const displayName = 'displayName' in body ? body.displayName || null : null;
      const row = (
        await sql<TaskRow>`insert into passkey_tasks (account_id, kind, customer_ref, phone_number, display_name, agent, status, created_at, expires_at)
          values (${accountId}, ${kind}, ${body.customerRef}, ${body.phoneNumber}, ${displayName}, ${agent}, 'link_sent', ${now}, ${new Date(now.getTime() + ttlMs)})
          returning *`.execute(trx)
      ).rows[0]!;
      const language = await chooseLanguage(trx, accountId, body.locale);
      const { token } = await createLinkToken(trx, accountId, {
        app: PASSKEYS_APP,
        purpose: PURPOSE[kind],
        taskId: row.id,
        ttlMs,
        now,
        locale: language.locale,
      });
      if (delivery) delivery.token = token;
      const { templates } = await storedAppSettings(trx, accountId, PASSKEYS_APP);
      const def = PASSKEY_TEMPLATES.find((t) => t.key === kind)!;
      const text = renderTemplate(templateText(PASSKEYS_APP, def, templates, smsLocaleOf(language)), {
        link: await linkUrl(trx, accountId, deps.config.publicUrl, token),
        company: await companyName(trx, accountId),
        ttl: String(settings.linkValidityMinutes),
      });
      return { text, credit: { taskId: row.id, kind: 'link' }, state: { row, language } };
    },
    record: async (trx, prepared, _written, outcome) => {
      const row = await lockTask(trx, accountId, prepared.row.id);
      const masked = maskPhone(row.phone_number);
      if (!outcome.sent) return undelivered(trx, accountId, row, outcome.failure, caller, now);
      const description = `${noun} link sent to ${masked}`;
      await addTaskEvent(trx, accountId, { app: PASSKEYS_APP, taskId: row.id, ts: now, type: 'link_sent', description, caller });
      await addTaskEvent(trx, accountId, {
        app: PASSKEYS_APP,
        taskId: row.id,
        ts: now,
        caller,
        ...languageEvent(prepared.language),
      });
      await audit(trx, accountId, caller.actor, {
        namespace: PASSKEYS_APP,
        description: `${description} for customer ${row.customer_ref}`,
        event: `passkey.${kind}-sent`,
        at: now,
      });
      return row;
    },
  });
  return taskOf(done);
}

/** A task whose link never reached the customer: not_delivered, its credit given back, the link cancelled. */
async function undelivered(
  trx: Trx,
  accountId: string,
  row: TaskRow,
  failure: string,
  caller: Caller,
  now: Date,
): Promise<TaskRow> {
  const noun = row.kind === 'enrollment' ? 'Enrollment' : 'Verification';
  await releaseCredits(trx, { accountId, app: PASSKEYS_APP, taskId: row.id, kind: 'link', now });
  const ended = await end(trx, accountId, row, 'not_delivered', now, caller, {
    reason: 'not_delivered',
    description: `${noun} link not delivered: ${failure}`,
    eventType: 'passkey.failed',
  });
  await audit(trx, accountId, caller.actor, {
    namespace: PASSKEYS_APP,
    description: `${noun} link to ${maskPhone(row.phone_number)} not delivered: ${failure}`,
    event: 'passkey.send-failed',
    at: now,
  });
  return ended;
}

/**
 * The SMS that carried a task's link failed after the task was written (a journey's one SMS,
 * api/journeys): the task ends exactly as a send ends one whose own SMS failed.
 */
export async function endUndeliveredTask(
  deps: PasskeyDeps,
  accountId: string,
  id: string,
  failure: string,
  caller: Caller,
): Promise<void> {
  const now = deps.now();
  await deps.db.tenant(accountId, async (trx) => {
    const row = await lockTask(trx, accountId, id);
    if (row.status === 'link_sent') await undelivered(trx, accountId, row, failure, caller, now);
  });
}

/** Texts the customer a link to create a passkey. */
export function enrollPasskey(
  deps: PasskeyDeps,
  accountId: string,
  body: PasskeyEnrollBody,
  caller: Caller,
  delivery?: JourneyDelivery,
): Promise<PasskeyTask> {
  return sendLink(deps, accountId, 'enrollment', body, caller, delivery);
}

/** Texts the customer a link to verify with a passkey; 409 NO_PASSKEY when the customer has none. */
export function verifyWithPasskey(
  deps: PasskeyDeps,
  accountId: string,
  body: PasskeyVerifyBody,
  caller: Caller,
  delivery?: JourneyDelivery,
): Promise<PasskeyTask> {
  return sendLink(deps, accountId, 'verification', body, caller, delivery);
}

export async function getPasskeyTask(deps: PasskeyDeps, accountId: string, id: string): Promise<PasskeyTask> {
  const now = deps.now();
  return deps.db.tenant(accountId, async (trx) =>
    answerOf(trx, await expireIfDue(trx, accountId, await lockTask(trx, accountId, id), now)),
  );
}

/** The agent cancels a task still waiting for the customer: its link stops working at once. */
export async function cancelPasskeyTask(deps: PasskeyDeps, accountId: string, id: string, caller: Caller): Promise<PasskeyTask> {
  const now = deps.now();
  return deps.db.tenant(accountId, async (trx) => {
    let row = await expireIfDue(trx, accountId, await lockTask(trx, accountId, id), now);
    if (!isOpen(row)) return answerOf(trx, row);
    const noun = row.kind === 'enrollment' ? 'Enrollment' : 'Verification';
    row = await end(trx, accountId, row, 'cancelled', now, caller, {
      description: `${noun} cancelled: the link no longer works`,
    });
    await audit(trx, accountId, caller.actor, {
      namespace: PASSKEYS_APP,
      description: `Cancelled the passkey ${noun.toLowerCase()} link of customer ${row.customer_ref}`,
      event: 'passkey.cancelled',
      at: now,
    });
    return answerOf(trx, row);
  });
}

/** Open tasks past their time expire: the shared sweep (api/apps/platform/expiry.ts), run by the jobs. */
export function expireDuePasskeyTasks(deps: PasskeyDeps, limit?: number): Promise<number> {
  return sweepDue(deps, EXPIRY, limit);
}

const EXPIRY: Expiry<TaskRow> = {
  table: 'passkey_tasks',
  statuses: ['link_sent', 'started'],
  expiresAt: 'expires_at',
  expire: expireIfDue,
};

// ---------------------------------------------------------------- the customer page

const LINK_REFUSALS = {
  expired: 'This link has expired. Ask the person you are speaking with to send you a new one.',
  used: 'This link has already been used. If you still need to do something, ask for a new link.',
  revoked: 'This link no longer works. Ask the person you are speaking with to send you a new one.',
  unknown: 'This link does not work. Check that you opened the whole link from your message.',
} as const;

/** A link the customer page cannot use, and why (the page words it in its own language). */
export class LinkRefused extends ApiError {
  constructor(readonly reason: keyof typeof LINK_REFUSALS) {
    super(410, 'LINK_NOT_USABLE', LINK_REFUSALS[reason]);
  }
}

/** The task a customer-page link opens, locked, or a 410 the page shows as it is. */
async function openTask(trx: Trx, accountId: string, taskId: string, now: Date): Promise<TaskRow> {
  const row = await expireIfDue(trx, accountId, await lockTask(trx, accountId, taskId), now);
  if (!isOpen(row)) throw new LinkRefused(row.status === 'expired' ? 'expired' : 'used');
  return row;
}

async function linkOf(deps: PasskeyDeps, token: string, ctx: PageContext): Promise<{ accountId: string; taskId: string }> {
  const link = await resolveLink(deps.db, token, deps.now());
  if (
    !link ||
    !link.taskId ||
    !PASSKEY_PURPOSES.includes(link.purpose) ||
    (ctx.hostAccount && ctx.hostAccount !== link.accountId)
  ) {
    throw new LinkRefused('unknown');
  }
  if (link.state !== 'ok') throw new LinkRefused(link.state);
  return { accountId: link.accountId, taskId: link.taskId };
}

// Read on every load of the page (built and compiled once: api/db/compiled.ts).
const PAGE_TASK = compiledOnce(2, (db, accountId, taskId) =>
  db
    .selectFrom('passkey_tasks')
    .select(['kind', 'status', 'customer_ref', 'display_name', 'expires_at'])
    .where('account_id', '=', accountId)
    .where('id', '=', taskId),
);

/** What the customer page shows before any ceremony (the GET of /c/<token>). */
export async function pageState(
  deps: PasskeyDeps,
  accountId: string,
  taskId: string,
): Promise<{ kind: PasskeyTaskKind; displayName: string | null; open: boolean; hasPasskey: boolean }> {
  return deps.db.tenant(accountId, async (trx) => {
    const [row] = await PAGE_TASK.rows(trx, accountId, taskId);
    if (!row) throw new ApiError(404, 'NOT_FOUND', 'There is no such task.');
    const open = isOpen(row) && new Date(row.expires_at).getTime() > deps.now().getTime();
    const hasPasskey = row.kind === 'enrollment' || (await activeCredentials(trx, accountId, row.customer_ref)).length > 0;
    // the name the account gave, never its internal reference: a page greets no one as "CUST-NU-PK2"
    return { kind: row.kind, displayName: row.display_name || null, open, hasPasskey };
  });
}

/**
 * The options of the ceremony the link is for: registration with the customer's display name,
 * or authentication limited to that customer's credentials on this RP ID. Each call issues a
 * fresh challenge, single use and expiring.
 */
export async function ceremonyOptions(
  deps: PasskeyDeps,
  token: string,
  ctx: PageContext,
): Promise<{ kind: PasskeyTaskKind; options: Record<string, unknown> }> {
  const now = deps.now();
  const { accountId, taskId } = await linkOf(deps, token, ctx);
  const answer = await deps.db.tenant(accountId, async (trx) => {
    let row = await openTask(trx, accountId, taskId, now);
    const issued = (
      await sql<{ n: number }>`select count(*)::int as n from passkey_challenges where task_id = ${row.id}`.execute(trx)
    ).rows[0]!.n;
    if (issued >= MAX_CHALLENGES_PER_TASK)
      throw new ApiError(429, 'TOO_MANY_ATTEMPTS', 'Too many attempts with this link. Ask for a new one.');
    const settings = await passkeySettings(trx, accountId);
    const caller = customerCaller(ctx);
    let options: Record<string, unknown>;
    if (row.kind === 'enrollment') {
      const existing = await activeCredentials(trx, accountId, row.customer_ref, ctx.rpId);
      const name = row.display_name || row.customer_ref;
      options = (await generateRegistrationOptions({
        rpName: (await companyName(trx, accountId)) || 'Switchboard',
        rpID: ctx.rpId,
        userName: name,
        userDisplayName: name,
        userID: Buffer.from(userHandle(deps.config.encryptionKey, accountId, row.customer_ref), 'base64url'),
        attestationType: settings.attestation,
        excludeCredentials: existing.map((c) => ({ id: c.credential_id, transports: c.transports as AuthenticatorTransport[] })),
        authenticatorSelection: {
          residentKey: 'preferred',
          userVerification: settings.userVerification,
          ...(settings.attachment === 'any' ? {} : { authenticatorAttachment: settings.attachment }),
        },
        timeout: CEREMONY_TIMEOUT_MS,
      })) as unknown as Record<string, unknown>;
    } else {
      const credentials = await activeCredentials(trx, accountId, row.customer_ref, ctx.rpId);
      if (credentials.length === 0) {
        // recorded (committed) before the page is told
        row = await end(trx, accountId, row, 'failed', now, caller, {
          reason: 'no_passkey',
          description: 'Authentication failed: the customer has no passkey for this site',
          eventType: 'passkey.failed',
        });
        return null;
      }
      options = (await generateAuthenticationOptions({
        rpID: ctx.rpId,
        allowCredentials: credentials.map((c) => ({ id: c.credential_id, transports: c.transports as AuthenticatorTransport[] })),
        userVerification: settings.userVerification,
        timeout: CEREMONY_TIMEOUT_MS,
      })) as unknown as Record<string, unknown>;
    }
    await sql`insert into passkey_challenges (account_id, task_id, challenge, rp_id, origin, created_at, expires_at)
      values (${accountId}, ${row.id}, ${options.challenge as string}, ${ctx.rpId}, ${ctx.origin}, ${now}, ${new Date(now.getTime() + CHALLENGE_TTL_MS)})`.execute(
      trx,
    );
    if (row.status === 'link_sent') {
      await sql`update passkey_tasks set status = 'started' where id = ${row.id}`.execute(trx);
    }
    await addTaskEvent(trx, accountId, {
      app: PASSKEYS_APP,
      taskId: row.id,
      ts: now,
      type: 'started',
      description: `${CEREMONY[row.kind]} started`,
      caller,
    });
    return { kind: row.kind, options };
  });
  if (!answer)
    throw new ApiError(
      409,
      'NO_PASSKEY',
      'You have no passkey with us any more. Ask the person you are speaking with to set up a new one.',
    );
  return answer;
}

/** The reason a refused ceremony is recorded with, from what the verifier said. */
export function reasonOf(err: unknown): PasskeyFailureReason {
  const message = err instanceof Error ? err.message : String(err);
  if (/origin|RP ID/i.test(message)) return 'wrong_origin';
  if (/counter value/i.test(message)) return 'counter_regression';
  if (/signature/i.test(message)) return 'bad_signature';
  return 'invalid_response';
}

function challengeOf(response: PasskeyCeremonyResponse): string | null {
  const data = response.response.clientDataJSON;
  if (typeof data !== 'string') return null;
  try {
    const parsed = JSON.parse(Buffer.from(data, 'base64url').toString('utf8')) as { challenge?: unknown };
    return typeof parsed.challenge === 'string' && parsed.challenge.length <= 200 ? parsed.challenge : null;
  } catch {
    return null;
  }
}

/** What the customer's page shows after a ceremony, in the page's language. */
function outcome(ctx: PageContext, ok: boolean, title: MessageKey, message: MessageKey, retry: boolean): PasskeyCeremonyResult {
  return { ok, title: translate(ctx.locale, title), message: translate(ctx.locale, message), retry };
}

/** Checks the browser's answer to a ceremony; every outcome is recorded in the task's timeline. */
export async function ceremonyVerify(
  deps: PasskeyDeps,
  token: string,
  response: PasskeyCeremonyResponse,
  ctx: PageContext,
): Promise<PasskeyCeremonyResult> {
  const now = deps.now();
  const { accountId, taskId } = await linkOf(deps, token, ctx);
  const caller = customerCaller(ctx);
  return deps.db.tenant(accountId, async (trx) => {
    const row = await openTask(trx, accountId, taskId, now);
    const ceremony = CEREMONY[row.kind];
    const fail = async (reason: PasskeyFailureReason, detail?: string): Promise<PasskeyCeremonyResult> => {
      const label = PASSKEY_FAILURE_REASONS[reason];
      await end(trx, accountId, row, 'failed', now, caller, {
        reason,
        description: `${ceremony} failed: ${label}${detail ? ` (${detail})` : ''}`,
        eventType: 'passkey.failed',
      });
      await audit(trx, accountId, caller.actor, {
        namespace: PASSKEYS_APP,
        description: `${ceremony} for customer ${row.customer_ref} failed: ${label}`,
        event: 'passkey.failed',
        at: now,
      });
      return row.kind === 'enrollment'
        ? outcome(ctx, false, 'passkey.failed.enrollment.title', 'passkey.failed.enrollment.text', false)
        : outcome(ctx, false, 'passkey.failed.verification.title', 'passkey.failed.verification.text', false);
    };

    // the challenge: issued for this task, unused and unexpired; spent now, whatever follows
    const given = challengeOf(response);
    const challenge = given
      ? (
          await sql<{ id: string; challenge: string; rp_id: string; origin: string; expires_at: Date; used_at: Date | null }>`
          select id, challenge, rp_id, origin, expires_at, used_at from passkey_challenges where task_id = ${row.id} and challenge = ${given} for update`.execute(
            trx,
          )
        ).rows[0]
      : undefined;
    if (!challenge || challenge.used_at || new Date(challenge.expires_at).getTime() <= now.getTime()) {
      const why = !challenge
        ? 'the challenge was not issued for this link'
        : challenge.used_at
          ? 'the challenge was already used'
          : 'the challenge expired';
      await addTaskEvent(trx, accountId, {
        app: PASSKEYS_APP,
        taskId: row.id,
        ts: now,
        type: 'refused',
        description: `${ceremony} refused: ${why}`,
        caller,
      });
      return outcome(ctx, false, 'passkey.retry.title', 'passkey.retry.text', true);
    }
    await sql`update passkey_challenges set used_at = ${now} where id = ${challenge.id}`.execute(trx);
    const requireUserVerification = (await passkeySettings(trx, accountId)).userVerification === 'required';
    const expected = {
      expectedChallenge: challenge.challenge,
      expectedOrigin: challenge.origin,
      expectedRPID: challenge.rp_id,
      requireUserVerification,
    };

    if (row.kind === 'enrollment') {
      let info;
      try {
        const result = await verifyRegistrationResponse({
          response: response as unknown as RegistrationResponseJSON,
          ...expected,
        });
        if (!result.verified || !result.registrationInfo) return fail('bad_signature');
        info = result.registrationInfo;
      } catch (err) {
        return fail(reasonOf(err), err instanceof Error ? err.message.slice(0, 200) : undefined);
      }
      const credentialId = info.credential.id;
      const taken = (
        await sql<{
          id: string;
        }>`select id from passkey_credentials where account_id = ${accountId} and credential_id = ${credentialId}`.execute(trx)
      ).rows[0];
      if (taken) return fail('invalid_response', 'this credential is already registered');
      const transports = (info.credential.transports ?? response.response.transports ?? []) as string[];
      const cred = (
        await sql<{
          id: string;
        }>`insert into passkey_credentials (account_id, customer_ref, display_name, user_handle, credential_id, public_key, counter, transports,
            aaguid, backup_eligible, backed_up, rp_id, created_at)
          values (${accountId}, ${row.customer_ref}, ${row.display_name || row.customer_ref}, ${userHandle(deps.config.encryptionKey, accountId, row.customer_ref)},
            ${credentialId}, ${Buffer.from(info.credential.publicKey).toString('base64url')}, ${info.credential.counter}, ${transports.filter((t) => typeof t === 'string').slice(0, 8)},
            ${info.aaguid}, ${info.credentialDeviceType === 'multiDevice'}, ${info.credentialBackedUp}, ${challenge.rp_id}, ${now})
          returning id`.execute(trx)
      ).rows[0]!;
      const name = authenticatorName(info.aaguid);
      await end(trx, accountId, row, 'succeeded', now, caller, {
        credentialId: cred.id,
        description: `Passkey created: ${name}, ${info.credentialDeviceType === 'multiDevice' ? 'synced' : 'device-bound'}`,
        eventType: 'passkey.enrolled',
      });
      await audit(trx, accountId, caller.actor, {
        namespace: PASSKEYS_APP,
        description: `Customer ${row.customer_ref} created a passkey (${name})`,
        event: 'passkey.enrolled',
        at: now,
      });
      return outcome(ctx, true, 'passkey.created.title', 'passkey.created.text', false);
    }

    // authentication: only this customer's live credentials, on the RP ID of the challenge
    const cred = (
      await sql<CredentialRow>`select * from passkey_credentials where account_id = ${accountId} and credential_id = ${response.id}
        and customer_ref = ${row.customer_ref} and rp_id = ${challenge.rp_id} and revoked_at is null for update`.execute(trx)
    ).rows[0];
    if (!cred) return fail('unknown_credential');
    let auth;
    try {
      const result = await verifyAuthenticationResponse({
        response: response as unknown as AuthenticationResponseJSON,
        ...expected,
        credential: {
          id: cred.credential_id,
          publicKey: Buffer.from(cred.public_key, 'base64url'),
          counter: Number(cred.counter),
          transports: cred.transports as AuthenticatorTransport[],
        },
      });
      if (!result.verified) return fail('bad_signature');
      auth = result.authenticationInfo;
    } catch (err) {
      return fail(reasonOf(err), err instanceof Error ? err.message.slice(0, 200) : undefined);
    }
    await sql`update passkey_credentials set counter = ${auth.newCounter}, last_used_at = ${now}, backed_up = ${auth.credentialBackedUp} where id = ${cred.id}`.execute(
      trx,
    );
    await end(trx, accountId, row, 'succeeded', now, caller, {
      credentialId: cred.id,
      description: `Verified with a passkey (${authenticatorName(cred.aaguid)})`,
      eventType: 'passkey.verified',
    });
    await audit(trx, accountId, caller.actor, {
      namespace: PASSKEYS_APP,
      description: `Customer ${row.customer_ref} verified with a passkey`,
      event: 'passkey.verified',
      at: now,
    });
    return outcome(ctx, true, 'passkey.verified.title', 'passkey.verified.text', false);
  });
}

/** The browser said no: a cancelled or timed-out prompt (try again) or no passkey support at all. */
export async function ceremonyAbandoned(
  deps: PasskeyDeps,
  token: string,
  reason: 'cancelled' | 'unsupported',
  ctx: PageContext,
): Promise<PasskeyCeremonyResult> {
  const now = deps.now();
  const { accountId, taskId } = await linkOf(deps, token, ctx);
  return deps.db.tenant(accountId, async (trx) => {
    const row = await openTask(trx, accountId, taskId, now);
    await sql`update passkey_tasks set failure_reason = ${reason} where id = ${row.id}`.execute(trx);
    await addTaskEvent(trx, accountId, {
      app: PASSKEYS_APP,
      taskId: row.id,
      ts: now,
      type: reason,
      description: `${CEREMONY[row.kind]} failed: ${PASSKEY_FAILURE_REASONS[reason]}`,
      caller: customerCaller(ctx),
    });
    return reason === 'cancelled'
      ? outcome(ctx, false, 'passkey.cancelled.title', 'passkey.cancelled.text', true)
      : outcome(ctx, false, 'passkey.unsupported.title', 'passkey.unsupported.text', false);
  });
}

// ---------------------------------------------------------------- revoke

/** Revokes a credential (audited, passkey.revoked); the enrollment that made it records it too. */
export async function revokeCredential(deps: PasskeyDeps, accountId: string, id: string, caller: Caller): Promise<CredentialRow> {
  const now = deps.now();
  return deps.db.tenant(accountId, async (trx) => {
    const cred = (
      await sql<CredentialRow>`select * from passkey_credentials where account_id = ${accountId} and id = ${id} for update`.execute(
        trx,
      )
    ).rows[0];
    if (!cred) throw new ApiError(404, 'NOT_FOUND', 'There is no passkey with this id.');
    if (cred.revoked_at) return cred;
    const updated = (
      await sql<CredentialRow>`update passkey_credentials set revoked_at = ${now} where id = ${id} returning *`.execute(trx)
    ).rows[0]!;
    const short = shortId(cred.credential_id);
    const enrollment = (
      await sql<{
        id: string;
      }>`select id from passkey_tasks where account_id = ${accountId} and credential_id = ${id} and kind = 'enrollment' limit 1`.execute(
        trx,
      )
    ).rows[0];
    if (enrollment)
      await addTaskEvent(trx, accountId, {
        app: PASSKEYS_APP,
        taskId: enrollment.id,
        ts: now,
        type: 'revoked',
        description: `Passkey ${short} revoked`,
        caller,
      });
    await audit(trx, accountId, caller.actor, {
      namespace: PASSKEYS_APP,
      description: `Revoked passkey ${short} of customer ${cred.customer_ref}`,
      event: 'passkey.revoked',
      at: now,
    });
    await enqueueWebhookEvent(
      trx,
      accountId,
      PASSKEYS_APP,
      'passkey.revoked',
      { id: cred.id, credentialId: cred.credential_id, customerRef: cred.customer_ref, revokedAt: now.toISOString() },
      now,
    );
    return updated;
  });
}

/** Ids longer than 12 characters are shortened to their first and last 6 (SPEC). */
export function shortId(id: string): string {
  return id.length > 12 ? `${id.slice(0, 6)}…${id.slice(-6)}` : id;
}
