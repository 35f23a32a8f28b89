import { sql } from 'kysely';
import type { Deps } from '../../deps';
import type { Trx } from '../../db/index';
import { ApiError } from '../../http/errors';
import { sendSms } from '../../integrations/twilio';
import { admitSend, checkDestination, heldError, smsAccountState, type SmsAccountState, type SmsProvider } from '../../sms-guard/service';
import { classifyNumber } from '../../sms-guard/classify';
import { DEV_OUTBOX_PROVIDER } from '../../contract/sms';
import type { Placeholder, SmsTemplate } from '../../contract/platform';
import { LOCALES } from '../../contract/locales';
import { builtInSmsText } from '../../contract/sms-translations';
import { templateKeyFor } from '../../customer-pages/language';
import { metrics } from '../../observability/metrics';

// How apps send SMS: through the account's SMS Configuration (Twilio, or outside production the
// development outbox, which stores instead of sending), with the app's templates.

export type TemplateDef = { key: string; label: string; defaultBody: string; placeholders: readonly Placeholder[]; required: readonly Placeholder[] };

export const SMS_NOT_CONFIGURED_MESSAGE = 'No SMS provider is connected. Connect one under Settings > SMS Configuration.';

/**
 * 409 SMS_NOT_CONFIGURED unless a provider usable in this environment is connected. Given the
 * destination, also the fraud guard's checks that need no counting (number type, country, a held
 * range), so an app refuses before it writes anything: 422 NUMBER_TYPE_NOT_ALLOWED,
 * 403 COUNTRY_NOT_ALLOWED, 429 SMS_PUMPING_SUSPECTED.
 */
export async function assertSmsConfigured(trx: Trx, accountId: string, production: boolean, to?: string, now = new Date()): Promise<'twilio' | typeof DEV_OUTBOX_PROVIDER> {
  const state = await smsAccountState(trx, accountId, to ? classifyNumber(to) : null, now);
  const provider = usableProvider(state.provider, production);
  if (to) checkDestination(state, to, now);
  return provider;
}

/** The provider to send with: 409 SMS_NOT_CONFIGURED when none is usable in this environment. */
export function usableProvider(provider: SmsProvider | null, production: boolean): SmsProvider {
  if (!provider || (provider === DEV_OUTBOX_PROVIDER && production)) throw new ApiError(409, 'SMS_NOT_CONFIGURED', SMS_NOT_CONFIGURED_MESSAGE);
  return provider;
}

/** The development outbox's copy of a message (what it keeps instead of sending). */
export function outboxInsert(trx: Trx, accountId: string, to: string, body: string, now: Date) {
  metrics?.sms.inc({ outcome: 'sent', reason: 'outbox' });
  return trx.insertInto('dev_sms_outbox').values({ account_id: accountId, to_number: to, body, created_at: now }).returning('id');
}

/**
 * Sends one SMS: the one door every app's messages go through. One transaction reads the
 * provider, its credentials and the guard's settings, checks the destination, counts the send by
 * the pumping rules (a range that trips them is held: this send is not made) and, for the
 * development outbox, stores the message. Twilio is called after it commits: a slow provider must
 * not hold a connection. (One-Time Passcode, the busiest sender, makes the same steps inside its
 * own transaction: api/apps/one-time-passcode/service.ts.)
 */
export async function sendAccountSms(deps: Pick<Deps, 'db' | 'config' | 'now'>, accountId: string, to: string, body: string): Promise<{ provider: string; id: string }> {
  const now = deps.now();
  const admitted = await deps.db.tenant(accountId, async (trx) => {
    const state = await smsAccountState(trx, accountId, classifyNumber(to), now);
    const provider = usableProvider(state.provider, deps.config.env === 'production');
    const number = checkDestination(state, to, now);
    const verdict = state.pumpingGuard ? await admitSend(trx, accountId, number, to, state.rules, now) : { held: null };
    if (verdict.held) return { held: verdict.held, prefix: verdict.scope } as const;
    if (provider === DEV_OUTBOX_PROVIDER) {
      const row = await outboxInsert(trx, accountId, to, body, now).executeTakeFirstOrThrow();
      return { held: null, provider, id: row.id } as const;
    }
    return { held: null, provider, settings: twilioSettingsOf(state) } as const;
  });
  if (admitted.held) throw heldError(admitted.prefix, admitted.held, now);
  if (!('settings' in admitted)) return { provider: admitted.provider, id: admitted.id };
  const sent = await sendSms(deps, accountId, to, body, admitted.settings);
  return { provider: admitted.provider, id: sent.sid };
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
  return sql<{ name: string }>`select coalesce((select name from branding where account_id = ${accountId}), (select name from accounts where id = ${accountId})) as name`;
}
