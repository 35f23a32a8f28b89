import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import {
  EMAIL_CONTROL_MESSAGE,
  EMAIL_MESSAGE,
  EMAIL_NON_ASCII_MESSAGE,
  EMAIL_QUOTED_MESSAGE,
  EmailSchema,
} from '../../../api/contract/common';
import { DomainNameSchema } from '../../../api/contract/branding';

const message = (input: string) => {
  const r = v.safeParse(EmailSchema, input);
  return r.success ? null : r.issues[0]!.message;
};

// Cases from isemail's and validator.js's suites that the first rule got wrong.
describe('e-mail addresses to the letter of the standards', () => {
  it.each(['test@iana.org\n', '\r\ntest@iana.org', 'test@iana.org\r', 'test@ia\tna.org', 'test@iana.org\u0085'])(
    '%j is refused, not trimmed',
    (address) => {
      expect(message(address)).toBe(EMAIL_CONTROL_MESSAGE);
    },
  );

  it('a DNS label over 63 characters is refused', () => {
    expect(message(`a@${'x'.repeat(64)}.com`)).toBe(EMAIL_MESSAGE);
    expect(message(`a@${'x'.repeat(63)}.com`)).toBeNull();
  });

  it('a quoted local part and a non-ASCII address are refused with a message that says why', () => {
    expect(message('"john doe"@example.com')).toBe(EMAIL_QUOTED_MESSAGE);
    expect(message('hans.m端ller@test.com')).toBe(EMAIL_NON_ASCII_MESSAGE);
    expect(message('user@bücher.example')).toBe(EMAIL_NON_ASCII_MESSAGE);
    expect(message('user@xn--bcher-kva.example')).toBeNull();
  });

  it('surrounding spaces are still forgiven and the address is lowercased', () => {
    expect(v.parse(EmailSchema, '  Ada@Example.COM ')).toBe('ada@example.com');
  });
});

describe('custom domains', () => {
  it('a label over 63 characters is refused', () => {
    expect(v.safeParse(DomainNameSchema, `${'x'.repeat(64)}.example.com`).success).toBe(false);
    expect(v.safeParse(DomainNameSchema, `${'x'.repeat(63)}.example.com`).success).toBe(true);
  });
});
