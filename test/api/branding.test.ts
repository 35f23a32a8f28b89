import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { DATABASE_KINDS, useTestContext, type TestContext } from './helpers';
import { startDnsServer, type DnsServer } from '../support/dns-server';

const CNAME_TARGET = 'custom.switchboard.example';
const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');
const LOGO = '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"><rect width="40" height="20" fill="#FF6600"/></svg>';

async function auditCount(t: TestContext, key: 'acme' | 'globex', event: string) {
  return t.db.tenant(
    t.account(key).id,
    async (trx) =>
      (await sql<{ n: number }>`select count(*)::int as n from audit_log where event = ${event}`.execute(trx)).rows[0]!.n,
  );
}

async function brandingRow(t: TestContext, key: 'acme' | 'globex') {
  return t.db.tenant(t.account(key).id, (trx) => trx.selectFrom('branding').selectAll().executeTakeFirstOrThrow());
}

describe.each(DATABASE_KINDS)('branding (%s)', (kind) => {
  const t = useTestContext(kind);

  it('an admin reads the branding', async () => {
    const res = await t.call('GET', '/branding', { as: 'admin@acme.test' });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      name: 'Acme Support',
      logo: '',
      color: '#2563EB',
      domain: null,
      domainIsVerified: false,
      cnameTarget: 'custom.switchboard.example',
      domainChallenge: expect.stringMatching(/^switchboard-verification=[0-9a-f]{32}$/),
    });
  });

  it('a supervisor may not read or change the branding (403)', async () => {
    expect((await t.call('GET', '/branding', { as: 'supervisor@acme.test' })).status).toBe(403);
    const res = await t.call('PUT', '/branding', { as: 'supervisor@acme.test', body: { name: 'X', logo: '', color: '#000000' } });
    expect(res.status).toBe(403);
    expect((await brandingRow(t, 'acme')).name).toBe('Acme Support');
  });

  it('saving stores the cleaned logo, uppercases the colour and is audited', async () => {
    const res = await t.call('PUT', '/branding', {
      as: 'admin@acme.test',
      body: { name: ' Acme Care ', logo: b64(LOGO), color: '#ff6600' },
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { name: string; logo: string; color: string };
    expect(body.name).toBe('Acme Care');
    expect(body.color).toBe('#FF6600');
    const svg = Buffer.from(body.logo, 'base64').toString('utf8');
    expect(svg).toContain('viewBox="0 0 40 20"');
    expect(svg).not.toMatch(/<svg[^>]*\swidth=/);
    expect(await auditCount(t, 'acme', 'branding.updated')).toBe(1);
  });

  it('the bootstrap carries the saved branding with the logo base64-encoded', async () => {
    const res = await t.call('GET', '/admins/bootstrap', { as: 'supervisor@acme.test' });
    const body = (await res.json()) as { branding: { logo: string; name: string } };
    expect(body.branding.name).toBe('Acme Care');
    expect(Buffer.from(body.branding.logo, 'base64').toString('utf8')).toMatch(/^<svg/);
  });

  it('a hostile logo is stored cleaned, never as sent', async () => {
    const hostile =
      '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(2)</script><foreignObject><iframe xmlns="http://www.w3.org/1999/xhtml" src="https://evil.test"/></foreignObject><rect fill="url(https://evil.test/#x)" width="1" height="1"/></svg>';
    const res = await t.call('PUT', '/branding', {
      as: 'admin@acme.test',
      body: { name: 'Acme Care', logo: b64(hostile), color: '#FF6600' },
    });
    expect(res.status).toBe(200);
    const stored = (await brandingRow(t, 'acme')).logo;
    expect(stored).not.toMatch(/onload|<script|foreignObject|iframe|evil\.test/i);
    expect(stored).toMatch(/^<svg/);
  });

  it.each([
    [
      'a DOCTYPE with entities',
      b64('<!DOCTYPE svg [<!ENTITY a "x">]><svg xmlns="http://www.w3.org/2000/svg"><text>&a;</text></svg>'),
      'LOGO_INVALID',
    ],
    ['an HTML document', b64('<html><body>hi</body></html>'), 'LOGO_INVALID'],
    ['text that is not base64', '<svg>', 'VALIDATION_FAILED'],
    ['a logo over the size cap', 'A'.repeat(400_000), 'VALIDATION_FAILED'],
  ])('a logo that is %s is refused with 400 and nothing changes', async (_name, logo, code) => {
    const before = await brandingRow(t, 'acme');
    const res = await t.call('PUT', '/branding', { as: 'admin@acme.test', body: { name: 'Other name', logo, color: '#123456' } });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code });
    const after = await brandingRow(t, 'acme');
    expect(after).toEqual(before);
  });

  it.each([
    ['a colour longer than 7 characters', { name: 'A', logo: '', color: '#1234567' }, 'color'],
    ['a colour that is not hex', { name: 'A', logo: '', color: 'red' }, 'color'],
    ['an empty company name', { name: '  ', logo: '', color: '#123456' }, 'name'],
  ])('%s is refused with 400 naming the field', async (_name, body, field) => {
    const res = await t.call('PUT', '/branding', { as: 'admin@acme.test', body });
    expect(res.status).toBe(400);
    const answer = (await res.json()) as { code: string; fields: Record<string, string> };
    expect(answer.code).toBe('VALIDATION_FAILED');
    expect(Object.keys(answer.fields)).toContain(field);
    expect((await brandingRow(t, 'acme')).name).toBe('Acme Care');
  });

  it("one account's branding change does not touch another's", async () => {
    const res = await t.call('GET', '/branding', { as: 'owner@globex.test' });
    expect(await res.json()).toMatchObject({ name: 'Globex Care', logo: '', color: '#0F766E' });
  });

  it('saving the same branding again writes no audit entry', async () => {
    const current = (await (await t.call('GET', '/branding', { as: 'admin@acme.test' })).json()) as {
      name: string;
      logo: string;
      color: string;
    };
    const before = await auditCount(t, 'acme', 'branding.updated');
    const res = await t.call('PUT', '/branding', {
      as: 'admin@acme.test',
      body: { name: current.name, logo: current.logo, color: current.color },
    });
    expect(res.status).toBe(200);
    expect(await auditCount(t, 'acme', 'branding.updated')).toBe(before);
  });
});

