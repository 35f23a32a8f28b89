import crypto from 'node:crypto';
import { sql } from 'kysely';
import * as v from 'valibot';
import type { Deps } from '../../deps';
import type { Trx } from '../../db/index';
import { audit } from '../../audit';
import { decryptSecret, encryptSecret } from '../../crypto';
import { ApiError } from '../../http/errors';
import { recordResult } from '../../results/record';
import { billingQuery, chargeStatement, lockBilling, refuseUnusable, releaseCredits } from '../platform/credits';
import { addTaskEvent } from '../platform/task-events';
import { enqueueWebhookEvent } from '../platform/webhook-events';
import { appSettingsQuery, storedAppSettings, storedAppSettingsOf } from '../platform/app-settings';
import { customerLocaleOf, customerLocaleQuery, languageChoice, languageEvent, smsLocaleOf, templateText, type LanguageChoice } from '../../customer-pages/language';
import { companyNameQuery, outboxInsert, renderTemplate, twilioSettingsOf, usableProvider } from '../platform/sms';
import { together, later } from '../../db/batch';
import { sendSms } from '../../integrations/twilio';
import { classifyNumber, type NumberClass } from '../../sms-guard/classify';
import { checkDestination, countingOf, countSend, heldError, holdKey, holdRange, lockRange, smsStateOf, smsStateQuery, verdictOf, type RangeRow, type Trip } from '../../sms-guard/service';
import { DEV_OUTBOX_PROVIDER } from '../../contract/sms';
import type { SmsGuardRules } from '../../contract/sms-guard';
import { API_KEY_ACTOR, apiCaller, type Caller } from '../platform/caller';
import type { JourneyDelivery } from '../platform/delivery';
import { maskPhone } from '../../contract/platform';
import { measured } from '../../observability/metrics';
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
const RESULT_OF: Partial<Record<OtpStatus, ResultStatus>> = { approved: 'success', canceled: 'failure', max_attempts_reached: 'failure', failed: 'failure', expired: 'timeout' };

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
  const row = (await sql<Row>`select * from otp_verifications where account_id = ${accountId} and id = ${id} for update`.execute(trx)).rows[0];
  if (!row) throw new ApiError(404, 'NOT_FOUND', 'There is no verification with this id.');
  return row;
}

/** Ends a verification: status, result for search and Watch Tower, webhook, timeline. */
async function end(trx: Trx, accountId: string, row: Row, status: OtpStatus, now: Date, caller: Caller | null, extra: { reason?: string; description: string; eventType?: string }): Promise<Row> {
  const updated = (
    await sql<Row>`update otp_verifications set status = ${status}, ended_at = ${now},
        verified_at = ${status === 'approved' ? now : null}, failure_reason = ${extra.reason ?? null}
      where id = ${row.id} returning *`.execute(trx)
  ).rows[0]!;
  await recordResult(trx, accountId, { app: OTP_APP, status: RESULT_OF[status]!, ts: now, sessionRef: row.id, phoneNumber: row.phone_number, customerRef: row.customer_ref });
  await addTaskEvent(trx, accountId, { app: OTP_APP, taskId: row.id, ts: now, type: status, description: extra.description, caller });
  if (extra.eventType) await enqueueWebhookEvent(trx, accountId, OTP_APP, extra.eventType, eventData(updated), now);
  return updated;
}

/** Lazily ends a pending verification whose time is up (the sweep does the same for the rest). */
async function expireIfDue(trx: Trx, accountId: string, row: Row, now: Date): Promise<Row> {
  if (row.status !== 'pending' || new Date(row.expires_at).getTime() > now.getTime()) return row;
  return end(trx, accountId, row, 'expired', now, null, { description: 'Passcode expired', eventType: 'otp.expired' });
}

/** A send that tripped a pumping rule: its transaction rolls back, then the range is held. */
class RangeToHold extends Error {
  constructor(
    readonly number: NumberClass,
    readonly trip: Trip,
    readonly rules: SmsGuardRules,
  ) {
    super(trip.reason);
  }
}

// when the number is not one (checkDestination refuses it), there is no range to lock
const NO_RANGE = sql<RangeRow>`select null::timestamptz as held_until where false`;
const NO_COUNT = sql<Parameters<typeof verdictOf>[0]>`select 0 as last_hour where false`;

