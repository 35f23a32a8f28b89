import { afterAll, describe, expect, it } from 'vitest';
import { decodeJwt } from 'jose';
import * as client from 'openid-client';
import { DATABASE_KINDS, useTestContext, type TestContext } from './helpers';
import { Browser, PUBLIC_URL, flowCookie, startTestIdp } from './oidc-peer';
import { boundedFetch, type OidcFetch } from '../../api/identity/oidc';
import { MAX_FAILURES_PER_ADDRESS, MAX_FAILURES_PER_EMAIL } from '../../api/identity/rate-limit';

// Google-type and Microsoft-type sign-in, end to end against a real OpenID Connect provider on
// loopback: our start route, the provider's pages, our return route.

const idp = await startTestIdp(120);
afterAll(() => idp.close());

/** Swaps the ID token in token answers when a test asks, as a hostile network would. */
const substitute: { idToken?: string } = {};
const networkFetch: OidcFetch = async (url, init) => {
  const res = await boundedFetch(url, init);
  if (!substitute.idToken || !url.endsWith('/token')) return res;
  const body = (await res.json()) as Record<string, unknown>;
  return new Response(JSON.stringify({ ...body, id_token: substitute.idToken }), {
    status: res.status,
    headers: { 'content-type': 'application/json' },
  });
};

let addressSeq = 0;
const freshAddress = () => `198.51.100.${++addressSeq}`;

type Started = { cookie: string; authorizeUrl: string; address: string };

async function start(t: TestContext, provider: 'google' | 'azure', query = '', address = freshAddress()): Promise<Started> {
  const res = await t.call('GET', `/auth/${provider}/start${query}`, { headers: { 'x-forwarded-for': address } });
  expect(res.status).toBe(302);
  return { cookie: flowCookie(res), authorizeUrl: res.headers.get('location')!, address };
}

function postGoogleReturn(t: TestContext, s: Started, back: URL) {
  return t.call('POST', '/oauth/google/callback', {
    headers: { cookie: s.cookie, 'x-forwarded-for': s.address },
    body: {
      code: back.searchParams.get('code'),
      state: back.searchParams.get('state'),
      iss: back.searchParams.get('iss') ?? undefined,
    },
  });
}

async function googleSignIn(t: TestContext, email: string, options: { query?: string; address?: string } = {}) {
  const s = await start(t, 'google', options.query ?? '', options.address);
  const back = await new Browser().signInAtIdp(s.authorizeUrl, email);
  return postGoogleReturn(t, s, back);
}

