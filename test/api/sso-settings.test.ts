import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS, useTestContext } from './helpers';
import { startTestIdp } from './oidc-peer';
import { decryptSecret } from '../../api/crypto';
import { startDnsServer, type DnsServer } from '../support/dns-server';

// Single sign-on: the settings an admin saves (checked against a real provider's discovery
// document) and the sign-in that follows, end to end against that provider on loopback.

const idp = await startTestIdp(120);
afterAll(() => idp.close());

const sso = idp.client('sso');
const azure = (over: Record<string, string> = {}) => ({
  provider: 'azure',
  azure: {
    discoveryUrl: idp.discoveryUrl,
    domain: 'acme.test',
    clientId: sso.clientId,
    clientSecret: sso.clientSecret,
    adminGroupId: 'sb-admins',
    agentGroupId: 'sb-agents',
    ...over,
  },
});

describe.each(DATABASE_KINDS)('single sign-on settings (%s)', (kind) => {
  // The provider is on loopback: outbound rules admit it only because the test names it.
  const t = useTestContext(kind, { outboundAllowHosts: [new URL(idp.issuer).host] });

  it('starts with no provider connected', async () => {
    const res = await t.call('GET', '/sso', { as: 'admin@acme.test' });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ provider: null, azure: null, okta: null, oidc: null, domainProof: null });
  });

  it("missing fields answer the screen's messages and save nothing", async () => {
    const res = await t.call('POST', '/sso', {
      as: 'owner@acme.test',
      body: { provider: 'azure', azure: { discoveryUrl: '', domain: '', clientId: '', clientSecret: '' } },
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { code: string; fields: Record<string, string> };
    expect(body.code).toBe('VALIDATION_FAILED');
    expect(body.fields).toMatchObject({
      'azure.discoveryUrl': 'Discovery URL is required',
      'azure.domain': 'Domain is required',
      'azure.clientId': 'Client ID is required',
    });
    const okta = await t.call('POST', '/sso', {
      as: 'owner@acme.test',
      body: { provider: 'okta', okta: { ...azure().azure, tenant: ' ' } },
    });
    expect(((await okta.json()) as { fields: Record<string, string> }).fields).toEqual({ 'okta.tenant': 'Tenant is required' });
    const noSecret = await t.call('POST', '/sso', { as: 'owner@acme.test', body: azure({ clientSecret: '' }) });
    expect(noSecret.status).toBe(400);
    expect(((await noSecret.json()) as { fields: Record<string, string> }).fields).toEqual({
      'azure.clientSecret': 'Client Secret is required',
    });
    expect(await (await t.call('GET', '/sso', { as: 'owner@acme.test' })).json()).toMatchObject({ provider: null });
  });

  it('a discovery URL that does not answer a discovery document is refused with SSO_DISCOVERY_FAILED', async () => {
    for (const discoveryUrl of [
      `${idp.issuer}/nothing-here/.well-known/openid-configuration`,
      'https://127.0.0.1:9/.well-known/openid-configuration',
    ]) {
      const res = await t.call('POST', '/sso', { as: 'owner@acme.test', body: azure({ discoveryUrl }) });
      expect(res.status).toBe(400);
      const body = (await res.json()) as { code: string; fields: Record<string, string> };
      expect(body.code).toBe('SSO_DISCOVERY_FAILED');
      expect(body.fields['azure.discoveryUrl']).toMatch(/^The discovery document could not be read from this URL/);
    }
    expect(await (await t.call('GET', '/sso', { as: 'owner@acme.test' })).json()).toMatchObject({ provider: null });
  });

  it('a discovery URL over http is refused outside the development provider and allowed hosts', async () => {
    const res = await t.call('POST', '/sso', {
      as: 'owner@acme.test',
      body: azure({ discoveryUrl: 'http://idp.example.com/.well-known/openid-configuration' }),
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { fields: Record<string, string> }).fields['azure.discoveryUrl']).toBe(
      'Discovery URL must start with https://',
    );
  });

  it('a discovery URL on a private or metadata address is refused before any request is made', async () => {
    for (const discoveryUrl of [
      'https://169.254.169.254/.well-known/openid-configuration',
      'https://10.0.0.7/.well-known/openid-configuration',
      'https://[::ffff:127.0.0.1]/.well-known/openid-configuration',
    ]) {
      const res = await t.call('POST', '/sso', { as: 'owner@acme.test', body: azure({ discoveryUrl }) });
      expect(res.status).toBe(400);
      const body = (await res.json()) as { code: string; fields: Record<string, string> };
      expect(body.code).toBe('SSO_DISCOVERY_FAILED');
      expect(body.fields['azure.discoveryUrl']).toMatch(/address and cannot be called\)/);
    }
  });

  it('a supervisor cannot read or change single sign-on', async () => {
    expect((await t.call('GET', '/sso', { as: 'supervisor@acme.test' })).status).toBe(403);
    expect((await t.call('POST', '/sso', { as: 'supervisor@acme.test', body: azure() })).status).toBe(403);
    expect((await t.call('DELETE', '/sso', { as: 'supervisor@acme.test', body: { provider: 'azure' } })).status).toBe(403);
  });

  it('connecting saves the settings, encrypts the secret, never returns it, and audits', async () => {
    const res = await t.call('POST', '/sso', { as: 'admin@acme.test', body: azure() });
    expect(res.status).toBe(201);
    const text = await res.text();
    expect(text).not.toContain(sso.clientSecret);
    expect(JSON.parse(text)).toEqual({
      provider: 'azure',
      azure: {
        discoveryUrl: idp.discoveryUrl,
        domain: 'acme.test',
        clientId: sso.clientId,
        adminGroupId: 'sb-admins',
        agentGroupId: 'sb-agents',
      },
      okta: null,
      oidc: null,
      domainProof: {
        name: '_switchboard-challenge.acme.test',
        value: expect.stringMatching(/^switchboard-verification=[0-9a-f]{32}$/),
        verified: false,
      },
    });
    const got = await (await t.call('GET', '/sso', { as: 'owner@acme.test' })).text();
    expect(got).not.toContain(sso.clientSecret);
    const acme = t.account('acme');
    const row = await t.db.tenant(acme.id, (trx) => trx.selectFrom('sso_settings').selectAll().executeTakeFirstOrThrow());
    expect(row.client_secret).not.toContain(sso.clientSecret);
    expect(decryptSecret(row.client_secret, t.config.encryptionKey)).toBe(sso.clientSecret);
    const entry = await t.db.tenant(acme.id, (trx) =>
      trx.selectFrom('audit_log').selectAll().where('event', '=', 'sso.connected').executeTakeFirstOrThrow(),
    );
    expect(entry).toMatchObject({ admin_first_name: 'Adam', description: 'Connected Azure AD single sign-on for acme.test' });
  });

  it('another provider cannot be connected while one is', async () => {
    const res = await t.call('POST', '/sso', {
      as: 'owner@acme.test',
      body: { provider: 'oidc', oidc: { discoveryUrl: idp.discoveryUrl, domain: 'acme.test', clientId: 'x', clientSecret: 'y' } },
    });
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({
      requestId: expect.any(String),
      code: 'SSO_PROVIDER_CONNECTED',
      message: 'Disable the current provider to enable this one',
    });
  });

  it('managing without a new secret keeps the stored one', async () => {
    const res = await t.call('POST', '/sso', {
      as: 'owner@acme.test',
      body: azure({ clientSecret: '', agentGroupId: 'agents-2' }),
    });
    expect(res.status).toBe(200);
    const acme = t.account('acme');
    const row = await t.db.tenant(acme.id, (trx) => trx.selectFrom('sso_settings').selectAll().executeTakeFirstOrThrow());
    expect(decryptSecret(row.client_secret, t.config.encryptionKey)).toBe(sso.clientSecret);
    expect(row.agent_group_id).toBe('agents-2');
  });

  it.each([
    ['a new discovery URL', { discoveryUrl: `${idp.issuer}/elsewhere/.well-known/openid-configuration` }],
    ['a new issuer host', { discoveryUrl: 'https://idp.attacker.example/.well-known/openid-configuration' }],
  ])('%s with a blank client secret asks for the secret again and changes nothing', async (_what, over) => {
    const before = await t.db.tenant(t.account('acme').id, (trx) =>
      trx.selectFrom('sso_settings').selectAll().executeTakeFirstOrThrow(),
    );
    const res = await t.call('POST', '/sso', { as: 'owner@acme.test', body: azure({ ...over, clientSecret: '' }) });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      requestId: expect.any(String),
      code: 'VALIDATION_FAILED',
      message: 'Client Secret is required',
      fields: { 'azure.clientSecret': 'Client Secret is required' },
    });
    expect(
      await t.db.tenant(t.account('acme').id, (trx) => trx.selectFrom('sso_settings').selectAll().executeTakeFirstOrThrow()),
    ).toEqual(before);
  });

  it.each([
    ['a line feed', 'secret\nX-Evil: 1'],
    ['a NUL', 'secret\u0000'],
    ['a C1 control', 'secret\u0085x'],
  ])('a client secret containing %s is refused at the contract', async (_what, clientSecret) => {
    const res = await t.call('POST', '/sso', { as: 'owner@acme.test', body: azure({ clientSecret }) });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { fields: Record<string, string> }).fields).toEqual({
      'azure.clientSecret': 'Must not contain line breaks or other control characters',
    });
  });

  it('a domain another account uses is answered like any other: nothing is said about other accounts', async () => {
    const res = await t.call('POST', '/sso', { as: 'owner@acme.test', body: azure({ domain: 'globex.test', clientSecret: '' }) });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { domainProof: unknown }).domainProof).toMatchObject({
      name: '_switchboard-challenge.globex.test',
      verified: false,
    });
    expect((await t.call('POST', '/sso', { as: 'owner@acme.test', body: azure({ clientSecret: '' }) })).status).toBe(200);
  });

  it.each(['gmail.com', 'outlook.com'])('a public mail domain (%s) is refused for single sign-on', async (domain) => {
    const res = await t.call('POST', '/sso', { as: 'owner@acme.test', body: azure({ domain, clientSecret: '' }) });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { fields: Record<string, string> }).fields).toEqual({
      'azure.domain': "Public e-mail domains (like gmail.com) cannot use single sign-on. Enter your company's own domain.",
    });
  });

  it('disconnecting removes the settings and is audited; the oidc provider then shows its issuer', async () => {
    const res = await t.call('DELETE', '/sso', { as: 'owner@acme.test', body: { provider: 'azure' } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ provider: null, azure: null, okta: null, oidc: null, domainProof: null });
    expect((await t.call('DELETE', '/sso', { as: 'owner@acme.test', body: { provider: 'azure' } })).status).toBe(404);
    const acme = t.account('acme');
    const events = await t.db.tenant(acme.id, (trx) =>
      trx.selectFrom('audit_log').select('event').where('event', 'like', 'sso.%').orderBy('id').execute(),
    );
    expect(events.map((e) => e.event)).toEqual([
      'sso.connected',
      'sso.updated',
      'sso.updated',
      'sso.updated',
      'sso.disconnected',
    ]);
    const oidc = await t.call('POST', '/sso', {
      as: 'owner@acme.test',
      body: {
        provider: 'oidc',
        oidc: { discoveryUrl: idp.discoveryUrl, domain: 'acme.test', clientId: sso.clientId, clientSecret: sso.clientSecret },
      },
    });
    expect(oidc.status).toBe(201);
    expect(((await oidc.json()) as { oidc: unknown }).oidc).toEqual({
      issuer: idp.issuer,
      domain: 'acme.test',
      clientId: sso.clientId,
      discoveryUrl: idp.discoveryUrl,
    });
  });

  // last: connecting Okta leaves audit entries the tests above count
  const disconnectAny = async () => {
    const { provider } = (await (await t.call('GET', '/sso', { as: 'owner@acme.test' })).json()) as { provider: string | null };
    if (provider) expect((await t.call('DELETE', '/sso', { as: 'owner@acme.test', body: { provider } })).status).toBe(200);
  };

  it('Okta asks for no Discovery URL: its discovery document is read from the tenant', async () => {
    await disconnectAny();
    const { discoveryUrl: _none, ...settings } = azure().azure;
    const res = await t.call('POST', '/sso', {
      as: 'owner@acme.test',
      body: { provider: 'okta', okta: { ...settings, tenant: idp.issuer } },
    });
    expect(res.status).toBe(201);
    expect(((await res.json()) as { okta: { tenant: string; discoveryUrl: string } }).okta).toMatchObject({
      tenant: idp.issuer,
      discoveryUrl: idp.discoveryUrl,
    });
    expect((await t.call('DELETE', '/sso', { as: 'owner@acme.test', body: { provider: 'okta' } })).status).toBe(200);
  });

  it('an Okta tenant whose discovery document cannot be read is refused on the Tenant field, naming the URL it tried', async () => {
    await disconnectAny();
    const { discoveryUrl: _none, ...settings } = azure().azure;
    const res = await t.call('POST', '/sso', {
      as: 'owner@acme.test',
      body: { provider: 'okta', okta: { ...settings, tenant: `${idp.issuer}/nothing-here` } },
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { code: string; fields: Record<string, string> };
    expect(body.code).toBe('SSO_DISCOVERY_FAILED');
    expect(body.fields['okta.tenant']).toMatch(
      new RegExp(
        `^The discovery document could not be read from ${idp.issuer}/nothing-here/\\.well-known/openid-configuration.*Check the Tenant\\.$`,
      ),
    );
    const http = await t.call('POST', '/sso', {
      as: 'owner@acme.test',
      body: { provider: 'okta', okta: { ...settings, tenant: 'http://acme.okta.com' } },
    });
    expect(((await http.json()) as { fields: Record<string, string> }).fields['okta.tenant']).toBe(
      'Tenant must be reached over https://',
    );
    const bad = await t.call('POST', '/sso', {
      as: 'owner@acme.test',
      body: { provider: 'okta', okta: { ...settings, tenant: 'acme okta' } },
    });
    expect(((await bad.json()) as { fields: Record<string, string> }).fields['okta.tenant']).toBe(
      'Tenant must be your Okta domain, e.g. acme.okta.com',
    );
  });
});

