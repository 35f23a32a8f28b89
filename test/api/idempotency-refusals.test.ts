import { beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS, useTestContext, type TestContext } from './helpers';

// Idempotency-Key keeps an answer only when the service began a change (docs/api.md#idempotency):
// a refusal before any write (a validation failure, a rate limit, a hold, a policy an admin can
// lift) is not kept, so the same key is tried afresh once the cause is gone.

async function apiKeyOf(t: TestContext, owner: string): Promise<string> {
  const res = await t.call('GET', '/accounts/developer', { as: owner });
  return ((await res.json()) as { secretKey: string }).secretKey;
}

describe.each(DATABASE_KINDS)('Idempotency-Key and refusals (%s)', (kind) => {
  const t = useTestContext(kind);
  let key: string;
  const send = (body: unknown, idem: string) =>
    t.call('POST', '/v1/otp/send', { body, headers: { authorization: `Bearer ${key}`, 'Idempotency-Key': idem } });
  beforeAll(async () => {
    expect((await t.call('POST', '/sms', { as: 'owner@acme.test', body: { provider: 'dev-outbox' } })).status).toBe(200);
    key = await apiKeyOf(t, 'owner@acme.test');
  });

  it('a send refused because its country is not allowed is tried afresh with the same key once an admin allows it', async () => {
    const body = { phoneNumber: '+447400123999' };
    const refused = await send(body, 'idem-country');
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ code: 'COUNTRY_NOT_ALLOWED' });
    expect((await t.call('PUT', '/sms/guard', { as: 'owner@acme.test', body: { allowedCountries: ['US', 'GB'] } })).status).toBe(
      200,
    );
    const again = await send(body, 'idem-country');
    expect(again.headers.get('idempotent-replayed')).toBeNull();
    expect(again.status).toBe(201);
    // and that success is kept
    const replayed = await send(body, 'idem-country');
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(await replayed.json()).toEqual(await again.json());
  });

  it('a validation failure is not kept: the same key with the same body is checked again, not replayed', async () => {
    const body = { phoneNumber: '4155550100' };
    expect((await send(body, 'idem-invalid')).status).toBe(400);
    const again = await send(body, 'idem-invalid');
    expect(again.status).toBe(400);
    expect(again.headers.get('idempotent-replayed')).toBeNull();
  });

  it('a send refused by the per-number limit (TOO_MANY_SENDS) goes through with the same key once the limit has passed', async () => {
    const phone = { phoneNumber: '+12025553999' };
    for (let i = 0; i < 5; i++) expect((await send(phone, `idem-limit-${i}`)).status).toBeLessThan(300);
    const refused = await send(phone, 'idem-limit');
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({ code: 'TOO_MANY_SENDS' });
    t.clock.now = new Date(t.clock.now.getTime() + 11 * 60_000);
    const again = await send(phone, 'idem-limit');
    expect(again.headers.get('idempotent-replayed')).toBeNull();
    expect(again.status).toBeLessThan(300);
  });
});