describe.each(DATABASE_KINDS)('provider sign-in (%s)', (kind) => {
  const t = useTestContext(
    kind,
    {
      signIn: {
        google: { issuer: idp.issuer, clientId: idp.client('google').clientId, clientSecret: idp.client('google').clientSecret },
        azure: { issuer: idp.issuer, clientId: idp.client('azure').clientId, clientSecret: idp.client('azure').clientSecret },
      },
    },
    { oidcFetch: networkFetch },
  );

  it('the Google-type start sends the browser to the provider with PKCE, state and nonce', async () => {
    const s = await start(t, 'google');
    const url = new URL(s.authorizeUrl);
    expect(url.origin + url.pathname).toBe(`${idp.issuer}/auth`);
    expect(url.searchParams.get('scope')).toBe('openid email profile');
    expect(url.searchParams.get('response_type')).toBe('code');
    expect(url.searchParams.get('redirect_uri')).toBe(`${PUBLIC_URL}/`);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('state')).toBeTruthy();
    expect(url.searchParams.get('nonce')).toBeTruthy();
    expect(s.cookie).toBe(`sb_oidc=${url.searchParams.get('state')}`);
  });

  it('an existing admin signs in with the Google-type provider and gets a working session', async () => {
    const res = await googleSignIn(t, 'admin@acme.test');
    expect(res.status).toBe(200);
    const { token } = (await res.json()) as { token: string };
    expect(decodeJwt(token)).toMatchObject({ email: 'admin@acme.test', role: 'admin', acc: t.account('acme').id });
    const boot = await t.call('GET', '/admins/bootstrap', { token });
    expect(boot.status).toBe(200);
  });

  it('an invited person accepts the invitation by signing in and joins with the invited role', async () => {
    const acme = t.account('acme');
    await t.db.tenant(acme.id, (trx) =>
      trx
        .insertInto('invitations')
        .values({
          account_id: acme.id,
          email: 'new.hire@acme.test',
          role: 'supervisor',
          expires_at: new Date(t.clock.now.getTime() + 86_400_000),
          invited_by: null,
        })
        .execute(),
    );
    const res = await googleSignIn(t, 'new.hire@acme.test');
    expect(res.status).toBe(200);
    const { token } = (await res.json()) as { token: string };
    expect(decodeJwt(token)).toMatchObject({ email: 'new.hire@acme.test', role: 'supervisor', acc: acme.id });
    const admin = await t.db.tenant(acme.id, (trx) =>
      trx
        .selectFrom('admins')
        .select(['first_name', 'last_name'])
        .where('email', '=', 'new.hire@acme.test')
        .executeTakeFirstOrThrow(),
    );
    expect(admin).toEqual({ first_name: 'New', last_name: 'Hire' });
  });

  it('someone from a company that already has an account is told to ask their administrator', async () => {
    const res = await googleSignIn(t, 'stranger@acme.test');
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({
      requestId: expect.any(String),
      code: 'ACCOUNT_EXISTS',
      message: 'An account already exists for your company. Please contact your administrator to get access.',
    });
  });

  it('a new company signs up with the Google-type provider and owns a new account on that platform', async () => {
    const res = await googleSignIn(t, 'founder@newco.test', { query: '?signup=1' });
    expect(res.status).toBe(200);
    const claims = decodeJwt(((await res.json()) as { token: string }).token);
    expect(claims.role).toBe('owner');
    const account = await t.db.tenant(claims.acc as string, (trx) =>
      trx.selectFrom('accounts').select(['name', 'platform', 'email_domain']).executeTakeFirstOrThrow(),
    );
    expect(account).toEqual({ name: 'Newco', platform: 'google', email_domain: 'newco.test' });
  });

  it('the Microsoft-type return lands the browser on the console with a session token', async () => {
    const s = await start(t, 'azure');
    expect(new URL(s.authorizeUrl).searchParams.get('redirect_uri')).toBe(`${PUBLIC_URL}/api/auth/azure/callback`);
    const back = await new Browser().signInAtIdp(s.authorizeUrl, 'ceo@contoso-care.test');
    expect(back.pathname).toBe('/api/auth/azure/callback');
    const res = await t.call('GET', `/auth/azure/callback${back.search}`, {
      headers: { cookie: s.cookie, 'x-forwarded-for': s.address },
    });
    expect(res.status).toBe(302);
    const landing = new URL(res.headers.get('location')!, PUBLIC_URL);
    expect(landing.pathname).toBe('/');
    const claims = decodeJwt(landing.searchParams.get('token')!);
    expect(claims).toMatchObject({ email: 'ceo@contoso-care.test', role: 'owner' });
    const account = await t.db.tenant(claims.acc as string, (trx) =>
      trx.selectFrom('accounts').select(['platform']).executeTakeFirstOrThrow(),
    );
    expect(account.platform).toBe('azure');
  });

  it('a new account starts in the time zone of the browser that signed up (Google-type: the posted return names it)', async () => {
    const s = await start(t, 'google', '?signup=1');
    const back = await new Browser().signInAtIdp(s.authorizeUrl, 'founder@zoned-google.test');
    const res = await t.call('POST', '/oauth/google/callback', {
      headers: { cookie: s.cookie, 'x-forwarded-for': s.address, 'x-time-zone': 'America/Chicago' },
      body: {
        code: back.searchParams.get('code'),
        state: back.searchParams.get('state'),
        iss: back.searchParams.get('iss') ?? undefined,
      },
    });
    expect(res.status).toBe(200);
    const claims = decodeJwt(((await res.json()) as { token: string }).token);
    const account = await t.db.tenant(claims.acc as string, (trx) =>
      trx.selectFrom('accounts').select(['time_zone']).executeTakeFirstOrThrow(),
    );
    expect(account.time_zone).toBe('America/Chicago');
  });

  it('a new account starts in the time zone the sign-up button named (Microsoft-type: a redirect carries no header); a bad zone is UTC', async () => {
    for (const [zone, email, expected] of [
      ['Asia/Kolkata', 'ceo@zoned-azure.test', 'Asia/Kolkata'],
      ['Mars/Olympus_Mons', 'ceo@unzoned-azure.test', 'UTC'],
    ] as const) {
      const started = await t.call('GET', `/auth/azure/start?signup=1&timeZone=${encodeURIComponent(zone)}`, {
        headers: { 'x-forwarded-for': freshAddress() },
      });
      const cookies = started.headers.getSetCookie().map((l) => l.split(';')[0]!);
      const authorizeUrl = started.headers.get('location')!;
      const back = await new Browser().signInAtIdp(authorizeUrl, email);
      const res = await t.call('GET', `/auth/azure/callback${back.search}`, {
        headers: { cookie: cookies.join('; '), 'x-forwarded-for': freshAddress() },
      });
      const claims = decodeJwt(new URL(res.headers.get('location')!, PUBLIC_URL).searchParams.get('token')!);
      const account = await t.db.tenant(claims.acc as string, (trx) =>
        trx.selectFrom('accounts').select(['time_zone']).executeTakeFirstOrThrow(),
      );
      expect(account.time_zone, zone).toBe(expected);
    }
  });

  it('a refused Microsoft-type sign-in returns to the sign-in page with the reason', async () => {
    const s = await start(t, 'azure');
    const back = await new Browser().signInAtIdp(s.authorizeUrl, 'someone.else@acme.test');
    const res = await t.call('GET', `/auth/azure/callback${back.search}`, {
      headers: { cookie: s.cookie, 'x-forwarded-for': s.address },
    });
    const landing = new URL(res.headers.get('location')!, PUBLIC_URL);
    expect(landing.searchParams.get('token')).toBeNull();
    expect(landing.searchParams.get('error')).toBe('ACCOUNT_EXISTS');
    expect(landing.searchParams.get('error_description')).toBe(
      'An account already exists for your company. Please contact your administrator to get access.',
    );
  });

  it('a state works once: replaying the provider return is refused', async () => {
    const s = await start(t, 'google');
    const back = await new Browser().signInAtIdp(s.authorizeUrl, 'owner@acme.test');
    expect((await postGoogleReturn(t, s, back)).status).toBe(200);
    const replay = await postGoogleReturn(t, s, back);
    expect(replay.status).toBe(400);
    expect(((await replay.json()) as { code: string }).code).toBe('STATE_INVALID');
  });

  it('a return in a browser that did not start the sign-in is refused', async () => {
    const s = await start(t, 'google');
    const back = await new Browser().signInAtIdp(s.authorizeUrl, 'owner@acme.test');
    const res = await postGoogleReturn(t, { ...s, cookie: 'sb_oidc=someone-elses-state' }, back);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { code: string }).code).toBe('STATE_INVALID');
  });

  it("an ID token with another sign-in's nonce is refused", async () => {
    const s = await start(t, 'google');
    const tampered = new URL(s.authorizeUrl);
    tampered.searchParams.set('nonce', 'a-nonce-this-browser-never-saw');
    const back = await new Browser().signInAtIdp(tampered.href, 'owner@acme.test');
    const res = await postGoogleReturn(t, s, back);
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ code: 'SIGN_IN_FAILED', message: expect.stringContaining('nonce') });
  });

  it('an expired ID token is refused', async () => {
    const s = await start(t, 'google');
    const back = await new Browser().signInAtIdp(s.authorizeUrl, 'owner@acme.test');
    const real = t.clock.now;
    // The provider issues ID tokens for 120 s; five minutes later (flow still open) it is stale.
    t.clock.now = new Date(Date.now() + 5 * 60_000);
    try {
      const res = await postGoogleReturn(t, s, back);
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ code: 'SIGN_IN_FAILED', message: expect.stringContaining('expired') });
    } finally {
      t.clock.now = real;
    }
  });

  it('an ID token minted for another application is refused (wrong audience)', async () => {
    const s = await start(t, 'google');
    const nonce = new URL(s.authorizeUrl).searchParams.get('nonce')!;
    // A genuine token from the same provider, same person and nonce, but for "other-app".
    const other = idp.client('other');
    const otherConfig = await client.discovery(
      new URL(idp.issuer),
      other.clientId,
      undefined,
      client.ClientSecretBasic(other.clientSecret),
      { execute: [client.allowInsecureRequests] },
    );
    const verifier = client.randomPKCECodeVerifier();
    const otherUrl = client.buildAuthorizationUrl(otherConfig, {
      redirect_uri: other.redirectUris[0]!,
      scope: 'openid email profile',
      nonce,
      state: 'x',
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    });
    const otherBack = await new Browser().signInAtIdp(otherUrl.href, 'owner@acme.test', '', 'http://other.test');
    const otherTokens = await client.authorizationCodeGrant(otherConfig, otherBack, {
      pkceCodeVerifier: verifier,
      expectedState: 'x',
      expectedNonce: nonce,
    });
    expect(decodeJwt(otherTokens.id_token!).aud).toBe('other-app');

    const back = await new Browser().signInAtIdp(s.authorizeUrl, 'owner@acme.test');
    substitute.idToken = otherTokens.id_token;
    try {
      const res = await postGoogleReturn(t, s, back);
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({
        code: 'SIGN_IN_FAILED',
        message: 'The ID token was issued to another application. Please sign in again.',
      });
    } finally {
      substitute.idToken = undefined;
    }
  });

  it('rotating the client-written part of X-Forwarded-For does not escape the rate limit', async () => {
    const address = freshAddress();
    for (let i = 0; i < MAX_FAILURES_PER_ADDRESS; i++) {
      // the client writes anything it likes on the left; our one proxy appends what it saw
      const headers = { cookie: 'sb_oidc=forged', 'x-forwarded-for': `203.0.113.${i}, ${address}` };
      expect(
        (await t.call('POST', '/oauth/google/callback', { headers, body: { code: 'c', state: `rotate-${i}` } })).status,
      ).toBe(400);
    }
    const limited = await t.call('POST', '/oauth/google/callback', {
      headers: { 'x-forwarded-for': `192.0.2.250, ${address}` },
      body: { code: 'c', state: 's' },
    });
    expect(limited.status).toBe(429);
  });

  it('repeated failed sign-ins from one address are rate limited with 429', async () => {
    const address = freshAddress();
    for (let i = 0; i < MAX_FAILURES_PER_ADDRESS; i++) {
      const res = await t.call('POST', '/oauth/google/callback', {
        headers: { cookie: 'sb_oidc=forged', 'x-forwarded-for': address },
        body: { code: 'c', state: `forged-${i}` },
      });
      expect(res.status).toBe(400);
    }
    const limited = await t.call('POST', '/oauth/google/callback', {
      headers: { 'x-forwarded-for': address },
      body: { code: 'c', state: 's' },
    });
    expect(limited.status).toBe(429);
    expect(await limited.json()).toMatchObject({
      code: 'RATE_LIMITED',
      message: expect.stringMatching(/^Too many failed sign-in attempts\. Please wait \d+ minutes? and try again\.$/),
    });
    // another address is unaffected
    expect((await googleSignIn(t, 'owner@acme.test')).status).toBe(200);
  });

  it('repeated failed sign-ins for one e-mail are rate limited even from many addresses', async () => {
    for (let i = 0; i < MAX_FAILURES_PER_EMAIL; i++) expect((await googleSignIn(t, 'intruder@acme.test')).status).toBe(403);
    const limited = await googleSignIn(t, 'intruder@acme.test');
    expect(limited.status).toBe(429);
    expect(((await limited.json()) as { message: string }).message).toContain('for this e-mail address');
  });
});