describe.each(DATABASE_KINDS)('single sign-on domain proof (%s)', (kind) => {
  let dns: DnsServer;
  const overrides = { outboundAllowHosts: [new URL(idp.issuer).host], dnsServers: [] as string[] };
  beforeAll(async () => {
    dns = await startDnsServer({ '_switchboard-challenge.broken.test': 'servfail' });
    overrides.dnsServers.push(dns.address);
  });
  afterAll(() => dns.close());
  const t = useTestContext(kind, overrides);
  const proofOf = async (as: string) =>
    ((await (await t.call('GET', '/sso', { as })).json()) as { domainProof: { name: string; value: string; verified: boolean } })
      .domainProof;
  const sso = idp.client('sso');
  const oidc = (domain: string) => ({
    provider: 'oidc',
    oidc: { discoveryUrl: idp.discoveryUrl, domain, clientId: sso.clientId, clientSecret: sso.clientSecret },
  });

  it('verifying without the TXT record answers which record is missing and proves nothing', async () => {
    expect((await t.call('POST', '/sso', { as: 'owner@globex.test', body: oidc('acme.test') })).status).toBe(201);
    const res = await t.call('POST', '/sso/verify', { as: 'owner@globex.test' });
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({
      code: 'SSO_DOMAIN_UNPROVEN',
      message: expect.stringContaining('_switchboard-challenge.acme.test'),
    });
    expect((await proofOf('owner@globex.test')).verified).toBe(false);
  });

  it("an unproven claim blocks nobody: the domain's real owner connects and proves it", async () => {
    expect((await t.call('POST', '/sso', { as: 'owner@acme.test', body: oidc('acme.test') })).status).toBe(201);
    const proof = await proofOf('owner@acme.test');
    dns.records.set(proof.name, { txt: ['some-other-verification=1', proof.value] });
    const res = await t.call('POST', '/sso/verify', { as: 'owner@acme.test' });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { domainProof: unknown }).domainProof).toEqual({ ...proof, verified: true });
    const entry = await t.db.tenant(t.account('acme').id, (trx) =>
      trx.selectFrom('audit_log').select('description').where('event', '=', 'sso.domain-verified').executeTakeFirstOrThrow(),
    );
    expect(entry.description).toBe('Verified the domain acme.test for single sign-on');
  });

  it('a second account can prove a domain only with its own token in DNS, and then hears it is taken', async () => {
    const globex = await proofOf('owner@globex.test');
    // still only Acme's token there: Globex proves nothing
    expect((await t.call('POST', '/sso/verify', { as: 'owner@globex.test' })).status).toBe(422);
    dns.records.set(globex.name, { txt: [globex.value] });
    const res = await t.call('POST', '/sso/verify', { as: 'owner@globex.test' });
    expect(res.status).toBe(409);
    expect(((await res.json()) as { code: string }).code).toBe('SSO_DOMAIN_TAKEN');
  });

  it('changing the domain starts it unproven again', async () => {
    const res = await t.call('POST', '/sso', {
      as: 'owner@acme.test',
      body: { ...oidc('support.acme.test'), oidc: { ...oidc('support.acme.test').oidc, clientSecret: '' } },
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { domainProof: unknown }).domainProof).toMatchObject({
      name: '_switchboard-challenge.support.acme.test',
      verified: false,
    });
  });

  it('a DNS server that fails answers DNS_CHECK_FAILED, not that the record is missing', async () => {
    expect(
      (
        await t.call('POST', '/sso', {
          as: 'owner@acme.test',
          body: { ...oidc('broken.test'), oidc: { ...oidc('broken.test').oidc, clientSecret: '' } },
        })
      ).status,
    ).toBe(200);
    const res = await t.call('POST', '/sso/verify', { as: 'owner@acme.test' });
    expect(res.status).toBe(502);
    expect(((await res.json()) as { code: string }).code).toBe('DNS_CHECK_FAILED');
  });

  it('verifying without a connection answers SSO_NOT_CONNECTED; a supervisor may not verify', async () => {
    expect((await t.call('POST', '/sso/verify', { as: 'supervisor@acme.test' })).status).toBe(403);
    await t.call('DELETE', '/sso', { as: 'owner@acme.test', body: { provider: 'oidc' } });
    const res = await t.call('POST', '/sso/verify', { as: 'owner@acme.test' });
    expect(res.status).toBe(404);
    expect(((await res.json()) as { code: string }).code).toBe('SSO_NOT_CONNECTED');
  });
});