/**
 * Sends a passcode (201 with the verification) or, while a verification for this number is
 * pending, sends the same code again (a resend counts as a send).
 *
 * The busiest write of the API, so its statements travel together (api/db/batch.ts). With the
 * development outbox the whole send is one transaction of three round trips:
 *   1. BEGIN and the scope, the app's billing row, the account's SMS state (provider, guard,
 *      a hold on the range), the range's row (locked; only when the pumping rules are on), the
 *      app's settings, the account's language and company name, the number's lock, its recent
 *      sends and its pending verification;
 *   2. the pumping count (rules on), the verification written, the send recorded, the billing
 *      row locked for the credit;
 *   3. the credit, the outbox message, the timeline, the audit entry and the webhook event, with
 *      the COMMIT.
 * Through Twilio the message leaves after that transaction commits (a slow provider must not hold
 * a connection), and a second transaction records how it went. A refusal (app, provider, number
 * type, country, hold, too many sends, free tier) rolls everything back; a send that trips a
 * pumping rule rolls back too, and the range is then held in a transaction of its own.
 */
export async function sendPasscode(deps: OtpDeps, accountId: string, body: OtpSendBody, caller: Caller, delivery?: JourneyDelivery): Promise<{ verification: OtpVerification; created: boolean }> {
  const now = deps.now();
  const phone = body.phoneNumber;
  const number = classifyNumber(phone);
  let prepared;
  try {
    prepared = await deps.db.tenant(accountId, async (trx) => {
      const since = new Date(now.getTime() - SEND_WINDOW_MS);
      const [billing, state, range, stored, locale, company, , recent, pending] = await measured(trx, 'otp.send.read', () => together(
        trx,
        billingQuery(trx, accountId, OTP_APP),
        smsStateQuery(accountId, number?.prefix ?? null, now, number?.country ?? null),
        number ? lockRange(accountId, number) : NO_RANGE,
        appSettingsQuery(trx, accountId, OTP_APP),
        customerLocaleQuery(trx, accountId),
        companyNameQuery(accountId),
        // serialise sends to one number so the limit below cannot be raced past
        sql`select pg_advisory_xact_lock(hashtext(${`${accountId}:${phone}`}))`,
        sql<{ n: number; oldest: Date | null }>`select count(*)::int as n, min(ts) as oldest from otp_sends
          where account_id = ${accountId} and phone_number = ${phone} and ts > ${since}`,
        sql<Row>`select * from otp_verifications where account_id = ${accountId} and phone_number = ${phone} and status = 'pending'
          order by created_at desc limit 1 for update`,
      ));
      refuseUnusable(OTP_APP, billing[0], 1);
      const sms = smsStateOf(state);
      const provider = usableProvider(sms.provider, deps.config.env === 'production');
      const destination = checkDestination(sms, phone, now);
      const held = range[0]?.held_until ? new Date(range[0].held_until) : null;
      if (held && held > now) throw heldError(destination.prefix, held, now);
      const settings = settingsOf(storedAppSettingsOf(stored).general);
      const { n, oldest } = recent[0]!;
      if (n >= settings.sendsPer10Minutes) {
        const retryAfter = Math.max(1, Math.ceil((new Date(oldest!).getTime() + SEND_WINDOW_MS - now.getTime()) / 1000));
        throw new ApiError(429, 'TOO_MANY_SENDS', `At most ${settings.sendsPer10Minutes} passcodes can be sent to one number in 10 minutes. Try again in ${retryAfter} seconds.`, undefined, { 'Retry-After': String(retryAfter) });
      }
      let row = pending[0];
      if (row) row = await expireIfDue(trx, accountId, row, now);
      const counting = sms.pumpingGuard && range[0] ? await countingOf(trx, accountId, destination, range[0], sms.rules, now) : null;

      let code: string;
      let write;
      const created = !(row && row.status === 'pending');
      if (row && !created) {
        code = decryptSecret(row.code_encrypted, deps.config.encryptionKey);
        write = sql<Row>`update otp_verifications set sends = sends + 1 where id = ${row.id} returning *`;
      } else {
        // the id is made here, not asked of the database: the code's HMAC needs it before the insert
        const id = crypto.randomUUID();
        code = String(crypto.randomInt(0, 10 ** settings.codeLength)).padStart(settings.codeLength, '0');
        write = sql<Row>`insert into otp_verifications (id, account_id, phone_number, customer_ref, agent, status, code_hmac, code_encrypted, sends, max_checks, created_at, expires_at)
          values (${id}, ${accountId}, ${phone}, ${body.customerRef ?? null}, ${body.agent ?? (caller.kind === 'api' ? null : caller.label)}, 'pending',
                  ${codeHmac(deps.config.encryptionKey, id, code)}, ${encryptSecret(code, deps.config.encryptionKey)}, 1, ${settings.maxChecks},
                  ${now}, ${new Date(now.getTime() + settings.validityMinutes * 60_000)})
          returning *`;
      }
      // the send is counted and its credit taken before the SMS goes out (given back if it fails),
      // so parallel sends cannot pass the free tier
      const [counts, written, , locked] = await measured(trx, 'otp.send.write', () => together(
        trx,
        counting ? countSend(accountId, destination, phone, counting, sms.rules, now) : NO_COUNT,
        write,
        sql`insert into otp_sends (account_id, phone_number, ts) values (${accountId}, ${phone}, ${now})`,
        lockBilling(accountId, OTP_APP),
      ));
      const trip = counting ? verdictOf(counts[0]!, counting, sms.rules) : null;
      if (trip) throw new RangeToHold(destination, trip, sms.rules);
      refuseUnusable(OTP_APP, locked[0], 1);
      row = written[0]!;
      await later(trx, chargeStatement({ accountId, app: OTP_APP, taskId: row.id, kind: `sms-${row.sends}`, now }));
      const ttl = Math.max(1, Math.round((new Date(row.expires_at).getTime() - now.getTime()) / 60_000));
      const language = languageChoice(body.locale, customerLocaleOf(locale));
      const text = renderTemplate(templateText(OTP_APP, OTP_TEMPLATES[0]!, storedAppSettingsOf(stored).templates, smsLocaleOf(language)), { code, company: company[0]?.name ?? '', ttl: String(ttl) });
      if (delivery || provider === DEV_OUTBOX_PROVIDER) {
        // nothing leaves the outbox: the message is sent once it is stored, in this transaction;
        // a journey's step hands its text to the journey, whose one SMS carries it
        if (delivery) delivery.smsText = text;
        else await later(trx, outboxInsert(trx, accountId, phone, text, now));
        await recordSent(trx, accountId, row, language, caller, now);
        return { row, text, created, language, twilio: null };
      }
      return { row, text, created, language, twilio: twilioSettingsOf(sms) };
    });
  } catch (err) {
    if (!(err instanceof RangeToHold)) throw err;
    const until = await deps.db.tenant(accountId, (trx) => measured(trx, 'otp.send.hold', () => holdRange(trx, accountId, err.number, err.trip.reason, err.rules, now, null, err.trip.scope)));
    throw heldError(holdKey(err.number, err.trip.scope), until, now);
  }
  if (!prepared.twilio) return { verification: verificationOf(prepared.row), created: prepared.created };

  let failure: string | null = null;
  try {
    await sendSms(deps, accountId, phone, prepared.text, prepared.twilio);
  } catch (err) {
    // configuration problems are the caller's to fix (409 and such): nothing was sent
    if (err instanceof ApiError && err.code === 'SMS_NOT_CONFIGURED') {
      await deps.db.tenant(accountId, async (trx) => {
        await releaseCredits(trx, { accountId, app: OTP_APP, taskId: prepared.row.id, kind: `sms-${prepared.row.sends}`, now });
        await sql`update otp_verifications set sends = sends - 1 where id = ${prepared.row.id}`.execute(trx);
      });
      throw err;
    }
    failure = err instanceof ApiError ? err.message : 'The SMS provider could not be reached.';
    if (!(err instanceof ApiError)) deps.log('OTP SMS failed', err);
  }

  const done = await deps.db.tenant(accountId, (trx) => measured(trx, 'otp.send.record', async () => {
    let row = await lockRow(trx, accountId, prepared.row.id);
    if (failure === null) {
      await recordSent(trx, accountId, row, prepared.language, caller, now);
      return row;
    }
    await releaseCredits(trx, { accountId, app: OTP_APP, taskId: row.id, kind: `sms-${prepared.row.sends}`, now });
    row = (await sql<Row>`update otp_verifications set sends = sends - 1 where id = ${row.id} returning *`.execute(trx)).rows[0]!;
    if (row.status === 'pending' && row.sends === 0) {
      row = await end(trx, accountId, row, 'failed', now, caller, { reason: failure, description: `Passcode not delivered: ${failure}`, eventType: 'otp.failed' });
    } else {
      await addTaskEvent(trx, accountId, { app: OTP_APP, taskId: row.id, ts: now, type: 'send_failed', description: `Resend not delivered: ${failure}`, caller });
    }
    await audit(trx, accountId, caller.actor, { namespace: OTP_APP, description: `Passcode to ${maskPhone(row.phone_number)} not delivered: ${failure}`, event: 'otp.send-failed', at: now });
    return row;
  }));
  return { verification: verificationOf(done), created: prepared.created };
}

