import { sql } from 'kysely';
import type { Deps } from '../../deps';
import type { Trx } from '../../db/index';
import { ApiError } from '../../http/errors';
import { sendSms } from '../../integrations/twilio';
import {
  checkDestination,
  countingOf,
  countSend,
  heldError,
  holdKey,
  holdRange,
  lockRange,
  smsAccountState,
  smsStateOf,
  smsStateQuery,
  verdictOf,
  type RangeRow,
  type SmsAccountState,
  type SmsProvider,
  type Trip,
} from '../../sms-guard/service';
import { classifyNumber, type NumberClass } from '../../sms-guard/classify';
import type { SmsGuardRules } from '../../contract/sms-guard';
import type { AppId } from '../../contract/apps';
import { billingQuery, chargeStatement, lockBilling, refuseUnusable, releaseCredits } from '../../usage/credits';
import { later, together, type RowsOfAll, type Statement } from '../../db/batch';
import { DEV_OUTBOX_PROVIDER } from '../../contract/sms';
import type { Placeholder, SmsTemplate } from '../../contract/platform';
import { LOCALES } from '../../contract/locales';
import { builtInSmsText } from '../../contract/sms-translations';
import { templateKeyFor } from '../../customer-pages/language';
import { measured, metrics } from '../../observability/metrics';

// How apps send SMS: through the account's SMS Configuration (Twilio, or outside production the
// development outbox, which stores instead of sending), with the app's templates.

export type TemplateDef = {
  key: string;
  label: string;
  defaultBody: string;
  placeholders: readonly Placeholder[];
  required: readonly Placeholder[];
};

export const SMS_NOT_CONFIGURED_MESSAGE = 'No SMS provider is connected. Connect one under Settings > SMS Configuration.';

/**
 * 409 SMS_NOT_CONFIGURED unless a provider usable in this environment is connected. Given the
 * destination, also the fraud guard's checks that need no counting (number type, country, a held
 * range), so an app refuses before it writes anything: 422 NUMBER_TYPE_NOT_ALLOWED,
 * 403 COUNTRY_NOT_ALLOWED, 429 SMS_PUMPING_SUSPECTED.
 */
export async function assertSmsConfigured(
  trx: Trx,
  accountId: string,
  production: boolean,
  to?: string,
  now = new Date(),
): Promise<'twilio' | typeof DEV_OUTBOX_PROVIDER> {
  const state = await smsAccountState(trx, accountId, to ? classifyNumber(to) : null, now);
  const provider = usableProvider(state.provider, production);
  if (to) checkDestination(state, to, now);
  return provider;
}

/** The provider to send with: 409 SMS_NOT_CONFIGURED when none is usable in this environment. */
export function usableProvider(provider: SmsProvider | null, production: boolean): SmsProvider {
  if (!provider || (provider === DEV_OUTBOX_PROVIDER && production))
    throw new ApiError(409, 'SMS_NOT_CONFIGURED', SMS_NOT_CONFIGURED_MESSAGE);
  return provider;
}

