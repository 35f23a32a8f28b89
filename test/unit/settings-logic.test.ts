import { describe, expect, it } from 'vitest';
import crypto from 'node:crypto';
import { isValidDomain, BrandingUpdateSchema } from '../../api/contract/branding';
import { maskSecretKey, maskWebhookSecret } from '../../api/contract/developers';
import { logoColors, normaliseColorInput, prepareLogo, toBase64, fromBase64 } from '../../src/pages/settings/branding/logo';
import { expiryLabel } from '../../src/pages/settings/admin-management';
import { actorName } from '../../src/pages/settings/audit-log';
import { checkFailureMessage, missingRecordsOf } from '../../src/pages/settings/domain';
import { ApiError } from '../../src/api/client';
import { webhookSignature } from '../../api/developers/signature';
import * as v from 'valibot';

describe('custom domain rule', () => {
  it.each(['console.acme.com', 'a.io', 'my-console.acme.co.uk', 'x1.example.store', 'a-b.c-d.info'])(
    'enables verify for %s',
    (d) => {
      expect(isValidDomain(d)).toBe(true);
    },
  );
  it.each([
    '',
    'acme',
    'Console.acme.com',
    'acme.c',
    'acme.abcdef',
    'acme..com',
    '-acme.com',
    'acme-.com',
    'acme.com.',
    'ac me.com',
    'acme.co1',
    'acme_x.com',
    'https://acme.com',
  ])('keeps verify disabled for %j', (d) => {
    expect(isValidDomain(d)).toBe(false);
  });
});

describe('logo colours', () => {
  it('offers the colours other than black and white, normalised and once each', () => {
    const svg =
      '<svg xmlns="http://www.w3.org/2000/svg"><rect fill="#f60"/><path stroke="#000"/><circle fill="#FFFFFF"/><g fill="rgb(37, 99, 235)"/><rect fill="#ff6600"/><stop stop-color="#0F766E"/></svg>';
    expect(logoColors(svg)).toEqual(['#FF6600', '#2563EB', '#0F766E']);
  });
  it('offers nothing for a black and white logo', () => {
    expect(logoColors('<svg><rect fill="#000000"/><rect fill="#fff"/></svg>')).toEqual([]);
  });
  it('does not read ids or entity-like text as colours', () => {
    expect(logoColors('<svg><rect fill="url(#gradient1)"/><text>#hashtag</text></svg>')).toEqual([]);
  });
});

describe('logo preparation', () => {
  it('replaces width and height with a viewBox', () => {
    const out = prepareLogo('<svg xmlns="http://www.w3.org/2000/svg" width="120" height="40px"><rect/></svg>')!;
    expect(out).toContain('viewBox="0 0 120 40"');
    expect(out).not.toMatch(/\swidth=|\sheight=/);
  });
  it('keeps an existing viewBox', () => {
    const out = prepareLogo('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 5 5" width="50" height="50"/>')!;
    expect(out).toContain('viewBox="0 0 5 5"');
    expect(out).not.toContain('width=');
  });
  it('refuses a file that is not SVG', () => {
    expect(prepareLogo('<html><body/></html>')).toBeNull();
    expect(prepareLogo('just text')).toBeNull();
  });
  it('round-trips non-ASCII text through base64', () => {
    const text = '<svg><text>Zürich — 東京</text></svg>';
    expect(fromBase64(toBase64(text))).toBe(text);
    expect(Buffer.from(toBase64(text), 'base64').toString('utf8')).toBe(text);
  });
});

describe('brand colour input', () => {
  it('uppercases, adds the # and stops at 7 characters', () => {
    expect(normaliseColorInput('ff6600')).toBe('#FF6600');
    expect(normaliseColorInput('#2563eb99')).toBe('#2563EB');
  });
  it('the contract uppercases and refuses more than 7 characters', () => {
    expect(v.parse(BrandingUpdateSchema, { name: 'A', logo: '', color: '#abcdef' }).color).toBe('#ABCDEF');
    expect(v.safeParse(BrandingUpdateSchema, { name: 'A', logo: '', color: '#ABCDEF0' }).success).toBe(false);
  });
});

describe('developer key masking', () => {
  it('masks everything after the first underscore of the secret key', () => {
    expect(maskSecretKey('sk_abc_def')).toBe('sk_*******');
  });
  it('shows the webhook secret as 32 stars', () => {
    expect(maskWebhookSecret()).toBe('*'.repeat(32));
  });
  it('the documented signature is what the sample code computes', () => {
    const body = Buffer.from('{"type":"otp.verified"}');
    const secret = 'whsec_test';
    const expected = crypto.createHmac('sha256', secret).update(`1700000000.${body.toString()}`).digest('hex');
    expect(webhookSignature(body, [secret], 1700000000)).toBe(`t=1700000000,v1=${expected}`);
    expect(expected).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('labels', () => {
  it('an invitation the person declined by joining another account says so, whatever its expiry', () => {
    expect(expiryLabel({ expiresAt: '2099-01-01T00:00:00Z', status: 'accepted-elsewhere' })).toBe(
      'Declined: joined another account',
    );
  });

  it("invitations read 'Expires' until expiresAt and 'Expired' after", () => {
    const now = Date.parse('2025-01-10T00:00:00Z');
    expect(expiryLabel({ expiresAt: '2025-01-12T00:00:00Z' }, now)).toMatch(/^Expires /);
    expect(expiryLabel({ expiresAt: '2025-01-09T00:00:00Z' }, now)).toMatch(/^Expired /);
  });
  it('an audit entry without an admin was made by the provider', () => {
    expect(actorName({})).toBe('Provider');
    expect(actorName({ admin: { firstName: 'Adam', lastName: 'Adeyemi' } })).toBe('Adam Adeyemi');
  });
  it('a domain check says DNS is not ready for DNS_INVALID and gives the generic message otherwise', () => {
    expect(checkFailureMessage(new ApiError(422, 'DNS_INVALID', 'x'))).toBe("DNS settings are invalid or haven't propagated yet");
    expect(checkFailureMessage(new ApiError(502, 'UNEXPECTED_STATUS', 'unexpected response status: 502'))).toBe(
      'An error occurred while verifying the DNS settings',
    );
  });
  it('a domain proven by another account says so while re-checking', () => {
    expect(checkFailureMessage(new ApiError(409, 'DOMAIN_TAKEN', 'This domain is already in use by another account.'))).toBe(
      'This domain is already in use by another account.',
    );
  });
  it('a DNS_INVALID answer tells which of the CNAME and TXT records were not found', () => {
    expect(missingRecordsOf(new ApiError(422, 'DNS_INVALID', 'x', { txt: 'no TXT' }))).toEqual({ cname: false, txt: true });
    expect(missingRecordsOf(new ApiError(422, 'DNS_INVALID', 'x', { cname: 'no CNAME', txt: 'no TXT' }))).toEqual({
      cname: true,
      txt: true,
    });
    expect(missingRecordsOf(new ApiError(502, 'DNS_CHECK_FAILED', 'x'))).toBeNull();
  });
});
