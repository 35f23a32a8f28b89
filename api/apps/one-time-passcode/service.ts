import crypto from 'node:crypto';
import { sql } from 'kysely';
import * as v from 'valibot';
import type { Deps } from '../../deps';
import type { Trx } from '../../db/index';
import { audit } from '../../audit';
import { decryptSecret, encryptSecret } from '../../crypto';
import { ApiError } from '../../http/errors';
import { recordResult } from '../../results/record';
import { releaseCredits } from '../../usage/credits';
import { addTaskEvent } from '../platform/task-events';
import { enqueueWebhookEvent } from '../platform/webhook-events';
import { appSettingsQuery, storedAppSettings, storedAppSettingsOf } from '../platform/app-settings';
import {
  customerLocaleOf,
  customerLocaleQuery,
  languageChoice,
  languageEvent,
  smsLocaleOf,
  templateText,
  type LanguageChoice,
} from '../../customer-pages/language';
import { companyNameQuery, renderTemplate, sendAppSms, type SmsOutcome } from '../platform/sms';
import { API_KEY_ACTOR, apiCaller, type Caller } from '../platform/caller';
import type { JourneyDelivery } from '../platform/delivery';
import { maskPhone } from '../../contract/platform';
import {
  OTP_APP,
  OTP_DEFAULT_SETTINGS,
  OTP_TEMPLATES,
  OtpGeneralSettingsSchema,
  type OtpGeneralSettings,
  type OtpSendBody,
  type OtpStatus,
  type OtpVerification,
} from '../../contract/apps/one-time-passcode';
import type { ResultStatus } from '../../contract/results';
import { sweepDue, type Expiry } from '../platform/expiry';

// The One-Time Passcode rules, in one place: the /api/v1 routes, the agent and console actions
// and the demo seed all call these functions. The code itself is never returned, listed, logged
// or put in a webhook: it exists in the SMS, as an HMAC (for checking, in constant time) and
// encrypted (only so a resend within the validity period sends the same code).

type Row = {
  id: string;
  phone_number: string;
  customer_ref: string | null;
  agent: string | null;
  status: OtpStatus;
  code_hmac: string;
  code_encrypted: string;
  sends: number;
  checks: number;
  max_checks: number;
  created_at: Date;
  expires_at: Date;
  ended_at: Date | null;
  verified_at: Date | null;
  failure_reason: string | null;
};

const SEND_WINDOW_MS = 10 * 60_000;
const RESULT_OF: Partial<Record<OtpStatus, ResultStatus>> = {
  approved: 'success',
  canceled: 'failure',
  max_attempts_reached: 'failure',
  failed: 'failure',
  expired: 'timeout',
};

export type OtpDeps = Pick<Deps, 'db' | 'config' | 'now' | 'log'>;

function codeHmac(encryptionKey: string, id: string, code: string): string {
  const key = crypto.createHash('sha256').update(`switchboard:otp:${encryptionKey}`).digest();
  return crypto.createHmac('sha256', key).update(`${id}:${code}`).digest('hex');
}

export function verificationOf(r: Row): OtpVerification {
  const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);
  return {
    id: r.id,
    status: r.status,
    phoneNumber: maskPhone(r.phone_number)!,
    customerRef: r.customer_ref,
    agent: r.agent,
    sends: r.sends,
    checks: r.checks,
    attemptsLeft: Math.max(0, r.max_checks - r.checks),
    createdAt: new Date(r.created_at).toISOString(),
    expiresAt: new Date(r.expires_at).toISOString(),
    verifiedAt: iso(r.verified_at),
    failureReason: r.failure_reason,
  };
}

/** The event payload: what a receiver needs, never the code and never the full number. */
function eventData(r: Row): Record<string, unknown> {
  const { id, status, phoneNumber, customerRef, agent, sends, checks, expiresAt, verifiedAt, failureReason } = verificationOf(r);
  return { id, status, phoneNumber, customerRef, agent, sends, checks, expiresAt, verifiedAt, failureReason };
}

