import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as v from 'valibot';
import type { ZoomConfig } from '../../api/config';
import { ZoomLoginAnswerSchema } from '../../api/contract/hosts';
import { encryptZoomContext, startZoomPeer, type ZoomPeer } from '../fixtures/host-peers';
import { DATABASE_KINDS, useTestContext } from './helpers';

const APP_SECRET = 'zoom-app-client-secret-for-tests';
const APP_ID = 'zoom-app-client-id';

// Filled in once the loopback Zoom peer listens; the API reads it per request.
const zoom: ZoomConfig = {
  clientId: APP_ID,
  clientSecret: APP_SECRET,
  accountId: '',
  apiClientId: '',
  apiClientSecret: '',
  apiUrl: '',
  oauthUrl: '',
};
let peer: ZoomPeer;

beforeAll(async () => {
  peer = await startZoomPeer([
    { id: 'z-owner', email: 'owner@acme.test', first_name: 'Olivia', last_name: 'Owens' },
    { id: 'z-super', email: 'Supervisor@Acme.test', first_name: 'Sam', last_name: 'Silva' },
    { id: 'z-stranger', email: 'stranger@acme.test', first_name: 'Stan', last_name: 'Ger' },
    { id: 'z-new', email: 'founder@zoomco.test', first_name: 'Zed', last_name: 'Oom' },
    { id: 'z-unverified', email: 'admin@acme.test', verified: 0 },
  ]);
  Object.assign(zoom, {
    accountId: peer.accountId,
    apiClientId: peer.clientId,
    apiClientSecret: peer.clientSecret,
    apiUrl: peer.apiUrl,
    oauthUrl: peer.oauthUrl,
  });
});
afterAll(() => peer?.close());

