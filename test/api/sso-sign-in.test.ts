import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeJwt } from 'jose';
import { DATABASE_KINDS, useTestContext, type TestContext } from './helpers';
import { Browser, PUBLIC_URL, flowCookie, startTestIdp } from './oidc-peer';
import { startDnsServer, type DnsServer } from '../support/dns-server';
import { agentAccountFor } from '../../api/identity/agent-sign-in';

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

/** Okta names no discovery URL: it is read from the tenant, here the provider on loopback. */
const okta = (over: Record<string, string> = {}) => {
  const { discoveryUrl: _derived, ...settings } = azure(over).azure;
  return { provider: 'okta', okta: { tenant: idp.issuer, ...settings } };
};

let addressSeq = 0;
const address = () => `203.0.113.${++addressSeq}`;

async function ssoSignIn(t: TestContext, email: string, groups = '', typed = email) {
  const from = address();
  const auth = await t.call('POST', '/sso/oauth/authorize', { body: { email }, headers: { 'x-forwarded-for': from } });
  expect(auth.status).toBe(200);
  const { url } = (await auth.json()) as { url: string };
  const back = await new Browser().signInAtIdp(url, typed, groups);
  expect(back.pathname).toBe('/sso/callback');
  return t.call('POST', '/sso/oauth/callback', {
    headers: { cookie: flowCookie(auth), 'x-forwarded-for': from },
    body: {
      code: back.searchParams.get('code'),
      state: back.searchParams.get('state'),
      iss: back.searchParams.get('iss') ?? undefined,
    },
  });
}

