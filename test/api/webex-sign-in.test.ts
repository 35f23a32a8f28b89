import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { generateKeyPair } from 'jose';
import type { WebexConfig } from '../../api/config';
import { TokenAnswerSchema, TokenPayloadSchema } from '../../api/contract/session';
import { issuerAllowed } from '../../api/identity/webex';
import { startWebexPeer, type WebexPeer } from '../fixtures/host-peers';
import { DATABASE_KINDS, useTestContext } from './helpers';

const APP_ID = 'Y2lzY29zcGFyazovL3VzL0FQUExJQ0FUSU9OL3Rlc3Q';

/** filled in once the loopback broker listens */
const allowedIssuers: string[] = [];
let broker: WebexPeer;
let rogue: WebexPeer;

beforeAll(async () => {
  broker = await startWebexPeer(APP_ID);
  rogue = await startWebexPeer(APP_ID);
  allowedIssuers.push(broker.issuer);
});
afterAll(async () => {
  await broker?.close();
  await rogue?.close();
});

const payloadOf = (token: string) =>
  v.parse(TokenPayloadSchema, JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()));

describe.each(DATABASE_KINDS)('sign-in from Webex (%s)', (kind) => {
  // Its own config object per database kind: the key cache belongs to a configuration.
  const webex: WebexConfig = { appId: APP_ID, allowedIssuers };
  const t = useTestContext(kind, { webex });
  const signIn = (accessToken: string) => t.call('POST', '/webex/authenticate', { body: { accessToken } });
  const user = (email: string, name = 'Olivia Owens') => ({
    email,
    name,
    email_verified: true,
    'com.cisco.user.orgid': 'org-1',
    'com.cisco.user.level': ['admin'],
  });

  it('an admin in Webex gets a session token for their account', async () => {
    const res = await signIn(await broker.sign(user('owner@acme.test'), { now: t.clock.now }));
    expect(res.status).toBe(200);
    const { token } = v.parse(TokenAnswerSchema, await res.json());
    expect(payloadOf(token)).toMatchObject({ email: 'owner@acme.test', role: 'owner', acc: t.account('acme').id });
    expect((await t.call('GET', '/admins/bootstrap', { token })).status).toBe(200);
  });

  it('a supervisor gets a token whose role is supervisor (the UI shows the not-authorized card)', async () => {
    const res = await signIn(await broker.sign(user('supervisor@acme.test'), { now: t.clock.now }));
    expect(res.status).toBe(200);
    expect(payloadOf(v.parse(TokenAnswerSchema, await res.json()).token).role).toBe('supervisor');
  });

  it('a Webex user of a new company gets a new account, remembered as a Webex account', async () => {
    const res = await signIn(await broker.sign(user('lead@webexco.test', 'Wendy Bex Lee'), { now: t.clock.now }));
    expect(res.status).toBe(200);
    const p = payloadOf(v.parse(TokenAnswerSchema, await res.json()).token);
    expect(p.role).toBe('owner');
    const row = await t.db.tenant(p.acc, (trx) =>
      trx
        .selectFrom('accounts')
        .innerJoin('admins', 'admins.account_id', 'accounts.id')
        .select(['accounts.platform', 'admins.first_name', 'admins.last_name'])
        .executeTakeFirstOrThrow(),
    );
    expect(row).toEqual({ platform: 'webex', first_name: 'Wendy', last_name: 'Bex Lee' });
  });

  it('a Webex user of a company that has an account, who is no admin, gets an agent session that only runs agent actions', async () => {
    const res = await signIn(await broker.sign(user('someone.else@acme.test'), { now: t.clock.now }));
    expect(res.status).toBe(200);
    const { token } = (await res.json()) as { token: string };
    const apps = (await (await t.call('GET', '/agent/apps', { token })).json()) as { apps: { id: string }[] };
    expect(apps.apps.map((a) => a.id)).toContain('one-time-passcode');
    expect((await t.call('GET', '/admins/bootstrap', { token })).status).toBe(403);
  });

  it('an expired token is refused', async () => {
    const res = await signIn(await broker.sign(user('owner@acme.test'), { now: new Date(t.clock.now.getTime() - 2 * 3600_000) }));
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ code: 'WEBEX_TOKEN_EXPIRED' });
  });

  it('a token for another embedded app (wrong aud) is refused', async () => {
    const res = await signIn(await broker.sign(user('owner@acme.test'), { now: t.clock.now, audience: 'another-app' }));
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ code: 'WEBEX_TOKEN_INVALID' });
  });

  it('a token from an issuer that is not an allowed Webex broker is refused without fetching its key', async () => {
    const before = rogue.keyRequests;
    const res = await signIn(await rogue.sign(user('owner@acme.test'), { now: t.clock.now }));
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ code: 'WEBEX_ISSUER_NOT_ALLOWED' });
    expect(rogue.keyRequests).toBe(before);
  });

  it('a token claiming the broker as issuer but signed with another key is refused', async () => {
    const other = await generateKeyPair('RS256');
    const res = await signIn(await broker.sign(user('owner@acme.test'), { now: t.clock.now, key: other.privateKey }));
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ code: 'WEBEX_TOKEN_INVALID' });
  });

  it('a token signed with HS256 (algorithm confusion) or unsigned is refused', async () => {
    const { SignJWT } = await import('jose');
    const iat = Math.floor(t.clock.now.getTime() / 1000);
    const hs = await new SignJWT(user('owner@acme.test'))
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer(broker.issuer)
      .setAudience(APP_ID)
      .setIssuedAt(iat)
      .setExpirationTime(iat + 600)
      .sign(new TextEncoder().encode('x'.repeat(32)));
    const none = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${hs.split('.')[1]}.`;
    for (const token of [hs, none, 'not-a-jwt']) {
      const res = await signIn(token);
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ code: 'WEBEX_TOKEN_INVALID' });
    }
  });

  it("the broker's key is fetched once and cached", async () => {
    await signIn(await broker.sign(user('owner@acme.test'), { now: t.clock.now }));
    const before = broker.keyRequests;
    for (let i = 0; i < 3; i++)
      expect((await signIn(await broker.sign(user('owner@acme.test'), { now: t.clock.now }))).status).toBe(200);
    expect(broker.keyRequests).toBe(before);
  });

  it('after the broker rotates its key, the new key is fetched and tokens verify again', async () => {
    await broker.rotate();
    const saved = t.clock.now;
    t.clock.now = new Date(saved.getTime() + 2 * 60_000);
    try {
      const res = await signIn(await broker.sign(user('owner@acme.test'), { now: t.clock.now }));
      expect(res.status).toBe(200);
    } finally {
      t.clock.now = saved;
    }
  });

  it('a missing token answers 400 VALIDATION_FAILED', async () => {
    const res = await t.call('POST', '/webex/authenticate', { body: { accessToken: '' } });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 'VALIDATION_FAILED', fields: { accessToken: expect.any(String) } });
  });
});

describe('Webex issuer allow list', () => {
  const defaults = ['https://idbroker.webex.com/idb', 'https://idbroker-*.webex.com/idb'];
  it('accepts the Webex identity brokers', () => {
    expect(issuerAllowed('https://idbroker.webex.com/idb', defaults)).toBe(true);
    expect(issuerAllowed('https://idbroker-eu.webex.com/idb', defaults)).toBe(true);
    expect(issuerAllowed('https://idbroker-b-us.webex.com/idb', defaults)).toBe(true);
  });
  it('refuses look-alike hosts, other paths, plain http and credentials in the URL', () => {
    for (const iss of [
      'https://idbroker.webex.com.evil.test/idb',
      'https://evil.test/idbroker.webex.com/idb',
      'https://a.b.idbroker-x.webex.com/idb',
      'https://idbroker-x.evil.webex.com/idb',
      'https://idbroker.webex.com/other',
      'http://idbroker.webex.com/idb',
      'https://u:p@idbroker.webex.com/idb',
      'https://idbroker.webex.com/idb?x=1',
      'nonsense',
    ]) {
      expect(issuerAllowed(iss, defaults), iss).toBe(false);
    }
  });
});