describe.each(DATABASE_KINDS)('sign-in from Zoom (%s)', (kind) => {
  const t = useTestContext(kind, { zoom });

  const context = (overrides: Record<string, unknown> = {}, secret = APP_SECRET) =>
    encryptZoomContext(
      {
        typ: 'panel',
        uid: 'z-owner',
        iss: 'marketplace.zoom.us',
        aud: APP_ID,
        ts: t.clock.now.getTime(),
        exp: t.clock.now.getTime() + 5 * 60_000,
        ...overrides,
      },
      secret,
      { aad: 'zoom' },
    );
  const signIn = (ctx: unknown) => t.call('POST', '/zoom/context', { body: { context: ctx } });

  it('an admin in Zoom gets a session token and the owner role', async () => {
    const res = await signIn(context());
    expect(res.status).toBe(200);
    const body = v.parse(ZoomLoginAnswerSchema, await res.json());
    expect(body.role).toBe('owner');
    const me = await t.call('GET', '/admins/bootstrap', { token: body.token });
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({ email: 'owner@acme.test', account: { id: t.account('acme').id } });
  });

  it('a supervisor signs in but the answer says supervisor, so the UI shows the not-authorized card', async () => {
    const res = await signIn(context({ uid: 'z-super' }));
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ role: 'supervisor' });
  });

  it('a Zoom user of a company new to Switchboard gets a new account, remembered as a Zoom account', async () => {
    const res = await signIn(context({ uid: 'z-new' }));
    expect(res.status).toBe(200);
    const body = v.parse(ZoomLoginAnswerSchema, await res.json());
    expect(body.role).toBe('owner');
    const me = (await (await t.call('GET', '/admins/bootstrap', { token: body.token })).json()) as {
      account: { id: string; name: string };
    };
    const account = await t.db.tenant(me.account.id, (trx) =>
      trx.selectFrom('accounts').select(['platform', 'name']).executeTakeFirstOrThrow(),
    );
    expect(account).toEqual({ platform: 'zoom', name: 'Zoomco' });
  });

  it('a Zoom user of a company that has an account, who is no admin, gets an agent session that only runs agent actions', async () => {
    const res = await signIn(context({ uid: 'z-stranger' }));
    expect(res.status).toBe(200);
    const body = v.parse(ZoomLoginAnswerSchema, await res.json());
    expect(body.role).toBe('agent');
    expect((await t.call('GET', '/agent/apps', { token: body.token })).status).toBe(200);
    expect((await t.call('GET', '/admins/bootstrap', { token: body.token })).status).toBe(403);
  });

  it('an expired context is refused', async () => {
    const res = await signIn(context({ exp: t.clock.now.getTime() - 1 }));
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ code: 'ZOOM_CONTEXT_EXPIRED' });
  });

  it('a context made for another Zoom app (wrong aud) is refused', async () => {
    const res = await signIn(context({ aud: 'someone-elses-app' }));
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ code: 'ZOOM_CONTEXT_INVALID' });
  });

  it('a context not issued by the Zoom marketplace (wrong iss) is refused', async () => {
    const res = await signIn(context({ iss: 'evil.example' }));
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ code: 'ZOOM_CONTEXT_INVALID' });
  });

  it('a context with a tampered tag is refused', async () => {
    const buf = Buffer.from(context(), 'base64');
    buf[buf.length - 1]! ^= 0x01;
    const res = await signIn(buf.toString('base64'));
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ code: 'ZOOM_CONTEXT_INVALID' });
  });

  it('a context encrypted with another secret is refused', async () => {
    const res = await signIn(context({}, 'not-our-client-secret'));
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ code: 'ZOOM_CONTEXT_INVALID' });
  });

  it('garbage and truncated contexts are refused with 401, never a 500', async () => {
    const whole = Buffer.from(context(), 'base64');
    for (const ctx of [
      'not base64 at all!',
      'AAAA',
      Buffer.from([200]).toString('base64'),
      whole.subarray(0, whole.length - 3).toString('base64'),
      Buffer.concat([whole, Buffer.from([0])]).toString('base64'),
    ]) {
      const res = await signIn(ctx);
      expect(res.status, ctx).toBe(401);
      expect(await res.json()).toMatchObject({ code: 'ZOOM_CONTEXT_INVALID' });
    }
  });

  it('a missing context answers 400 VALIDATION_FAILED', async () => {
    const res = await t.call('POST', '/zoom/context', { body: {} });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 'VALIDATION_FAILED', fields: { context: expect.any(String) } });
  });

  it('a guest (no Zoom user id in the context) is asked to sign in to Zoom', async () => {
    const res = await signIn(context({ uid: undefined }));
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ code: 'ZOOM_GUEST' });
  });

  it('a Zoom user with an unconfirmed e-mail is not signed in as the admin with that address', async () => {
    const res = await signIn(context({ uid: 'z-unverified' }));
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ code: 'ZOOM_USER_UNVERIFIED' });
  });

  it('the server-to-server token is fetched once and reused', async () => {
    const before = peer.tokenRequests;
    expect((await signIn(context())).status).toBe(200);
    expect((await signIn(context())).status).toBe(200);
    expect(peer.tokenRequests - before).toBeLessThanOrEqual(1);
  });

  it('Zoom failing answers 502 ZOOM_UNAVAILABLE (the UI shows a generic error)', async () => {
    peer.failWith = 503;
    try {
      const res = await signIn(context());
      expect(res.status).toBe(502);
      expect(await res.json()).toMatchObject({ code: 'ZOOM_UNAVAILABLE' });
    } finally {
      peer.failWith = null;
    }
  });

  it('without a Zoom client secret the server answers 503 ZOOM_NOT_CONFIGURED', async () => {
    zoom.clientSecret = '';
    try {
      const res = await signIn(context());
      expect(res.status).toBe(503);
      expect(await res.json()).toMatchObject({ code: 'ZOOM_NOT_CONFIGURED' });
    } finally {
      zoom.clientSecret = APP_SECRET;
    }
  });
});