describe.each(DATABASE_KINDS)('single sign-on (%s)', (kind) => {
  // The provider is on loopback: outbound rules admit it only because the test names it.
  // acme.test's DNS, on loopback: the proof that the domain is Acme's is published in a test
  let dns: DnsServer;
  const overrides = { outboundAllowHosts: [new URL(idp.issuer).host], dnsServers: [] as string[] };
  beforeAll(async () => {
    dns = await startDnsServer();
    overrides.dnsServers.push(dns.address);
  });
  afterAll(() => dns.close());
  const t = useTestContext(kind, overrides);
  const connect = async (over: Record<string, string> = {}) => {
    const res = await t.call('POST', '/sso', { as: 'owner@acme.test', body: okta(over) });
    expect(res.status).toBe(201);
  };
  const prove = async () => {
    const { domainProof } = (await (await t.call('GET', '/sso', { as: 'owner@acme.test' })).json()) as {
      domainProof: { name: string; value: string };
    };
    dns.records.set(domainProof.name, { txt: [domainProof.value] });
    expect((await t.call('POST', '/sso/verify', { as: 'owner@acme.test' })).status).toBe(200);
  };

  it('an e-mail whose domain has no SSO answers SSO_NOT_CONFIGURED on the email field', async () => {
    const res = await t.call('POST', '/sso/oauth/authorize', {
      body: { email: 'owner@globex.test' },
      headers: { 'x-forwarded-for': address() },
    });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({
      requestId: expect.any(String),
      code: 'SSO_NOT_CONFIGURED',
      message: 'SSO is not configured for this email address',
      fields: { email: 'SSO is not configured for this email address' },
    });
    const bad = await t.call('POST', '/sso/oauth/authorize', { body: { email: 'not-an-email' } });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { fields: Record<string, string> }).fields).toEqual({
      email: 'Please provide a valid email address',
    });
  });

  it('a domain connected but not yet proven by DNS routes no sign-in to the provider', async () => {
    await connect();
    const res = await t.call('POST', '/sso/oauth/authorize', {
      body: { email: 'admin@acme.test' },
      headers: { 'x-forwarded-for': address() },
    });
    expect(res.status).toBe(404);
    expect(((await res.json()) as { code: string }).code).toBe('SSO_NOT_CONFIGURED');
  });

  it('authorize answers the provider URL with PKCE, state, nonce and the e-mail as a hint', async () => {
    await prove();
    const res = await t.call('POST', '/sso/oauth/authorize', { body: { email: 'Admin@Acme.test' } });
    const url = new URL(((await res.json()) as { url: string }).url);
    expect(url.href.startsWith(`${idp.issuer}/auth?`)).toBe(true);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      client_id: sso.clientId,
      redirect_uri: `${PUBLIC_URL}/sso/callback`,
      response_type: 'code',
      scope: 'openid email profile',
      code_challenge_method: 'S256',
      login_hint: 'admin@acme.test',
    });
  });

  it('an admin of the account signs in through SSO and the account records the platform', async () => {
    const res = await ssoSignIn(t, 'admin@acme.test');
    expect(res.status).toBe(200);
    const claims = decodeJwt(((await res.json()) as { token: string }).token);
    expect(claims).toMatchObject({ email: 'admin@acme.test', role: 'admin', acc: t.account('acme').id });
    const account = await t.db.tenant(t.account('acme').id, (trx) =>
      trx.selectFrom('accounts').select('platform').executeTakeFirstOrThrow(),
    );
    expect(account.platform).toBe('okta');
  });

  it('someone in the admin group is added as an admin on first SSO sign-in', async () => {
    const res = await ssoSignIn(t, 'grouped.person@acme.test', 'staff, sb-admins');
    expect(res.status).toBe(200);
    expect(decodeJwt(((await res.json()) as { token: string }).token)).toMatchObject({
      email: 'grouped.person@acme.test',
      role: 'admin',
    });
    const acme = t.account('acme');
    const entry = await t.db.tenant(acme.id, (trx) =>
      trx.selectFrom('audit_log').select('description').where('event', '=', 'admin.provisioned').executeTakeFirstOrThrow(),
    );
    expect(entry.description).toBe('grouped.person@acme.test was added as admin through the SSO admin group');
  });

  it('someone outside the admin list, the admin group and the agent group gets ADMIN_NOT_FOUND', async () => {
    const res = await ssoSignIn(t, 'outsider@acme.test', 'staff');
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({
      requestId: expect.any(String),
      code: 'ADMIN_NOT_FOUND',
      message: 'Please contact your account administrator to be added as an administrator on the account.',
    });
  });

  it('someone only in the agent group gets an agent session that runs agent actions and nothing else', async () => {
    const res = await ssoSignIn(t, 'agent.only@acme.test', 'staff, sb-agents');
    expect(res.status).toBe(200);
    const { token } = (await res.json()) as { token: string };
    expect(decodeJwt(token)).toMatchObject({
      sub: 'agent:agent.only@acme.test',
      email: 'agent.only@acme.test',
      role: 'agent',
      acc: t.account('acme').id,
    });
    expect((await t.call('GET', '/agent/apps', { token })).status).toBe(200);
    expect(await (await t.call('GET', '/admins/bootstrap', { token })).json()).toMatchObject({ code: 'AGENT_FORBIDDEN' });
  });

  it('an agent-group sign-in adds no admin', async () => {
    await ssoSignIn(t, 'agent.only@acme.test', 'sb-agents');
    const admins = await t.db.tenant(t.account('acme').id, (trx) =>
      trx.selectFrom('admins').select('id').where('email', '=', 'agent.only@acme.test').execute(),
    );
    expect(admins).toEqual([]);
  });

  it('without an agent group configured, an agent-group claim admits no one', async () => {
    await t.call('POST', '/sso', { as: 'owner@acme.test', body: okta({ agentGroupId: '', clientSecret: '' }) });
    const res = await ssoSignIn(t, 'agent.only@acme.test', 'sb-agents');
    expect(res.status).toBe(403);
    expect(((await res.json()) as { code: string }).code).toBe('ADMIN_NOT_FOUND');
  });

  it("an admin of another account cannot enter through this account's provider", async () => {
    const res = await ssoSignIn(t, 'admin@acme.test', 'sb-admins', 'owner@globex.test');
    expect(res.status).toBe(403);
    expect(((await res.json()) as { code: string }).code).toBe('ADMIN_NOT_FOUND');
  });

  it('a replayed SSO return is refused', async () => {
    const from = address();
    const auth = await t.call('POST', '/sso/oauth/authorize', {
      body: { email: 'owner@acme.test' },
      headers: { 'x-forwarded-for': from },
    });
    const back = await new Browser().signInAtIdp(((await auth.json()) as { url: string }).url, 'owner@acme.test');
    const body = {
      code: back.searchParams.get('code'),
      state: back.searchParams.get('state'),
      iss: back.searchParams.get('iss') ?? undefined,
    };
    const headers = { cookie: flowCookie(auth), 'x-forwarded-for': from };
    expect((await t.call('POST', '/sso/oauth/callback', { headers, body })).status).toBe(200);
    const replay = await t.call('POST', '/sso/oauth/callback', { headers, body });
    expect(replay.status).toBe(400);
    expect(((await replay.json()) as { code: string }).code).toBe('STATE_INVALID');
  });

  it('a sign-in started before the domain changed is not finished with the unproven settings', async () => {
    const from = address();
    const auth = await t.call('POST', '/sso/oauth/authorize', {
      body: { email: 'owner@acme.test' },
      headers: { 'x-forwarded-for': from },
    });
    const back = await new Browser().signInAtIdp(((await auth.json()) as { url: string }).url, 'owner@acme.test');
    await t.db.tenant(t.account('acme').id, (trx) => trx.updateTable('sso_settings').set({ domain_verified_at: null }).execute());
    try {
      const res = await t.call('POST', '/sso/oauth/callback', {
        headers: { cookie: flowCookie(auth), 'x-forwarded-for': from },
        body: {
          code: back.searchParams.get('code'),
          state: back.searchParams.get('state'),
          iss: back.searchParams.get('iss') ?? undefined,
        },
      });
      expect(res.status).toBe(404);
    } finally {
      await t.db.tenant(t.account('acme').id, (trx) =>
        trx.updateTable('sso_settings').set({ domain_verified_at: new Date() }).execute(),
      );
    }
  });

  it("joining through SSO on an invitation marks another account's invitation for the same person declined", async () => {
    const email = 'invited.sso@acme.test';
    expect((await t.call('POST', '/invitations', { as: 'owner@globex.test', body: { email } })).status).toBe(201);
    expect((await t.call('POST', '/invitations', { as: 'owner@acme.test', body: { email, role: 'supervisor' } })).status).toBe(
      201,
    );
    const res = await ssoSignIn(t, email);
    expect(res.status).toBe(200);
    expect(decodeJwt(((await res.json()) as { token: string }).token)).toMatchObject({
      email,
      role: 'supervisor',
      acc: t.account('acme').id,
    });
    const globex = (await (await t.call('GET', '/invitations', { as: 'owner@globex.test' })).json()) as {
      email: string;
      status: string;
    }[];
    expect(globex.find((i) => i.email === email)?.status).toBe('accepted-elsewhere');
  });

  it('without the admin group configured, only listed admins enter', async () => {
    await t.call('POST', '/sso', { as: 'owner@acme.test', body: okta({ adminGroupId: '', clientSecret: '' }) });
    const res = await ssoSignIn(t, 'another.person@acme.test', 'sb-admins');
    expect(res.status).toBe(403);
    expect((await ssoSignIn(t, 'owner@acme.test')).status).toBe(200);
  });

  it('a Zoom or Webex user of a proven SSO domain (which host tokens cannot show groups of) may act as an agent of its account', async () => {
    const corp = 'someone@acme-corp.test';
    const saved = await t.call('POST', '/sso', { as: 'owner@acme.test', body: okta({ domain: 'acme-corp.test' }) });
    expect(saved.ok).toBe(true);
    expect(await agentAccountFor(t.deps, corp)).toBeNull();
    await prove();
    expect(await agentAccountFor(t.deps, corp)).toBe(t.account('acme').id);
  });
});