/** The account's ownership token, as the Domain screen shows it. */
async function challengeOf(t: TestContext, as: string): Promise<string> {
  return ((await (await t.call('GET', '/branding', { as })).json()) as { domainChallenge: string }).domainChallenge;
}

describe.each(DATABASE_KINDS)('custom domain against a DNS server on loopback (%s)', (kind) => {
  let dns: DnsServer;
  const overrides = { dnsServers: [] as string[], cnameTarget: CNAME_TARGET };
  beforeAll(async () => {
    dns = await startDnsServer({
      'console.acme.com': { cname: `${CNAME_TARGET}.` },
      'wrong.acme.com': { cname: 'elsewhere.example.net.' },
      'address-only.acme.com': { a: '192.0.2.1' },
      'broken.acme.com': 'servfail',
      'care.globex.com': { cname: CNAME_TARGET },
      'no-proof.acme.com': { cname: CNAME_TARGET },
      'wrong-token.acme.com': { cname: CNAME_TARGET },
      '_switchboard-challenge.wrong-token.acme.com': { txt: ['switchboard-verification=0123456789abcdef0123456789abcdef'] },
      'squatted.acme.com': { cname: CNAME_TARGET },
    });
    overrides.dnsServers.push(dns.address);
  });
  afterAll(() => dns.close());
  const t = useTestContext(kind, overrides);
  let acmeToken = '';
  let globexToken = '';
  beforeAll(async () => {
    acmeToken = await challengeOf(t, 'admin@acme.test');
    globexToken = await challengeOf(t, 'owner@globex.test');
    // the proofs a domain's owner publishes next to the CNAME (with an unrelated TXT value beside it)
    dns.records.set('_switchboard-challenge.console.acme.com', { txt: ['v=spf1 -all', acmeToken] });
    dns.records.set('_switchboard-challenge.care.globex.com', { txt: [globexToken] });
  });

  it('each account has its own ownership token, the same on every read', async () => {
    expect(acmeToken).toMatch(/^switchboard-verification=[0-9a-f]{32}$/);
    expect(globexToken).not.toBe(acmeToken);
    expect(await challengeOf(t, 'owner@acme.test')).toBe(acmeToken);
  });

  it('a domain with the right CNAME and the account’s TXT token is verified at once', async () => {
    const res = await t.call('PUT', '/branding/domain', { as: 'admin@acme.test', body: { domain: 'console.acme.com' } });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ domain: 'console.acme.com', domainIsVerified: true });
    expect(await auditCount(t, 'acme', 'domain.verified')).toBe(1);
    expect(dns.queries).toBeGreaterThan(0);
  });

  it('a CNAME without the TXT token answers DNS_INVALID naming the missing TXT record, and stays pending', async () => {
    const res = await t.call('PUT', '/branding/domain', { as: 'admin@acme.test', body: { domain: 'no-proof.acme.com' } });
    expect(res.status).toBe(422);
    const body = (await res.json()) as { code: string; message: string; fields: Record<string, string> };
    expect(body).toMatchObject({ code: 'DNS_INVALID', message: "DNS settings are invalid or haven't propagated yet" });
    expect(Object.keys(body.fields)).toEqual(['txt']);
    expect(body.fields.txt).toContain('_switchboard-challenge.no-proof.acme.com');
    expect(await brandingRow(t, 'acme')).toMatchObject({ domain: 'no-proof.acme.com', domain_is_verified: false });
  });

  it('a TXT record with a token that is not the account’s answers DNS_INVALID', async () => {
    const res = await t.call('PUT', '/branding/domain', { as: 'admin@acme.test', body: { domain: 'wrong-token.acme.com' } });
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({ code: 'DNS_INVALID', fields: { txt: expect.any(String) } });
    expect(await brandingRow(t, 'acme')).toMatchObject({ domain: 'wrong-token.acme.com', domain_is_verified: false });
  });

  it('another account’s token does not verify the domain for this account', async () => {
    dns.records.set('_switchboard-challenge.squatted.acme.com', { txt: [globexToken] });
    const res = await t.call('PUT', '/branding/domain', { as: 'admin@acme.test', body: { domain: 'squatted.acme.com' } });
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({ code: 'DNS_INVALID', fields: { txt: expect.any(String) } });
    expect(await brandingRow(t, 'acme')).toMatchObject({ domain: 'squatted.acme.com', domain_is_verified: false });
  });

  it('a pending claim does not block the domain’s owner, who proves it and then holds it alone', async () => {
    // acme claimed squatted.acme.com above without proof; globex's token is the one published
    const res = await t.call('PUT', '/branding/domain', { as: 'owner@globex.test', body: { domain: 'squatted.acme.com' } });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ domain: 'squatted.acme.com', domainIsVerified: true });
    const again = await t.call('PUT', '/branding/domain', { as: 'admin@acme.test', body: { domain: 'squatted.acme.com' } });
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ code: 'DOMAIN_TAKEN' });
    expect((await brandingRow(t, 'acme')).domain_is_verified).toBe(false);
    const release = await t.call('PUT', '/branding/domain', { as: 'owner@globex.test', body: { domain: null } });
    expect(release.status).toBe(200);
  });

  it('a CNAME pointing elsewhere answers DNS_INVALID and keeps the domain waiting for DNS', async () => {
    const res = await t.call('PUT', '/branding/domain', { as: 'admin@acme.test', body: { domain: 'wrong.acme.com' } });
    expect(res.status).toBe(422);
    const body = (await res.json()) as { code: string; message: string; fields: Record<string, string> };
    expect(body).toMatchObject({ code: 'DNS_INVALID', message: "DNS settings are invalid or haven't propagated yet" });
    expect(Object.keys(body.fields).sort()).toEqual(['cname', 'txt']);
    const row = await brandingRow(t, 'acme');
    expect(row).toMatchObject({ domain: 'wrong.acme.com', domain_is_verified: false });
    expect(await auditCount(t, 'acme', 'domain.claimed')).toBe(4);
  });

  it('re-checking an unchanged pending domain writes no further audit entry', async () => {
    const res = await t.call('PUT', '/branding/domain', { as: 'admin@acme.test', body: { domain: 'wrong.acme.com' } });
    expect(res.status).toBe(422);
    expect(await auditCount(t, 'acme', 'domain.claimed')).toBe(4);
  });

  it('the domain becomes verified once its CNAME and TXT token propagate', async () => {
    dns.records.set('wrong.acme.com', { cname: CNAME_TARGET });
    const cnameOnly = await t.call('PUT', '/branding/domain', { as: 'admin@acme.test', body: { domain: 'wrong.acme.com' } });
    expect(cnameOnly.status).toBe(422);
    expect(((await cnameOnly.json()) as { fields: Record<string, string> }).fields).not.toHaveProperty('cname');
    dns.records.set('_switchboard-challenge.wrong.acme.com', { txt: [acmeToken] });
    const res = await t.call('PUT', '/branding/domain', { as: 'admin@acme.test', body: { domain: 'wrong.acme.com' } });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ domain: 'wrong.acme.com', domainIsVerified: true });
  });

  it('a verified domain whose TXT token is removed falls back to waiting for DNS, audited', async () => {
    dns.records.delete('_switchboard-challenge.wrong.acme.com');
    const res = await t.call('PUT', '/branding/domain', { as: 'admin@acme.test', body: { domain: 'wrong.acme.com' } });
    expect(res.status).toBe(422);
    expect((await brandingRow(t, 'acme')).domain_is_verified).toBe(false);
    expect(await auditCount(t, 'acme', 'domain.unverified')).toBe(1);
  });
  it('a name that does not exist (NXDOMAIN) answers DNS_INVALID', async () => {
    const res = await t.call('PUT', '/branding/domain', { as: 'admin@acme.test', body: { domain: 'missing.acme.com' } });
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({ code: 'DNS_INVALID' });
  });

  it('a name with an address but no CNAME answers DNS_INVALID', async () => {
    const res = await t.call('PUT', '/branding/domain', { as: 'admin@acme.test', body: { domain: 'address-only.acme.com' } });
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({ code: 'DNS_INVALID' });
  });

  it('a failing DNS server answers DNS_CHECK_FAILED with the generic message', async () => {
    const res = await t.call('PUT', '/branding/domain', { as: 'admin@acme.test', body: { domain: 'broken.acme.com' } });
    expect(res.status).toBe(502);
    expect(await res.json()).toEqual({
      requestId: expect.any(String),
      code: 'DNS_CHECK_FAILED',
      message: 'An error occurred while verifying the DNS settings',
    });
  });

  it.each(['Console.Acme.com', 'acme', 'acme.c', 'acme.toolong', 'acme..com', '-acme.com', 'acme.com.', 'ac me.com', 'acme.co1'])(
    'the domain %j is refused with 400 and nothing changes',
    async (domain) => {
      const before = await brandingRow(t, 'acme');
      const res = await t.call('PUT', '/branding/domain', { as: 'admin@acme.test', body: { domain } });
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
      expect(await brandingRow(t, 'acme')).toEqual(before);
    },
  );

  it('a domain another account has claimed is refused with DOMAIN_TAKEN and reveals nothing else', async () => {
    const claim = await t.call('PUT', '/branding/domain', { as: 'owner@globex.test', body: { domain: 'care.globex.com' } });
    expect(claim.status).toBe(200);
    const res = await t.call('PUT', '/branding/domain', { as: 'admin@acme.test', body: { domain: 'care.globex.com' } });
    expect(res.status).toBe(409);
    const body = (await res.json()) as { code: string; message: string };
    expect(body.code).toBe('DOMAIN_TAKEN');
    expect(body.message).not.toMatch(/globex/i);
    expect((await brandingRow(t, 'acme')).domain).not.toBe('care.globex.com');
  });

  it('a supervisor may not set a domain (403)', async () => {
    const res = await t.call('PUT', '/branding/domain', { as: 'supervisor@acme.test', body: { domain: 'console.acme.com' } });
    expect(res.status).toBe(403);
  });

  it('removing the domain clears it and is audited', async () => {
    const res = await t.call('PUT', '/branding/domain', { as: 'admin@acme.test', body: { domain: null } });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ domain: null, domainIsVerified: false });
    expect(await auditCount(t, 'acme', 'domain.removed')).toBe(1);
  });
});
