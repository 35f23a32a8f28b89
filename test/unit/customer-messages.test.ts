import { describe, expect, it } from 'vitest';
import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { CATALOGUES, translate, type MessageKey } from '../../api/customer-pages/i18n/index';
import {
  fieldProblem,
  possibleProblems,
  problemText,
  type FieldProblem,
  type FieldProblemCode,
} from '../../api/contract/logic/e-form-rules';
import { SIG_DEFAULT_SETTINGS } from '../../api/contract/apps/document-signature';
import { IDV_DOCUMENT_TYPES, IDV_SIDES } from '../../api/contract/apps/identity-verification';
import { IDV_PAGE_ERRORS } from '../../api/apps/identity-verification/customer-page';
import { IMAGE_REFUSALS } from '../../api/apps/identity-verification/images';
import type { SignerProblem } from '../../api/apps/document-signature/service';
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
    if (el.type === TYPE.argument || el.type === TYPE.number || el.type === TYPE.date || el.type === TYPE.time)
      into.add(el.value);
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
    const words = (m: string) =>
      m
        .replace(/\{[^{}]*\}/g, '')
        .trim()
        .split(/\s+/)
        .filter(Boolean).length;
    const same = keys.filter((k) => CATALOGUES[locale][k] === en[k] && words(en[k]) > 1);
    expect(same).toEqual([]);
  });

  it("counts follow each language's plural rules", () => {
    expect(translate('en', 'eform.correct', { n: 1 })).toBe('Please correct the answer marked below.');
    expect(translate('en', 'eform.correct', { n: 3 })).toBe('Please correct the 3 answers marked below.');
    expect(translate('ar', 'eform.correct', { n: 2 })).toBe('يُرجى تصحيح الإجابتين المحددتين أدناه.');
    expect(translate('fr', 'eform.correct', { n: 2 })).toBe('Veuillez corriger les 2 réponses signalées ci-dessous.');
  });

  it("a browser's Accept-Language picks the closest of our languages", () => {
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
    expect(certificateLine('ja', 'cert.document', { name: '契約書', version: 2 })).toBe(
      '書類：契約書（バージョン2） / Document: 契約書 (version 2)',
    );
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

describe('keys the pages build from codes', () => {
  // a page words a code it is handed (a form's problem, a signer's problem, an ID photo's
  // refusal, a passkey refusal) by a key made from it: each such key must be in the catalogue,
  // so a new code without its words fails here rather than showing a raw key to a caller
  const has = (key: string) => Object.hasOwn(en, key);

  it('every e-form problem has its words, and the English ones are what the console and API say', () => {
    const samples: FieldProblem[] = [
      { code: 'required' },
      { code: 'requiredConsent' },
      { code: 'requiredFile' },
      { code: 'requiredChoice' },
      { code: 'options' },
      { code: 'email' },
      { code: 'phone' },
      { code: 'number' },
      { code: 'date' },
      { code: 'fileSize', max: 10 },
      { code: 'fileType', types: '.pdf, image/*' },
      { code: 'minChoices', n: 2 },
      { code: 'maxChoices', n: 3 },
      { code: 'min', n: 5 },
      { code: 'max', n: 9 },
      { code: 'minLength', n: 4 },
      { code: 'maxLength', n: 40 },
      { code: 'minDate', date: '2026-01-01' },
      { code: 'maxDate', date: '2026-12-31' },
      { code: 'pattern', message: '' },
    ];
    // every code of the union is sampled (the type lists them; this keeps the sample whole)
    const codes: Record<FieldProblemCode, true> = Object.fromEntries(samples.map((p) => [p.code, true])) as Record<
      FieldProblemCode,
      true
    >;
    expect(Object.keys(codes)).toHaveLength(20);
    for (const p of samples) {
      const key = `eform.problem.${p.code}`;
      expect(has(key), key).toBe(true);
      const values = Object.fromEntries(Object.entries(p).filter(([k]) => k !== 'code' && k !== 'message'));
      expect(translate('en', key as MessageKey, values)).toBe(problemText(p));
    }
  });

  it('a field can only have problems its page wrote words for', () => {
    const field = { id: 'n', type: 'number' as const, label: 'Age', required: true, validation: { min: 18, max: 99 } };
    const possible = possibleProblems(field).map((p) => p.code);
    for (const value of ['', 'x', '3', '120']) {
      const p = fieldProblem(field, value, true);
      expect(p && possible.includes(p.code), `${value} → ${p?.code}`).toBe(true);
    }
  });

  it('every signer problem, ID photo refusal, document, side and passkey refusal has its words', () => {
    for (const code of [
      'drawUnreadable',
      'signRequired',
      'tooLong',
      'tick',
      'required',
      'consent',
      'reason',
    ] satisfies SignerProblem['code'][])
      expect(has(`sig.problem.${code}`), code).toBe(true);
    for (const code of IDV_PAGE_ERRORS) expect(has(`idv.error.${code}`), code).toBe(true);
    for (const code of Object.keys(IMAGE_REFUSALS)) expect(IDV_PAGE_ERRORS as readonly string[], code).toContain(code);
    for (const d of IDV_DOCUMENT_TYPES) expect(has(`idv.doc.${d.key}`), d.key).toBe(true);
    for (const side of IDV_SIDES)
      for (const k of ['side', 'hint', 'send', 'replace']) expect(has(`idv.${k}.${side}`), `${k}.${side}`).toBe(true);
    for (const reason of ['expired', 'used', 'revoked', 'unknown']) expect(has(`passkey.error.${reason}`), reason).toBe(true);
  });

  it('the built-in consent text is translated, and its English is the default the account starts with', () => {
    expect(translate('en', 'sig.consent')).toBe(SIG_DEFAULT_SETTINGS.consentText);
  });

  it('a message keeps a literal < and > (the MRZ hint, the iPhone settings path)', () => {
    expect(translate('en', 'idv.hint.back')).toContain('letters and < at the bottom');
    expect(translate('de', 'idv.error.IMAGE_HEIC')).toContain('Einstellungen > Kamera > Formate');
  });
});