/** A delivered send: the timeline, the audit entry and the webhook event (all sent with the COMMIT). */
async function recordSent(trx: Trx, accountId: string, row: Row, language: LanguageChoice, caller: Caller, now: Date): Promise<void> {
  const masked = maskPhone(row.phone_number);
  const description = row.sends === 1 ? `Passcode sent to ${masked}` : `Passcode sent again to ${masked} (send ${row.sends})`;
  await addTaskEvent(trx, accountId, { app: OTP_APP, taskId: row.id, ts: now, type: 'sent', description, caller });
  if (row.sends === 1) await addTaskEvent(trx, accountId, { app: OTP_APP, taskId: row.id, ts: now, caller, ...languageEvent(language, false) });
  await audit(trx, accountId, caller.actor, { namespace: OTP_APP, description, event: 'otp.sent', at: now });
  await enqueueWebhookEvent(trx, accountId, OTP_APP, 'otp.sent', eventData(row), now);
}

/** A v1 call that names no agent acts for the agent the verification was sent by. */
function actingFor(caller: Caller, row: Row): Caller {
  return caller.kind === 'api' && caller.label === API_KEY_ACTOR && row.agent ? apiCaller(row.agent, caller.ip, caller.userAgent) : caller;
}

/** Checks a code: approved, pending (attempts left), max_attempts_reached, expired or canceled. */
export async function checkPasscode(deps: OtpDeps, accountId: string, id: string, code: string, caller: Caller): Promise<OtpVerification> {
  const now = deps.now();
  return deps.db.tenant(accountId, async (trx) => {
    let row = await expireIfDue(trx, accountId, await lockRow(trx, accountId, id), now);
    if (row.status !== 'pending') return verificationOf(row);
    caller = actingFor(caller, row);
    row = (await sql<Row>`update otp_verifications set checks = checks + 1 where id = ${row.id} returning *`.execute(trx)).rows[0]!;
    const expected = Buffer.from(row.code_hmac, 'hex');
    const given = Buffer.from(codeHmac(deps.config.encryptionKey, row.id, code), 'hex');
    const masked = maskPhone(row.phone_number);
    if (crypto.timingSafeEqual(expected, given)) {
      row = await end(trx, accountId, row, 'approved', now, caller, { description: 'Code correct: caller verified', eventType: 'otp.verified' });
      await audit(trx, accountId, caller.actor, { namespace: OTP_APP, description: `Verified ${masked} with a passcode`, event: 'otp.verified', at: now });
    } else if (row.checks >= row.max_checks) {
      row = await end(trx, accountId, row, 'max_attempts_reached', now, caller, { description: `Wrong code: all ${row.max_checks} attempts used`, eventType: 'otp.failed' });
      await audit(trx, accountId, caller.actor, { namespace: OTP_APP, description: `Passcode for ${masked} failed: all attempts used`, event: 'otp.failed', at: now });
    } else {
      await addTaskEvent(trx, accountId, { app: OTP_APP, taskId: row.id, ts: now, type: 'wrong_code', description: `Wrong code (${row.max_checks - row.checks} attempts left)`, caller });
      await audit(trx, accountId, caller.actor, { namespace: OTP_APP, description: `Wrong passcode for ${masked}`, event: 'otp.checked', at: now });
    }
    return verificationOf(row);
  });
}