export async function otpSettings(trx: Trx, accountId: string): Promise<OtpGeneralSettings> {
  return settingsOf((await storedAppSettings(trx, accountId, OTP_APP)).general);
}

function settingsOf(general: Record<string, unknown>): OtpGeneralSettings {
  const merged = v.safeParse(OtpGeneralSettingsSchema, { ...OTP_DEFAULT_SETTINGS, ...general });
  return merged.success ? merged.output : OTP_DEFAULT_SETTINGS;
}

async function lockRow(trx: Trx, accountId: string, id: string): Promise<Row> {
  const row = (
    await sql<Row>`select * from otp_verifications where account_id = ${accountId} and id = ${id} for update`.execute(trx)
  ).rows[0];
  if (!row) throw new ApiError(404, 'NOT_FOUND', 'There is no verification with this id.');
  return row;
}

/** Ends a verification: status, result for search and Watch Tower, webhook, timeline. */
async function end(
  trx: Trx,
  accountId: string,
  row: Row,
  status: OtpStatus,
  now: Date,
  caller: Caller | null,
  extra: { reason?: string; description: string; eventType?: string },
): Promise<Row> {
  const updated = (
    await sql<Row>`update otp_verifications set status = ${status}, ended_at = ${now},
        verified_at = ${status === 'approved' ? now : null}, failure_reason = ${extra.reason ?? null}
      where id = ${row.id} returning *`.execute(trx)
  ).rows[0]!;
  await recordResult(trx, accountId, {
    app: OTP_APP,
    status: RESULT_OF[status]!,
    ts: now,
    sessionRef: row.id,
    phoneNumber: row.phone_number,
    customerRef: row.customer_ref,
  });
  await addTaskEvent(trx, accountId, {
    app: OTP_APP,
    taskId: row.id,
    ts: now,
    type: status,
    description: extra.description,
    caller,
  });
  if (extra.eventType) await enqueueWebhookEvent(trx, accountId, OTP_APP, extra.eventType, eventData(updated), now);
  return updated;
}

/** Lazily ends a pending verification whose time is up (the sweep does the same for the rest). */
async function expireIfDue(trx: Trx, accountId: string, row: Row, now: Date): Promise<Row> {
  if (row.status !== 'pending' || new Date(row.expires_at).getTime() > now.getTime()) return row;
  return end(trx, accountId, row, 'expired', now, null, { description: 'Passcode expired', eventType: 'otp.expired' });
}

type Prepared = { row: Row; language: LanguageChoice; created: boolean };

/**
 * Sends a passcode (201 with the verification) or, while a verification for this number is
 * pending, sends the same code again (a resend counts as a send): prepared here (the code, the
 * verification), delivered through the one SMS door (`sendAppSms`: guard, limits, credit, the
 * message), recorded by `recordSend`.
 *
 * The busiest write of the API, so its statements travel with the door's (api/db/batch.ts). With
 * the development outbox the whole send is one transaction of three round trips:
 *   1. BEGIN and the scope, the door's reads (the app's billing row, the account's SMS state, the
 *      range's row, locked when the pumping rules are on) with the app's settings, the account's
 *      language and company name, the number's lock, its recent sends and its pending verification;
 *   2. the pumping count (rules on), the verification written, the send recorded, the billing
 *      row locked for the credit;
 *   3. the credit, the outbox message, the timeline, the audit entry and the webhook event, with
 *      the COMMIT.
 * Through Twilio the message leaves after that transaction commits, and a second transaction
 * records how it went. A refusal (app, provider, number type, country, hold, too many sends, free
 * tier) rolls everything back, as does a send that trips a pumping rule (the range is then held).
 */
