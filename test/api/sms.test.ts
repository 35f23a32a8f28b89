import { describe, expect, it, beforeAll, afterAll } from 'vitest';
import { DATABASE_KINDS, useTestContext } from './helpers';
import { json, startPeer, type Peer } from './peers';
import { sendSms } from '../../api/integrations/twilio';
import type { Config } from '../../api/config';
import { ApiError } from '../../api/http/errors';
import { decryptSecret } from '../../api/crypto';

const SID = 'AC0123456789abcdef0123456789abcdef';
const TOKEN = 'twilio-auth-token-secret-value';

/** A fake Twilio REST API: one account, basic auth, Messages.json with Twilio's error bodies. */
async function fakeTwilio(): Promise<Peer> {
  return startPeer((req, res) => {
    const auth = Buffer.from((req.headers.authorization ?? '').replace(/^Basic /, ''), 'base64').toString();
    const authed = auth === `${SID}:${TOKEN}`;
    if (req.method === 'GET' && req.path === `/2010-04-01/Accounts/${SID}.json`) {
      if (!authed) return json(res, 401, { code: 20003, message: 'Authenticate', status: 401 });
      return json(res, 200, { sid: SID, status: 'active', friendly_name: 'Acme' });
    }
    if (req.method === 'POST' && req.path === `/2010-04-01/Accounts/${SID}/Messages.json`) {
      if (!authed) return json(res, 401, { code: 20003, message: 'Authenticate', status: 401 });
      if (req.headers['content-type'] !== 'application/x-www-form-urlencoded') return json(res, 415, { message: 'form please' });
      const form = new URLSearchParams(req.body);
      const to = form.get('To');
      if (to === '+15005550001')
        return json(res, 400, { code: 21211, message: "The 'To' number +15005550001 is not a valid phone number.", status: 400 });
      if (to === '+15005550009') return json(res, 429, { code: 20429, message: 'Too Many Requests', status: 429 });
      if (to === '+15005550010') return json(res, 500, { message: 'boom' });
      return json(res, 201, { sid: 'SM' + 'f'.repeat(32), status: 'queued', to, from: form.get('From'), body: form.get('Body') });
    }
    if (req.method === 'GET' && req.path.startsWith('/2010-04-01/Accounts/'))
      return json(res, 401, { code: 20003, message: 'Authenticate', status: 401 });
    json(res, 404, { message: 'not found' });
  });
}

