import * as v from 'valibot';

// The languages of what callers see: customer pages, SMS texts and the sealed PDF's certificate.
// The console itself is English. A locale here is a BCP 47 tag the pages set as <html lang>.

export const LOCALES = ['en', 'es', 'fr', 'de', 'pt-BR', 'ar', 'ja'] as const;
export type Locale = (typeof LOCALES)[number];

/** Each language by its own name (what a caller looks for in a language switcher). */
export const LOCALE_NAMES: Record<Locale, string> = {
  en: 'English',
  es: 'Español',
  fr: 'Français',
  de: 'Deutsch',
  'pt-BR': 'Português (Brasil)',
  ar: 'العربية',
  ja: '日本語',
};

/** Each language's name in English (the console's timeline and pickers). */
export const LOCALE_ENGLISH_NAMES: Record<Locale, string> = {
  en: 'English',
  es: 'Spanish',
  fr: 'French',
  de: 'German',
  'pt-BR': 'Portuguese (Brazil)',
  ar: 'Arabic',
  ja: 'Japanese',
};

export const DEFAULT_LOCALE: Locale = 'en';
export const isLocale = (value: unknown): value is Locale =>
  typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
export const isRtl = (locale: Locale) => locale === 'ar';

export const LOCALE_MESSAGE = `locale must be one of ${LOCALES.join(', ')}`;
export const LocaleSchema = v.picklist(LOCALES, LOCALE_MESSAGE);

/** `locale` of a send request: the caller's language; absent or null means the account's default. */
export const OptionalLocaleSchema = v.optional(v.nullable(LocaleSchema));

/**
 * The best of our languages for an Accept-Language header (q-weighted; `pt` and `pt-PT` take
 * Brazilian Portuguese, the only Portuguese we have), or null when none matches.
 */
export function negotiateLocale(acceptLanguage: string | null | undefined): Locale | null {
  if (!acceptLanguage) return null;
  const ranges = acceptLanguage
    .split(',')
    .map((part, i) => {
      const [tag, ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      return { tag: (tag ?? '').trim().toLowerCase(), q: q ? Number(q.slice(2)) || 0 : 1, i };
    })
    .filter((r) => r.tag && r.tag !== '*' && r.q > 0)
    .sort((a, b) => b.q - a.q || a.i - b.i);
  for (const { tag } of ranges) {
    const exact = LOCALES.find((l) => l.toLowerCase() === tag);
    if (exact) return exact;
    const primary = tag.split('-')[0];
    const byLanguage = LOCALES.find((l) => l.split('-')[0]!.toLowerCase() === primary);
    if (byLanguage) return byLanguage;
  }
  return null;
}

/**
 * GET/PUT /api/customer-language: "Customers' default language", the language of customer pages
 * and SMS texts when the agent picks none; null lets each caller's browser decide (SMS: English).
 */
export const CustomerLanguageSchema = v.object({ locale: v.nullable(LocaleSchema) });
export type CustomerLanguage = v.InferOutput<typeof CustomerLanguageSchema>;
