import { sql } from 'kysely';
import type { Deps } from '../../deps';
import type { Trx } from '../../db/index';
import { ApiError } from '../../http/errors';
import { sendSms } from '../../integrations/twilio';
import { DEV_OUTBOX_PROVIDER } from '../../contract/sms';
import type { Placeholder, SmsTemplate } from '../../contract/platform';
import { LOCALES } from '../../contract/locales';
import { builtInSmsText } from '../../contract/sms-translations';
import { templateKeyFor } from '../../customer-pages/language';

// How apps send SMS: through the account's SMS Configuration (Twilio, or outside production the
// development outbox, which stores instead of sending), with the app's templates.

export type TemplateDef = { key: string; label: string; defaultBody: string; placeholders: readonly Placeholder[]; required: readonly Placeholder[] };

export const SMS_NOT_CONFIGURED_MESSAGE = 'No SMS provider is connected. Connect one under Settings > SMS Configuration.';

export async function smsProviderOf(trx: Trx, accountId: string): Promise<'twilio' | typeof DEV_OUTBOX_PROVIDER | null> {
  const row = await trx.selectFrom('sms_settings').select('provider').where('account_id', '=', accountId).executeTakeFirst();
  return row?.provider ?? null;
}

/** 409 SMS_NOT_CONFIGURED unless a provider usable in this environment is connected. */
export async function assertSmsConfigured(trx: Trx, accountId: string, production: boolean): Promise<'twilio' | typeof DEV_OUTBOX_PROVIDER> {
  const provider = await smsProviderOf(trx, accountId);
  if (!provider || (provider === DEV_OUTBOX_PROVIDER && production)) throw new ApiError(409, 'SMS_NOT_CONFIGURED', SMS_NOT_CONFIGURED_MESSAGE);
  return provider;
}

/** Sends one SMS (outside any transaction: a slow provider must not hold a connection). */
export async function sendAccountSms(deps: Pick<Deps, 'db' | 'config' | 'now'>, accountId: string, to: string, body: string): Promise<{ provider: string; id: string }> {
  const provider = await deps.db.tenant(accountId, (trx) => assertSmsConfigured(trx, accountId, deps.config.env === 'production'));
  if (provider === DEV_OUTBOX_PROVIDER) {
    const row = await deps.db.tenant(accountId, (trx) =>
      trx.insertInto('dev_sms_outbox').values({ account_id: accountId, to_number: to, body, created_at: deps.now() }).returning('id').executeTakeFirstOrThrow(),
    );
    return { provider, id: row.id };
  }
  const sent = await sendSms(deps, accountId, to, body);
  return { provider, id: sent.sid };
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
  const row = await sql<{ name: string }>`select coalesce((select name from branding where account_id = ${accountId}), (select name from accounts where id = ${accountId})) as name`.execute(trx);
  return row.rows[0]?.name ?? '';
}