describe.each(DATABASE_KINDS)('SMS configuration (%s)', (kind) => {
  let twilio: Peer;
  const overrides: Partial<Config> = {};
  beforeAll(async () => {
    twilio = await fakeTwilio();
    overrides.twilioApiUrl = twilio.url;
    overrides.outboundAllowHosts = [twilio.host];
  });
  afterAll(() => twilio.close());
  const t = useTestContext(kind, overrides);
  const body = { provider: 'twilio', twilio: { accountSid: SID, authToken: TOKEN, phoneNumber: '+14155550100' } };

  it('nothing is configured at first', async () => {
    const res = await t.call('GET', '/sms', { as: 'admin@acme.test' });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ provider: null, devOutboxAvailable: true });
  });

  it('missing fields answer 400 with the messages of the form', async () => {
    const res = await t.call('POST', '/sms', {
      as: 'admin@acme.test',
      body: { provider: 'twilio', twilio: { accountSid: '', authToken: ' ', phoneNumber: '4155550100' } },
    });
    expect(res.status).toBe(400);
    expect((await res.json()).fields).toEqual({
      'twilio.accountSid': 'Account SID is required',
      'twilio.authToken': 'Auth Token is required',
      'twilio.phoneNumber': 'Phone number must be in e164 format (with leading + and country code)',
    });
  });

  it('credentials Twilio refuses answer 422 and nothing is saved', async () => {
    const res = await t.call('POST', '/sms', {
      as: 'admin@acme.test',
      body: { ...body, twilio: { ...body.twilio, authToken: 'wrong' } },
    });
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({ code: 'TWILIO_INVALID_CREDENTIALS' });
    expect(await (await t.call('GET', '/sms', { as: 'admin@acme.test' })).json()).toEqual({
      provider: null,
      devOutboxAvailable: true,
    });
  });

  it('saving checks the credentials with Twilio and answers the account SID, never the token', async () => {
    twilio.received.length = 0;
    const res = await t.call('POST', '/sms', { as: 'admin@acme.test', body });
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(JSON.parse(text)).toEqual({
      provider: 'twilio',
      twilio: { accountSid: SID, phoneNumber: '+14155550100' },
      devOutboxAvailable: true,
    });
    expect(text).not.toContain(TOKEN);
    const check = twilio.received.find((r) => r.path === `/2010-04-01/Accounts/${SID}.json`)!;
    expect(check.method).toBe('GET');
    expect(check.headers.authorization).toBe(`Basic ${Buffer.from(`${SID}:${TOKEN}`).toString('base64')}`);
  });

  it('the auth token is stored encrypted and GET never shows it', async () => {
    const acme = t.account('acme');
    const row = await t.db.tenant(acme.id, (trx) => trx.selectFrom('sms_settings').selectAll().executeTakeFirstOrThrow());
    expect(row.auth_token_enc).not.toContain(TOKEN);
    expect(row.auth_token_enc.startsWith('v1.')).toBe(true);
    const text = await (await t.call('GET', '/sms', { as: 'owner@acme.test' })).text();
    expect(text).not.toContain(TOKEN);
    expect(JSON.parse(text)).toEqual({
      provider: 'twilio',
      twilio: { accountSid: SID, phoneNumber: '+14155550100' },
      devOutboxAvailable: true,
    });
  });

  it('the change is in the audit log', async () => {
    const rows = await t.db.tenant(t.account('acme').id, (trx) =>
      trx.selectFrom('audit_log').selectAll().where('event', '=', 'sms.configured').execute(),
    );
    expect(rows).toHaveLength(1);
    expect(rows[0].description).not.toContain(TOKEN);
  });

  it('managing Twilio with a blank auth token keeps the stored token and checks with it', async () => {
    const acme = t.account('acme');
    const before = await t.db.tenant(acme.id, (trx) => trx.selectFrom('sms_settings').selectAll().executeTakeFirstOrThrow());
    twilio.received.length = 0;
    const res = await t.call('POST', '/sms', {
      as: 'admin@acme.test',
      body: { provider: 'twilio', twilio: { accountSid: SID, authToken: '', phoneNumber: '+14155550199' } },
    });
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).not.toContain(TOKEN);
    expect(JSON.parse(text)).toEqual({
      provider: 'twilio',
      twilio: { accountSid: SID, phoneNumber: '+14155550199' },
      devOutboxAvailable: true,
    });
    // the check against Twilio used the stored token
    const check = twilio.received.find((r) => r.path === `/2010-04-01/Accounts/${SID}.json`)!;
    expect(check.headers.authorization).toBe(`Basic ${Buffer.from(`${SID}:${TOKEN}`).toString('base64')}`);
    const after = await t.db.tenant(acme.id, (trx) => trx.selectFrom('sms_settings').selectAll().executeTakeFirstOrThrow());
    expect(after.auth_token_enc).toBe(before.auth_token_enc);
    expect(decryptSecret(after.auth_token_enc, t.deps.config.encryptionKey)).toBe(TOKEN);
    expect(after.phone_number).toBe('+14155550199');
    // an omitted token is the same as a blank one
    const omitted = await t.call('POST', '/sms', {
      as: 'admin@acme.test',
      body: { provider: 'twilio', twilio: { accountSid: SID, phoneNumber: '+14155550100' } },
    });
    expect(omitted.status).toBe(200);
    expect(
      await t.db.tenant(acme.id, (trx) => trx.selectFrom('sms_settings').select('auth_token_enc').executeTakeFirstOrThrow()),
    ).toEqual({ auth_token_enc: before.auth_token_enc });
  });

  it('another Account SID with a blank auth token asks for the token again and calls nobody', async () => {
    const acme = t.account('acme');
    const before = await t.db.tenant(acme.id, (trx) => trx.selectFrom('sms_settings').selectAll().executeTakeFirstOrThrow());
    twilio.received.length = 0;
    const res = await t.call('POST', '/sms', {
      as: 'admin@acme.test',
      body: { provider: 'twilio', twilio: { accountSid: 'AC' + 'e'.repeat(32), authToken: '', phoneNumber: '+14155550100' } },
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      requestId: expect.any(String),
      code: 'VALIDATION_FAILED',
      message: 'Auth Token is required',
      fields: { 'twilio.authToken': 'Auth Token is required' },
    });
    expect(twilio.received).toHaveLength(0);
    expect(await t.db.tenant(acme.id, (trx) => trx.selectFrom('sms_settings').selectAll().executeTakeFirstOrThrow())).toEqual(
      before,
    );
  });

  it.each([
    ['a line feed', `${TOKEN}\nX-Evil: 1`],
    ['a NUL', `${TOKEN}\u0000`],
    ['a DEL', `${TOKEN}\u007fx`],
  ])('an auth token or SID containing %s is refused before Twilio is called', async (_what, bad) => {
    twilio.received.length = 0;
    for (const twilioBody of [
      { ...body.twilio, authToken: bad },
      { ...body.twilio, accountSid: `${SID}\r\nx` },
    ]) {
      const res = await t.call('POST', '/sms', { as: 'owner@globex.test', body: { provider: 'twilio', twilio: twilioBody } });
      expect(res.status).toBe(400);
      expect(Object.values((await res.json()).fields)).toEqual(['Must not contain line breaks or other control characters']);
    }
    expect(twilio.received).toHaveLength(0);
  });

  it('managing Twilio with a wrong new token is refused and the stored token stays', async () => {
    const acme = t.account('acme');
    const before = await t.db.tenant(acme.id, (trx) => trx.selectFrom('sms_settings').selectAll().executeTakeFirstOrThrow());
    const res = await t.call('POST', '/sms', {
      as: 'admin@acme.test',
      body: { ...body, twilio: { ...body.twilio, authToken: 'wrong' } },
    });
    expect(res.status).toBe(422);
    const after = await t.db.tenant(acme.id, (trx) => trx.selectFrom('sms_settings').selectAll().executeTakeFirstOrThrow());
    expect(after.auth_token_enc).toBe(before.auth_token_enc);
  });

  it('a first connect with a blank auth token still answers Auth Token is required', async () => {
    const res = await t.call('POST', '/sms', {
      as: 'owner@globex.test',
      body: { provider: 'twilio', twilio: { accountSid: SID, authToken: '  ', phoneNumber: '+14155550100' } },
    });
    expect(res.status).toBe(400);
    expect((await res.json()).fields).toEqual({ 'twilio.authToken': 'Auth Token is required' });
    expect(await (await t.call('GET', '/sms', { as: 'owner@globex.test' })).json()).toEqual({
      provider: null,
      devOutboxAvailable: true,
    });
  });

  it("another account does not see Acme's settings", async () => {
    expect(await (await t.call('GET', '/sms', { as: 'owner@globex.test' })).json()).toEqual({
      provider: null,
      devOutboxAvailable: true,
    });
  });

  it('a supervisor cannot read or change SMS settings', async () => {
    expect((await t.call('GET', '/sms', { as: 'supervisor@acme.test' })).status).toBe(403);
    expect((await t.call('POST', '/sms', { as: 'supervisor@acme.test', body })).status).toBe(403);
  });

  it('sendSms posts the message form-encoded with basic auth', async () => {
    twilio.received.length = 0;
    const sent = await sendSms(t.deps, t.account('acme').id, '+447700900123', 'Your code is 123456');
    expect(sent).toEqual({ sid: 'SM' + 'f'.repeat(32), status: 'queued' });
    const req = twilio.received[0];
    expect(req.method).toBe('POST');
    expect(req.path).toBe(`/2010-04-01/Accounts/${SID}/Messages.json`);
    expect(req.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(new URLSearchParams(req.body))).toEqual({
      To: '+447700900123',
      From: '+14155550100',
      Body: 'Your code is 123456',
    });
  });

  it.each([
    ['+15005550001', 'SMS_INVALID_NUMBER', 422],
    ['+15005550009', 'SMS_RATE_LIMITED', 429],
    ['+15005550010', 'TWILIO_UNAVAILABLE', 502],
    ['07700900123', 'SMS_INVALID_NUMBER', 422],
  ])('sendSms maps Twilio errors: %s -> %s', async (to, code, status) => {
    const err = await sendSms(t.deps, t.account('acme').id, to, 'hi').catch((e) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ code, status });
  });

  it('sendSms for an account without SMS says so', async () => {
    const err = await sendSms(t.deps, t.account('globex').id, '+447700900123', 'hi').catch((e) => e);
    expect(err).toMatchObject({ code: 'SMS_NOT_CONFIGURED', status: 409 });
  });

  it('disconnecting removes the settings and is audited', async () => {
    const res = await t.call('DELETE', '/sms', { as: 'admin@acme.test' });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ provider: null, devOutboxAvailable: true });
    expect(await (await t.call('GET', '/sms', { as: 'admin@acme.test' })).json()).toEqual({
      provider: null,
      devOutboxAvailable: true,
    });
    const rows = await t.db.tenant(t.account('acme').id, (trx) =>
      trx.selectFrom('audit_log').selectAll().where('event', '=', 'sms.disconnected').execute(),
    );
    expect(rows).toHaveLength(1);
  });
});

describe('SMS configuration without the loopback allowlist', () => {
  const t = useTestContext('pglite', { twilioApiUrl: 'http://127.0.0.1:9' });
  it('a Twilio base URL on a private address is refused, not called', async () => {
    const res = await t.call('POST', '/sms', {
      as: 'admin@acme.test',
      body: { provider: 'twilio', twilio: { accountSid: SID, authToken: TOKEN, phoneNumber: '+14155550100' } },
    });
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({ code: 'TARGET_NOT_ALLOWED' });
  });
});
