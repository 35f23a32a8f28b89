import { describe, expect, it } from 'vitest';
import { DATABASE_KINDS, useTestContext } from './helpers';
import { INVALID_API_KEY_USES, INVALID_API_KEYS } from '../../api/apps/platform/v1-guards';

// Wrong secret keys are counted per client address, as failed sign-ins are: each costs a database
// read, and guessing keys is what an attacker does with them.

describe.each(DATABASE_KINDS)('invalid API keys are rate limited per client address (%s)', (kind) => {
  // one trusted proxy: the client address is the last X-Forwarded-For entry
  const t = useTestContext(kind, { trustProxyHops: 1 });
  const { max, windowMs } = INVALID_API_KEYS.limit;
  const call = (key: string, address: string) =>
    t.call('GET', '/v1/otp/00000000-0000-4000-8000-000000000000', {
      headers: { authorization: `Bearer ${key}`, 'x-forwarded-for': address },
    });

  it(`after ${max} wrong keys from one address the next call answers 429 with Retry-After; other addresses are not affected; the next window starts afresh`, async () => {
    const right = (
      (await (await t.call('GET', '/accounts/developer', { as: 'owner@acme.test' })).json()) as { secretKey: string }
    ).secretKey;
    for (let i = 0; i < max; i++) expect((await call(`sk_guess_${i}`, '203.0.113.7')).status).toBe(401);
    const limited = await call('sk_guess_again', '203.0.113.7');
    expect(limited.status).toBe(429);
    expect(await limited.json()).toMatchObject({ code: 'RATE_LIMITED', message: expect.stringMatching(/invalid API key/) });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    // malformed keys count the same
    expect((await call('not-a-key', '203.0.113.7')).status).toBe(429);
    expect((await call('sk_guess', '198.51.100.9')).status).toBe(401);
    expect((await call(right, '198.51.100.9')).status).toBe(404);
    t.clock.now = new Date(t.clock.now.getTime() + windowMs);
    expect((await call('sk_guess', '203.0.113.7')).status).toBe(401);
  });

  it("a right key from an address that others' wrong keys have blocked is let in (the key is checked first)", async () => {
    const right = (
      (await (await t.call('GET', '/accounts/developer', { as: 'owner@acme.test' })).json()) as { secretKey: string }
    ).secretKey;
    // everyone behind one NAT or proxy: one address
    for (let i = 0; i < max; i++) expect((await call(`sk_x${i}`, '203.0.113.50')).status).toBe(401);
    expect((await call('sk_x', '203.0.113.50')).status).toBe(429);
    expect((await call(right, '203.0.113.50')).status).toBe(404);
    // and the wrong keys from there are still refused 429
    expect((await call('sk_x_more', '203.0.113.50')).status).toBe(429);
  });

  it(`one wrong key tried from many addresses is refused 429 after ${INVALID_API_KEY_USES.limit.max} tries; another key is not`, async () => {
    for (let i = 0; i < INVALID_API_KEY_USES.limit.max; i++)
      expect((await call('sk_rotated_long_ago', `198.51.100.${100 + i}`)).status).toBe(401);
    const limited = await call('sk_rotated_long_ago', '198.51.100.200');
    expect(limited.status).toBe(429);
    expect(await limited.json()).toMatchObject({ code: 'RATE_LIMITED', message: expect.stringMatching(/this invalid API key/) });
    expect((await call('sk_another_guess', '198.51.100.201')).status).toBe(401);
  });

  it('a right key is never counted', async () => {
    const right = (
      (await (await t.call('GET', '/accounts/developer', { as: 'owner@acme.test' })).json()) as { secretKey: string }
    ).secretKey;
    for (let i = 0; i < max + 5; i++) expect((await call(right, '192.0.2.44')).status).not.toBe(429);
  });
});
