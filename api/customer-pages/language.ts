import { sql } from 'kysely';
import type { Trx } from '../db/index';
import { audit, type Actor } from '../audit';
import { DEFAULT_LOCALE, isLocale, LOCALE_ENGLISH_NAMES, type Locale } from '../contract/locales';
import { builtInSmsText } from '../contract/sms-translations';

// The caller's language when something is sent: the agent's choice, else the account's default
// ("Customers' default language"), else none, and the page follows the caller's browser. The
// choice is kept on the link (link_tokens.locale) and written in the task's timeline.

export type LanguageChoice = { locale: Locale | null; source: 'agent' | 'account' | null };

export async function accountCustomerLocale(trx: Trx, accountId: string): Promise<Locale | null> {
  return customerLocaleOf(await customerLocaleQuery(trx, accountId).execute());
}

export function customerLocaleQuery(trx: Trx, accountId: string) {
  return trx.selectFrom('accounts').select('customer_locale').where('id', '=', accountId);
}

export function customerLocaleOf(rows: { customer_locale: string | null }[]): Locale | null {
  const locale = rows[0]?.customer_locale;
  return isLocale(locale) ? locale : null;
}

/** The language to send in: `requested` (the agent's, from the console or /api/v1) wins. */
export async function chooseLanguage(trx: Trx, accountId: string, requested: Locale | null | undefined): Promise<LanguageChoice> {
  return languageChoice(requested, requested ? null : await accountCustomerLocale(trx, accountId));
}

/** The choice, given the account's own default (read only when no language was requested). */
export function languageChoice(requested: Locale | null | undefined, account: Locale | null): LanguageChoice {
  if (requested) return { locale: requested, source: 'agent' };
  return account ? { locale: account, source: 'account' } : { locale: null, source: null };
}

/** The language of a task's latest link (a resend keeps the language the task was sent in). */
export async function taskLanguage(trx: Trx, accountId: string, taskId: string): Promise<LanguageChoice> {
  const row = (
    await sql<{ locale: string | null }>`select locale from link_tokens where account_id = ${accountId} and task_id = ${taskId}
    order by created_at desc limit 1`.execute(trx)
  ).rows[0];
  return isLocale(row?.locale) ? { locale: row.locale, source: 'agent' } : { locale: null, source: null };
}

/** SMS have no browser to ask: without a choice they are in English. */
export const smsLocaleOf = (choice: LanguageChoice): Locale => choice.locale ?? DEFAULT_LOCALE;

/** The timeline's step for the choice, e.g. "Caller's language: Spanish (the agent's choice)". */
export function languageEvent(choice: LanguageChoice, withPage = true): { type: 'language'; description: string } {
  const description = !choice.locale
    ? withPage
      ? "Caller's language: their browser's (the SMS is in English)"
      : "Caller's language: English (none chosen)"
    : `Caller's language: ${LOCALE_ENGLISH_NAMES[choice.locale]} (${choice.source === 'agent' ? "the agent's choice" : "the account's default"})`;
  return { type: 'language', description };
}

/** The key an admin's own text of a template is stored under for a language. */
export const templateKeyFor = (key: string, locale: Locale) => (locale === DEFAULT_LOCALE ? key : `${key}@${locale}`);

/**
 * The text of one template in a language: the admin's own text for that language, else the
 * built-in translation (English: the admin's text, else the template's default).
 */
export function templateText(
  app: string,
  def: { key: string; defaultBody: string },
  stored: Record<string, string>,
  locale: Locale,
): string {
  return stored[templateKeyFor(def.key, locale)] || builtInSmsText(app, def.key, locale, def.defaultBody);
}

/** "Customers' default language" (Settings > Branding): null leaves it to each caller's browser. */
export async function setAccountCustomerLocale(trx: Trx, accountId: string, actor: Actor, locale: Locale | null): Promise<void> {
  await trx.updateTable('accounts').set({ customer_locale: locale }).where('id', '=', accountId).execute();
  await audit(trx, accountId, actor, {
    namespace: 'global',
    description: locale
      ? `Set customers' default language to ${LOCALE_ENGLISH_NAMES[locale]}`
      : "Set customers' default language to each caller's browser language",
    event: 'customer-language.updated',
  });
}
