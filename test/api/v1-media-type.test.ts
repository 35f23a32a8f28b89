import { beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS, useTestContext } from './helpers';

// /api/v1 takes JSON only: a body of another type answers 415 (JSON read from text/plain would
// let a form or a simple cross-site request in); a request without a body is not refused.

describe.each(DATABASE_KINDS)('/api/v1 bodies are JSON (%s)', (kind) => {
  const t = useTestContext(kind);
  let key: string;
  beforeAll(async () => {
    expect((await t.call('POST', '/sms', { as: 'owner@acme.test', body: { provider: 'dev-outbox' } })).status).toBe(200);
    key = ((await (await t.call('GET', '/accounts/developer', { as: 'owner@acme.test' })).json()) as { secretKey: string })
      .secretKey;
  });
  const post = (path: string, body: string | undefined, type?: string) =>
    t.app.request(`/api/v1${path}`, {
      method: 'POST',
      body,
      headers: { authorization: `Bearer ${key}`, ...(type ? { 'content-type': type } : {}) },
    });

  it('JSON sent as text/plain answers 415 UNSUPPORTED_MEDIA_TYPE and sends nothing', async () => {
    const res = await post('/otp/send', JSON.stringify({ phoneNumber: '+12025550111' }), 'text/plain');
    expect(res.status).toBe(415);
    expect(await res.json()).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE' });
  });

  it('a form body answers 415', async () => {
    expect((await post('/otp/send', 'phoneNumber=%2B12025550112', 'application/x-www-form-urlencoded')).status).toBe(415);
  });

  it('application/json with a charset, and a +json type, are taken', async () => {
    expect(
      (await post('/otp/send', JSON.stringify({ phoneNumber: '+12025550113' }), 'application/json; charset=utf-8')).status,
    ).toBe(201);
    expect((await post('/otp/send', JSON.stringify({ phoneNumber: '+12025550114' }), 'application/vnd.api+json')).status).toBe(
      201,
    );
  });

  it('a POST without a body is not refused', async () => {
    const sent = (await (
      await post('/otp/send', JSON.stringify({ phoneNumber: '+12025550115' }), 'application/json')
    ).json()) as { id: string };
    expect((await post(`/otp/${sent.id}/cancel`, undefined)).status).toBe(200);
  });
});