export async function sendPasscode(
  deps: OtpDeps,
  accountId: string,
  body: OtpSendBody,
  caller: Caller,
  delivery?: JourneyDelivery,
): Promise<{ verification: OtpVerification; created: boolean }> {
  const phone = body.phoneNumber;
  const since = new Date(deps.now().getTime() - SEND_WINDOW_MS);
  const sent = await sendAppSms(deps, accountId, {
    app: OTP_APP,
    to: phone,
    span: 'otp.send',
    handOff: delivery ? (text) => (delivery.smsText = text) : undefined,
    reads: (trx) =>
      [
        appSettingsQuery(trx, accountId, OTP_APP),
        customerLocaleQuery(trx, accountId),
        companyNameQuery(accountId),
        // serialise sends to one number so the limit below cannot be raced past
        sql`select pg_advisory_xact_lock(hashtext(${`${accountId}:${phone}`}))`,
        sql<{ n: number; oldest: Date | null }>`select count(*)::int as n, min(ts) as oldest from otp_sends
        where account_id = ${accountId} and phone_number = ${phone} and ts > ${since}`,
        sql<Row>`select * from otp_verifications where account_id = ${accountId} and phone_number = ${phone} and status = 'pending'
        order by created_at desc limit 1 for update`,
      ] as const,
    prepare: async (trx, [stored, locale, company, , recent, pending], { now }) => {
      const settings = settingsOf(storedAppSettingsOf(stored).general);
      const { n, oldest } = recent[0]!;
      if (n >= settings.sendsPer10Minutes) {
        const retryAfter = Math.max(1, Math.ceil((new Date(oldest!).getTime() + SEND_WINDOW_MS - now.getTime()) / 1000));
        throw new ApiError(
          429,
          'TOO_MANY_SENDS',
          `At most ${settings.sendsPer10Minutes} passcodes can be sent to one number in 10 minutes. Try again in ${retryAfter} seconds.`,
          undefined,
          { 'Retry-After': String(retryAfter) },
        );
      }
      let row = pending[0];
      if (row) row = await expireIfDue(trx, accountId, row, now);
      const created = !(row && row.status === 'pending');
      let code: string, id: string, sends: number, expiresAt: Date;
      let write;
      if (row && !created) {
        ({ id, expires_at: expiresAt } = row);
        sends = row.sends + 1;
        code = decryptSecret(row.code_encrypted, deps.config.encryptionKey);
        write = sql<Row>`update otp_verifications set sends = sends + 1 where id = ${row.id} returning *`;
      } else {
        // the id is made here, not asked of the database: the code's HMAC needs it before the insert
        id = crypto.randomUUID();
        sends = 1;
        expiresAt = new Date(now.getTime() + settings.validityMinutes * 60_000);
        code = String(crypto.randomInt(0, 10 ** settings.codeLength)).padStart(settings.codeLength, '0');
        write = sql<Row>`insert into otp_verifications (id, account_id, phone_number, customer_ref, agent, status, code_hmac, code_encrypted, sends, max_checks, created_at, expires_at)
          values (${id}, ${accountId}, ${phone}, ${body.customerRef ?? null}, ${body.agent ?? (caller.kind === 'api' ? null : caller.label)}, 'pending',
                  ${codeHmac(deps.config.encryptionKey, id, code)}, ${encryptSecret(code, deps.config.encryptionKey)}, 1, ${settings.maxChecks},
                  ${now}, ${expiresAt})
          returning *`;
      }
      const ttl = Math.max(1, Math.round((new Date(expiresAt).getTime() - now.getTime()) / 60_000));
      const language = languageChoice(body.locale, customerLocaleOf(locale));
      const text = renderTemplate(
        templateText(OTP_APP, OTP_TEMPLATES[0]!, storedAppSettingsOf(stored).templates, smsLocaleOf(language)),
        { code, company: company[0]?.name ?? '', ttl: String(ttl) },
      );
      return {
        text,
        credit: { taskId: id, kind: `sms-${sends}` },
        writes: [
          write,
          sql`insert into otp_sends (account_id, phone_number, ts) values (${accountId}, ${phone}, ${now})`,
        ] as const,
        state: { language, created },
      };
    },
    record: async (trx, prepared, [written], outcome) => ({
      row: await recordSend(deps, trx, accountId, written[0]!, prepared, caller, outcome),
      created: prepared.created,
    }),
  });
  return { verification: verificationOf(sent.row), created: sent.created };
}