/** The development outbox's copy of a message (what it keeps instead of sending). */
export function outboxInsert(trx: Trx, accountId: string, to: string, body: string, now: Date) {
  metrics?.sms.inc({ outcome: 'sent', reason: 'outbox' });
  return trx.insertInto('dev_sms_outbox').values({ account_id: accountId, to_number: to, body, created_at: now }).returning('id');
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

// when the number is not one (checkDestination refuses it), there is no range to lock; when no
// app pays for the message, no billing row to read
const NO_RANGE = sql<RangeRow>`select null::timestamptz as held_until where false`;
const NO_COUNT = sql<Parameters<typeof verdictOf>[0]>`select 0 as last_hour where false`;
const NO_BILLING = sql<{ status: string; credits: number; free_tier: number }>`select null as status where false`;

/** How a message went: sent (in the send's transaction, or after it), or not, and why in words. */
export type SmsOutcome =
  | { sent: true; provider: SmsProvider; id: string | null; afterCommit: boolean }
  | { sent: false; failure: string; error: unknown };

/** What an app's `prepare` answers: the message, its credit, the statements that write its task. */
export type SmsTask<W extends readonly Statement<unknown>[], P> = {
  text: string;
  /** the credit of `app` the message takes, once per task and kind (given back if it is not sent) */
  credit?: { taskId: string; kind: string };
  /** the task's writes, sent in one message with the guard's count and the billing row's lock */
  writes?: W;
  /** what `record` needs of the task */
  state: P;
};

export type SmsSend<S extends readonly Statement<unknown>[], W extends readonly Statement<unknown>[], P, R> = {
  /** the app the message is for: its billing admits the send and pays for it; null for a message no app pays for */
  app: AppId | null;
  to: string;
  /** the trace span's prefix (`otp.send` gives `otp.send.read` and `otp.send.write`) */
  span?: string;
  /** the app's own reads, sent in one message with the door's (billing, SMS state, the range) */
  reads?: (trx: Trx) => S;
  /**
   * A journey's step: the journey sends one SMS for all its steps (through this door, where it is
   * counted), so the step's message is handed to it instead of sent, and not counted twice.
   */
  handOff?: (text: string) => void;
  /** After the send is admitted (app usable, provider, destination, no hold): makes the task and its message. */
  prepare: (trx: Trx, rows: RowsOfAll<S>, admitted: { provider: SmsProvider; now: Date }) => Promise<SmsTask<W, P>>;
  /**
   * Records how the send went: in the send's transaction when the message is stored (development
   * outbox) or handed to a journey, else in a transaction of its own after Twilio answered (the
   * credit already given back if it was not sent). Without it the door answers the provider and
   * the message's id, and throws when it was not sent.
   */
  record?: (trx: Trx, state: P, written: RowsOfAll<W>, outcome: SmsOutcome) => Promise<R>;
};

export type SmsSent = { provider: string; id: string };

/**
 * The one door every app's SMS goes through. One tenant transaction admits the send (the app's
 * billing row, the provider, the number's type and country, a hold on its range: each refusal
 * with its code, before anything is written), lets the app make its task (`prepare`), counts the
 * send by the pumping rules and takes the app's credit under the billing row's lock (so parallel
 * sends cannot pass the free tier); the development outbox stores the message and `record` runs
 * in that same transaction. Through Twilio the message leaves after it commits (a slow provider
 * must not hold a connection), and `record` runs in a second transaction, after the credit of a
 * message that did not go out is given back.
 *
 * The door's reads travel with the app's in one message, its count and lock with the app's
 * writes in a second, its credit and outbox row with the COMMIT (api/db/batch.ts): the busiest
 * sender (One-Time Passcode) makes its whole send in three round trips.
 *
 * A send that trips a pumping rule rolls everything back (no task, credit or count), and the
 * range is held in a transaction of its own: 429 SMS_PUMPING_SUSPECTED.
 */
export async function sendAppSms<
  S extends readonly Statement<unknown>[],
  W extends readonly Statement<unknown>[],
  P,
  R = SmsSent,
>(deps: Pick<Deps, 'db' | 'config' | 'now' | 'log'>, accountId: string, send: SmsSend<S, W, P, R>): Promise<R> {
  const now = deps.now();
  const number = classifyNumber(send.to);
  const span = send.span ?? 'sms.send';
  let first;
  try {
    first = await deps.db.tenant(accountId, async (trx) => {
      const [billing, state, range, ...rows] = (await measured(trx, `${span}.read`, () =>
        together(
          trx,
          send.app ? billingQuery(trx, accountId, send.app) : NO_BILLING,
          smsStateQuery(accountId, number?.prefix ?? null, now, number?.country ?? null),
          number ? lockRange(accountId, number) : NO_RANGE,
          ...((send.reads?.(trx) ?? []) as unknown as Statement<unknown>[]),
        ),
      )) as unknown as [
        { status: string; credits: number; free_tier: number }[],
        Parameters<typeof smsStateOf>[0],
        RangeRow[],
        ...unknown[][],
      ];
      if (send.app) refuseUnusable(send.app, billing[0], 1);
      const sms = smsStateOf(state);
      const provider = usableProvider(sms.provider, deps.config.env === 'production');
      const destination = checkDestination(sms, send.to, now);
      const held = range[0]?.held_until ? new Date(range[0].held_until) : null;
      if (held && held > now) throw heldError(destination.prefix, held, now);

      const task = await send.prepare(trx, rows as unknown as RowsOfAll<S>, { provider, now });
      const counting =
        sms.pumpingGuard && range[0] && !send.handOff
          ? await countingOf(trx, accountId, destination, range[0], sms.rules, now)
          : null;
      const credit =
        send.app && task.credit ? { accountId, app: send.app, taskId: task.credit.taskId, kind: task.credit.kind, now } : null;
      const writes = (task.writes ?? []) as unknown as Statement<unknown>[];
      let written: unknown[][] = [];
      if (counting || credit || writes.length) {
        const answers = await measured(trx, `${span}.write`, () =>
          together(
            trx,
            counting ? countSend(accountId, destination, send.to, counting, sms.rules, now) : NO_COUNT,
            ...writes,
            credit ? lockBilling(accountId, credit.app) : NO_BILLING,
          ),
        );
        const trip = counting ? verdictOf(answers[0]![0] as Parameters<typeof verdictOf>[0], counting, sms.rules) : null;
        if (trip) throw new RangeToHold(destination, trip, sms.rules);
        written = answers.slice(1, -1);
        if (credit) {
          refuseUnusable(credit.app, answers.at(-1)![0] as { status: string; credits: number; free_tier: number } | undefined, 1);
          await later(trx, chargeStatement(credit));
        }
      }
      if (send.handOff || provider === DEV_OUTBOX_PROVIDER) {
        // nothing leaves the outbox: the message is sent once it is stored, in this transaction
        let id: string | null = null;
        if (send.handOff) send.handOff(task.text);
        else if (send.record) await later(trx, outboxInsert(trx, accountId, send.to, task.text, now));
        else id = (await outboxInsert(trx, accountId, send.to, task.text, now).executeTakeFirstOrThrow()).id;
        const outcome: SmsOutcome = { sent: true, provider, id, afterCommit: false };
        return {
          done: true as const,
          result: send.record ? await send.record(trx, task.state, written as RowsOfAll<W>, outcome) : ({ provider, id } as R),
        };
      }
      return { done: false as const, task, written, credit, settings: twilioSettingsOf(sms) };
    });
  } catch (err) {
    if (!(err instanceof RangeToHold)) throw err;
    const until = await deps.db.tenant(accountId, (trx) =>
      measured(trx, `${span}.hold`, () =>
        holdRange(trx, accountId, err.number, err.trip.reason, err.rules, now, null, err.trip.scope),
      ),
    );
    throw heldError(holdKey(err.number, err.trip.scope), until, now);
  }
  if (first.done) return first.result;

  const { task, written, credit, settings } = first;
  let outcome: SmsOutcome;
  try {
    const sent = await sendSms(deps, accountId, send.to, task.text, settings);
    outcome = { sent: true, provider: 'twilio', id: sent.sid, afterCommit: true };
  } catch (error) {
    if (!(error instanceof ApiError)) deps.log(`SMS of ${send.app ?? 'the account'} failed`, error);
    outcome = {
      sent: false,
      failure: error instanceof ApiError ? error.message : 'The SMS provider could not be reached.',
      error,
    };
  }
  if (!send.record) {
    if (!outcome.sent) throw outcome.error;
    return { provider: outcome.provider, id: outcome.id } as R;
  }
  const record = send.record;
  const result = await deps.db.tenant(accountId, (trx) =>
    measured(trx, `${span}.record`, async () => {
      if (!outcome.sent && credit) await releaseCredits(trx, credit);
      return record(trx, task.state, written as RowsOfAll<W>, outcome);
    }),
  );
  // a configuration problem is the caller's to fix: nothing was sent, the task has recorded it
  if (!outcome.sent && outcome.error instanceof ApiError && outcome.error.code === 'SMS_NOT_CONFIGURED') throw outcome.error;
  return result;
}

/** A message no app's task is for (a journey's SMS, a signed copy, a test): through the one door, answering where it went. */
export function sendAccountSms(
  deps: Pick<Deps, 'db' | 'config' | 'now' | 'log'>,
  accountId: string,
  to: string,
  body: string,
): Promise<SmsSent> {
  return sendAppSms(deps, accountId, { app: null, to, prepare: async () => ({ text: body, state: null }) });
}

/** What Twilio's send needs of the account's state: its credentials and sender number. */
export function twilioSettingsOf(state: SmsAccountState) {
  return { account_sid: state.accountSid, auth_token_enc: state.authTokenEnc, phone_number: state.senderNumber };
}

/** {{name}} placeholders, filled; unknown names stay as typed (templates are validated on save). */
export function renderTemplate(body: string, values: Partial<Record<Placeholder, string>>): string {
  return body.replace(/\{\{\s*([a-z]+)\s*\}\}/g, (whole, name: string) => values[name as Placeholder] ?? whole);
}

export function placeholdersIn(body: string): string[] {
  return [...body.matchAll(/\{\{\s*([a-z]+)\s*\}\}/g)].map((m) => m[1]!);
}

/** Problems of a template body, by message, or null when it is fine. */
export function templateProblem(def: TemplateDef, body: string): string | null {
  const used = placeholdersIn(body);
  const unknown = used.find((p) => !(def.placeholders as readonly string[]).includes(p));
  if (unknown) return `{{${unknown}}} is not a placeholder of this message`;
  const missing = def.required.find((p) => !used.includes(p));
  if (missing) return `The message must contain {{${missing}}}`;
  return null;
}

export function templatesOf(app: string, defs: readonly TemplateDef[], stored: Record<string, string>): SmsTemplate[] {
  return defs.map((d) => ({
    key: d.key,
    label: d.label,
    body: stored[d.key] || d.defaultBody,
    defaultBody: d.defaultBody,
    placeholders: [...d.placeholders],
    required: [...d.required],
    translations: LOCALES.filter((l) => l !== 'en').map((locale) => {
      const own = stored[templateKeyFor(d.key, locale)];
      const builtIn = builtInSmsText(app, d.key, locale, d.defaultBody);
      return { locale, body: own || builtIn, defaultBody: builtIn, custom: Boolean(own) };
    }),
  }));
}

/** A stored template key (`passcode`, `passcode@es`): its template and language, or null. */
export function parseTemplateKey(defs: readonly TemplateDef[], key: string): { def: TemplateDef; locale: string } | null {
  const [name, locale = 'en', ...rest] = key.split('@');
  const def = defs.find((t) => t.key === name);
  if (!def || rest.length || !(LOCALES as readonly string[]).includes(locale)) return null;
  return { def, locale };
}

/** The company name that fills {{company}}: the branding name, else the account's name. */
export async function companyName(trx: Trx, accountId: string): Promise<string> {
  return (await companyNameQuery(accountId).execute(trx)).rows[0]?.name ?? '';
}

export function companyNameQuery(accountId: string) {
  return sql<{
    name: string;
  }>`select coalesce((select name from branding where account_id = ${accountId}), (select name from accounts where id = ${accountId})) as name`;
}
