import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { EmailSchema, text, urlSchema } from '../../../api/contract/common';
import { LoggingBodySchema } from '../../../api/contract/logging';
import { LookupUrlSchema } from '../../../api/contract/customer-lookup';

describe('e-mail addresses', () => {
  it.each([
    ["o'brien@example.ie", "o'brien@example.ie"],
    ['first.last@xn--mller-kva.de', 'first.last@xn--mller-kva.de'],
    ['ada+console@example.com', 'ada+console@example.com'],
    ["a!#$%&'*+/=?^_`{|}~-z@example.com", "a!#$%&'*+/=?^_`{|}~-z@example.com"],
    ['  Ada.Lovelace@Example.COM ', 'ada.lovelace@example.com'],
    ['x@sub.domain.example.co.uk', 'x@sub.domain.example.co.uk'],
    ['user@example.xn--p1ai', 'user@example.xn--p1ai'],
    [`${'a'.repeat(64)}@example.com`, `${'a'.repeat(64)}@example.com`],
  ])('accepts %s', (address, stored) => {
    expect(v.parse(EmailSchema, address)).toBe(stored);
  });

  it.each([
    ['a local part over 64 characters', `${'a'.repeat(65)}@example.com`],
    ['no @', 'ada.example.com'],
    ['nothing before @', '@example.com'],
    ['two @', 'ada@lovelace@example.com'],
    ['a leading dot', '.ada@example.com'],
    ['a trailing dot in the local part', 'ada.@example.com'],
    ['two dots in a row', 'ada..lovelace@example.com'],
    ['a space inside', 'ada lovelace@example.com'],
    ['no top-level domain', 'ada@localhost'],
    ['an IP literal', 'ada@[127.0.0.1]'],
    ['a numeric top-level label', 'ada@example.123'],
    ['a label starting with a hyphen', 'ada@-example.com'],
    ['an empty label', 'ada@example..com'],
    ['an address over 254 characters', `ada@${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(60)}.com`],
    ['a non-string', 42],
  ])('refuses %s with the sign-in message', (_, address) => {
    const result = v.safeParse(EmailSchema, address);
    expect(result.success).toBe(false);
    expect(result.issues?.[0].message).toBe('Please provide a valid email address');
  });

  it.each([
    ['nothing', undefined],
    ['an empty string', ''],
    ['only spaces', '   '],
  ])('calls %s missing, not wrong: "E-mail address is required"', (_, address) => {
    const result = v.safeParse(EmailSchema, address);
    expect(result.success).toBe(false);
    expect(result.issues?.[0].message).toBe('E-mail address is required');
  });
});

describe('URLs', () => {
  const schema = urlSchema({
    required: 'URL is required',
    invalid: 'URL must be a valid URL.',
    https: 'URL must start with https://',
  });
  const firstMessage = (value: unknown) => v.safeParse(schema, value).issues?.[0].message;

  it.each(['https://example.com/x', 'HTTPS://example.com/x', 'Https://Example.com'])('accepts %s', (url) => {
    expect(v.safeParse(schema, url).success).toBe(true);
  });

  it.each([
    ['http://example.com', 'URL must start with https://'],
    ['ftp://example.com', 'URL must be a valid URL.'],
    ['javascript:alert(1)', 'URL must be a valid URL.'],
    ['example.com', 'URL must be a valid URL.'],
    ['', 'URL is required'],
    ['   ', 'URL is required'],
    [undefined, 'URL is required'],
  ])('refuses %s: %s', (url, message) => {
    expect(firstMessage(url)).toBe(message);
  });
});

describe('the https rule of lookup and logging', () => {
  it('takes HTTPS:// as https for a lookup URL', () => {
    expect(v.safeParse(LookupUrlSchema, 'HTTPS://crm.example.com/customers').success).toBe(true);
  });

  it('takes HTTPS:// as https for a logging webhook', () => {
    expect(
      v.safeParse(LoggingBodySchema, {
        destination: 'rapid7',
        rapid7: { webhookUrl: 'HTTPS://eu.webhook.logs.insight.rapid7.com/x' },
      }).success,
    ).toBe(true);
  });
});

describe('text fields', () => {
  it.each([
    ['a NUL character', 'a\u0000b'],
    ['a lone high surrogate', 'a\uD800b'],
    ['a lone low surrogate', 'a\uDC00'],
  ])('refuse %s', (_, value) => {
    expect(v.safeParse(text(), value).issues?.[0].message).toBe('Text may not contain NUL characters or unpaired surrogates');
  });

  it('accept characters outside the BMP', () => {
    expect(v.safeParse(text(), 'logo 🔓 ok').success).toBe(true);
  });
});