/** How the send went: delivered (timeline, audit, webhook), or not (the send not counted; a first send fails the verification). */
async function recordSend(
  deps: OtpDeps,
  trx: Trx,
  accountId: string,
  written: Row,
  prepared: Omit<Prepared, 'row'>,
  caller: Caller,
  outcome: SmsOutcome,
): Promise<Row> {
  const now = deps.now();
  const row = outcome.sent && !outcome.afterCommit ? written : await lockRow(trx, accountId, written.id);
  if (outcome.sent) {
    await recordSent(trx, accountId, row, prepared.language, caller, now);
    return row;
  }
  // configuration problems are the caller's to fix (409, thrown by the door): nothing was sent
  if (outcome.error instanceof ApiError && outcome.error.code === 'SMS_NOT_CONFIGURED') {
    return (await sql<Row>`update otp_verifications set sends = sends - 1 where id = ${row.id} returning *`.execute(trx))
      .rows[0]!;
  }
  return undoSend(trx, accountId, row, outcome.failure, caller, now);
}

/** A send that did not reach the customer is not counted; a verification with no send left fails (otp.failed). */
async function undoSend(trx: Trx, accountId: string, row: Row, failure: string, caller: Caller, now: Date): Promise<Row> {
  row = (await sql<Row>`update otp_verifications set sends = sends - 1 where id = ${row.id} returning *`.execute(trx)).rows[0]!;
  if (row.status === 'pending' && row.sends === 0) {
    row = await end(trx, accountId, row, 'failed', now, caller, {
      reason: failure,
      description: `Passcode not delivered: ${failure}`,
      eventType: 'otp.failed',
    });
  } else {
    await addTaskEvent(trx, accountId, {
      app: OTP_APP,
      taskId: row.id,
      ts: now,
      type: 'send_failed',
      description: `Resend not delivered: ${failure}`,
      caller,
    });
  }
  await audit(trx, accountId, caller.actor, {
    namespace: OTP_APP,
    description: `Passcode to ${maskPhone(row.phone_number)} not delivered: ${failure}`,
    event: 'otp.send-failed',
    at: now,
  });
  return row;
}

/** A delivered send: the timeline, the audit entry and the webhook event (all sent with the COMMIT). */
async function recordSent(
  trx: Trx,
  accountId: string,
  row: Row,
  language: LanguageChoice,
  caller: Caller,
  now: Date,
): Promise<void> {
  const masked = maskPhone(row.phone_number);
  const description = row.sends === 1 ? `Passcode sent to ${masked}` : `Passcode sent again to ${masked} (send ${row.sends})`;
  await addTaskEvent(trx, accountId, { app: OTP_APP, taskId: row.id, ts: now, type: 'sent', description, caller });
  if (row.sends === 1)
    await addTaskEvent(trx, accountId, { app: OTP_APP, taskId: row.id, ts: now, caller, ...languageEvent(language, false) });
  await audit(trx, accountId, caller.actor, { namespace: OTP_APP, description, event: 'otp.sent', at: now });
  await enqueueWebhookEvent(trx, accountId, OTP_APP, 'otp.sent', eventData(row), now);
}

/** A v1 call that names no agent acts for the agent the verification was sent by. */
function actingFor(caller: Caller, row: Row): Caller {
  return caller.kind === 'api' && caller.label === API_KEY_ACTOR && row.agent
    ? apiCaller(row.agent, caller.ip, caller.userAgent)
    : caller;
}

/** Checks a code: approved, pending (attempts left), max_attempts_reached, expired or canceled. */
/**
 * The SMS that carried a passcode failed after its send was recorded (a journey's one SMS carries
 * the passcode's text, api/journeys): the send is undone as sendPasscode undoes one whose own SMS
 * failed. Its credit is given back; a verification with no send left fails (otp.failed).
 * (Kept beside sendPasscode, not inside it: the same rule, for a text another sender carried.)
 */
