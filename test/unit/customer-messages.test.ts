import { describe, expect, it } from 'vitest';
import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { CATALOGUES, translate } from '../../api/customer-pages/i18n/index';
import { certificateLine } from '../../api/customer-pages/certificate-text';
import { en } from '../../api/customer-pages/i18n/en';
import { LOCALES, negotiateLocale } from '../../api/contract/locales';
import { SMS_TRANSLATIONS } from '../../api/contract/sms-translations';
import { APP_MODULES_TEMPLATES } from './customer-messages-templates';

// The callers' catalogues: every key in every language, every message parses as ICU
// MessageFormat with the same placeholders as English, and no language is English in disguise.

/** The argument names a message uses, nested plural/select branches included. */
function argumentsOf(elements: MessageFormatElement[], into = new Set<string>()): Set<string> {
  for (const el of elements) {
    if (el.type === TYPE.argument || el.type === TYPE.number || el.type === TYPE.date || el.type === TYPE.time) into.add(el.value);
    if (el.type === TYPE.plural || el.type === TYPE.select) {
      into.add(el.value);
      for (const option of Object.values(el.options)) argumentsOf(option.value, into);
    }
    if (el.type === TYPE.tag) argumentsOf(el.children, into);
  }
  return into;
}

const keys = Object.keys(en) as (keyof typeof en)[];

describe('customer page messages', () => {
  it.each(LOCALES)('%s has every key of the English catalogue and no other', (locale) => {
    expect(Object.keys(CATALOGUES[locale]).sort()).toEqual([...keys].sort());
  });

  it.each(LOCALES)('every %s message parses and uses exactly the placeholders of the English one', (locale) => {
    for (const key of keys) {
      const message = CATALOGUES[locale][key];
      expect(message.trim(), `${locale} ${key}`).not.toBe('');
      const args = argumentsOf(parse(message));
      expect([...args].sort(), `${locale} ${key}`).toEqual([...argumentsOf(parse(en[key]))].sort());
    }
  });

  it.each(LOCALES.filter((l) => l !== 'en'))('%s is translated: no message is left as its English text', (locale) => {
    // a label may be the same word in both (German "Name"), never a sentence
    const words = (m: string) => m.replace(/\{[^{}]*\}/g, '').trim().split(/\s+/).filter(Boolean).length;
    const same = keys.filter((k) => CATALOGUES[locale][k] === en[k] && words(en[k]) > 1);
    expect(same).toEqual([]);
  });

  it('counts follow each language\'s plural rules', () => {
    expect(translate('en', 'eform.correct', { n: 1 })).toBe('Please correct the answer marked below.');
    expect(translate('en', 'eform.correct', { n: 3 })).toBe('Please correct the 3 answers marked below.');
    expect(translate('ar', 'eform.correct', { n: 2 })).toBe('يُرجى تصحيح الإجابتين المحددتين أدناه.');
    expect(translate('fr', 'eform.correct', { n: 2 })).toBe('Veuillez corriger les 2 réponses signalées ci-dessous.');
  });

  it('a browser\'s Accept-Language picks the closest of our languages', () => {
    expect(negotiateLocale('de-CH,de;q=0.9,en;q=0.8')).toBe('de');
    expect(negotiateLocale('pt-PT,pt;q=0.9')).toBe('pt-BR');
    expect(negotiateLocale('ko-KR, ja;q=0.5')).toBe('ja');
    expect(negotiateLocale('en;q=0.1, ar;q=0.9')).toBe('ar');
    expect(negotiateLocale('ko-KR')).toBeNull();
    expect(negotiateLocale(undefined)).toBeNull();
  });
});

describe('the certificate of completion', () => {
  it("is in the signer's language with English beside it, and English alone for an English signer", () => {
    expect(certificateLine('es', 'cert.title')).toBe('Certificado de finalización / Certificate of completion');
    expect(certificateLine('ja', 'cert.document', { name: '契約書', version: 2 })).toBe('書類：契約書（バージョン2） / Document: 契約書 (version 2)');
    expect(certificateLine('en', 'cert.title')).toBe('Certificate of completion');
  });
});

describe('SMS texts', () => {
  it('every template of every app has a text in every language, with the same placeholders', () => {
    const placeholders = (s: string) => [...s.matchAll(/\{\{\s*([a-z]+)\s*\}\}/g)].map((m) => m[1]).sort();
    for (const { app, key, defaultBody } of APP_MODULES_TEMPLATES) {
      const translations = SMS_TRANSLATIONS[`${app}.${key}`];
      expect(translations, `${app}.${key}`).toBeDefined();
      for (const locale of LOCALES.filter((l) => l !== 'en')) {
        const text = translations![locale as Exclude<typeof locale, 'en'>];
        expect(placeholders(text), `${app}.${key} ${locale}`).toEqual(placeholders(defaultBody));
        expect(text).not.toBe(defaultBody);
      }
    }
  });
});