export async function getVerification(deps: OtpDeps, accountId: string, id: string): Promise<OtpVerification> {
  const now = deps.now();
  return deps.db.tenant(accountId, async (trx) => verificationOf(await expireIfDue(trx, accountId, await lockRow(trx, accountId, id), now)));
}

export async function cancelVerification(deps: OtpDeps, accountId: string, id: string, caller: Caller): Promise<OtpVerification> {
  const now = deps.now();
  return deps.db.tenant(accountId, async (trx) => {
    let row = await expireIfDue(trx, accountId, await lockRow(trx, accountId, id), now);
    if (row.status !== 'pending') return verificationOf(row);
    caller = actingFor(caller, row);
    row = await end(trx, accountId, row, 'canceled', now, caller, { description: 'Verification canceled' });
    await audit(trx, accountId, caller.actor, { namespace: OTP_APP, description: `Canceled the passcode for ${maskPhone(row.phone_number)}`, event: 'otp.canceled', at: now });
    return verificationOf(row);
  });
}

/**
 * The durable expiry sweep: pending verifications past their time become expired (result
 * timeout, otp.expired), a batch at a time, whichever process gets there first.
 */
export async function expireDueVerifications(deps: OtpDeps, limit = 200): Promise<number> {
  const now = deps.now();
  const due = await deps.db.system((trx) =>
    sql<{ id: string; account_id: string }>`select id, account_id from otp_verifications where status = 'pending' and expires_at <= ${now}
      order by expires_at limit ${limit}`.execute(trx),
  );
  for (const d of due.rows) {
    await deps.db.tenant(d.account_id, async (trx) => {
      const row = (await sql<Row>`select * from otp_verifications where id = ${d.id} and status = 'pending' for update skip locked`.execute(trx)).rows[0];
      if (row) await expireIfDue(trx, d.account_id, row, now);
    });
  }
  return due.rows.length;
}