export async function endUndeliveredSend(
  deps: OtpDeps,
  accountId: string,
  id: string,
  failure: string,
  caller: Caller,
): Promise<void> {
  const now = deps.now();
  await deps.db.tenant(accountId, async (trx) => {
    const row = await lockRow(trx, accountId, id);
    if (row.status !== 'pending' || row.sends < 1) return;
    await releaseCredits(trx, { accountId, app: OTP_APP, taskId: row.id, kind: `sms-${row.sends}`, now });
    await undoSend(trx, accountId, row, failure, caller, now);
  });
}

export async function checkPasscode(
  deps: OtpDeps,
  accountId: string,
  id: string,
  code: string,
  caller: Caller,
): Promise<OtpVerification> {
  const now = deps.now();
  return deps.db.tenant(accountId, async (trx) => {
    let row = await expireIfDue(trx, accountId, await lockRow(trx, accountId, id), now);
    if (row.status !== 'pending') return verificationOf(row);
    caller = actingFor(caller, row);
    row = (await sql<Row>`update otp_verifications set checks = checks + 1 where id = ${row.id} returning *`.execute(trx))
      .rows[0]!;
    const expected = Buffer.from(row.code_hmac, 'hex');
    const given = Buffer.from(codeHmac(deps.config.encryptionKey, row.id, code), 'hex');
    const masked = maskPhone(row.phone_number);
    if (crypto.timingSafeEqual(expected, given)) {
      row = await end(trx, accountId, row, 'approved', now, caller, {
        description: 'Code correct: caller verified',
        eventType: 'otp.verified',
      });
      await audit(trx, accountId, caller.actor, {
        namespace: OTP_APP,
        description: `Verified ${masked} with a passcode`,
        event: 'otp.verified',
        at: now,
      });
    } else if (row.checks >= row.max_checks) {
      row = await end(trx, accountId, row, 'max_attempts_reached', now, caller, {
        description: `Wrong code: all ${row.max_checks} attempts used`,
        eventType: 'otp.failed',
      });
      await audit(trx, accountId, caller.actor, {
        namespace: OTP_APP,
        description: `Passcode for ${masked} failed: all attempts used`,
        event: 'otp.failed',
        at: now,
      });
    } else {
      await addTaskEvent(trx, accountId, {
        app: OTP_APP,
        taskId: row.id,
        ts: now,
        type: 'wrong_code',
        description: `Wrong code (${row.max_checks - row.checks} attempts left)`,
        caller,
      });
      await audit(trx, accountId, caller.actor, {
        namespace: OTP_APP,
        description: `Wrong passcode for ${masked}`,
        event: 'otp.checked',
        at: now,
      });
    }
    return verificationOf(row);
  });
}

export async function getVerification(deps: OtpDeps, accountId: string, id: string): Promise<OtpVerification> {
  const now = deps.now();
  return deps.db.tenant(accountId, async (trx) =>
    verificationOf(await expireIfDue(trx, accountId, await lockRow(trx, accountId, id), now)),
  );
}

export async function cancelVerification(deps: OtpDeps, accountId: string, id: string, caller: Caller): Promise<OtpVerification> {
  const now = deps.now();
  return deps.db.tenant(accountId, async (trx) => {
    let row = await expireIfDue(trx, accountId, await lockRow(trx, accountId, id), now);
    if (row.status !== 'pending') return verificationOf(row);
    caller = actingFor(caller, row);
    row = await end(trx, accountId, row, 'canceled', now, caller, { description: 'Verification canceled' });
    await audit(trx, accountId, caller.actor, {
      namespace: OTP_APP,
      description: `Canceled the passcode for ${maskPhone(row.phone_number)}`,
      event: 'otp.canceled',
      at: now,
    });
    return verificationOf(row);
  });
}

/** Open verifications past their time expire: the shared sweep (api/apps/platform/expiry.ts), run by the jobs. */
export function expireDueVerifications(deps: OtpDeps, limit?: number): Promise<number> {
  return sweepDue(deps, EXPIRY, limit);
}

const EXPIRY: Expiry<Row> = { table: 'otp_verifications', statuses: ['pending'], expiresAt: 'expires_at', expire: expireIfDue };
