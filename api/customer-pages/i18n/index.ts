import { IntlMessageFormat } from 'intl-messageformat';
import type { Locale } from '../../contract/locales';
import { en, type Catalogue, type MessageKey } from './en';
import { es } from './es';
import { fr } from './fr';
import { de } from './de';
import { ptBR } from './pt-BR';
import { ar } from './ar';
import { ja } from './ja';

// What callers read, by language: one catalogue per language (ICU MessageFormat), formatted on
// the server, so a page carries only its own language's text and no message library at all.

export type { MessageKey } from './en';
export const CATALOGUES: Record<Locale, Catalogue> = { en, es, fr, de, 'pt-BR': ptBR, ar, ja };

export type MessageValues = Record<string, string | number | Date>;
export type Translate = (key: MessageKey, values?: MessageValues) => string;

const compiled = new Map<string, IntlMessageFormat>();

function formatter(locale: Locale, key: MessageKey): IntlMessageFormat {
  const id = `${locale}\u0000${key}`;
  let f = compiled.get(id);
  if (!f) {
    f = new IntlMessageFormat(CATALOGUES[locale][key], locale);
    compiled.set(id, f);
  }
  return f;
}

// A message with nothing to fill in reads the same every time: formatted once.
const plain = new Map<string, string>();

/** The message `key` in `locale`, its {placeholders} filled (plurals by the language's rules). */
export function translate(locale: Locale, key: MessageKey, values?: MessageValues): string {
  if (values) return String(formatter(locale, key).format(values));
  const id = `${locale}\u0000${key}`;
  let text = plain.get(id);
  if (text === undefined) plain.set(id, (text = String(formatter(locale, key).format())));
  return text;
}

export function translator(locale: Locale): Translate {
  return (key, values) => translate(locale, key, values);
}
