import { describe, expect, it } from 'vitest';
import { DATABASE_KINDS, useTestContext } from './helpers';
import { INVALID_API_KEYS } from '../../api/apps/platform/v1-guards';

// Wrong secret keys are counted per client address, as failed sign-ins are: each costs a database
// read, and guessing keys is what an attacker does with them.

describe.each(DATABASE_KINDS)('invalid API keys are rate limited per client address (%s)', (kind) => {
  // one trusted proxy: the client address is the last X-Forwarded-For entry
  const t = useTestContext(kind, { trustProxyHops: 1 });
  const { max, windowMs } = INVALID_API_KEYS.limit;
  const call = (key: string, address: string) => t.call('GET', '/v1/otp/00000000-0000-4000-8000-000000000000', { headers: { authorization: `Bearer ${key}`, 'x-forwarded-for': address } });

  it(`after ${max} wrong keys from one address the next call answers 429 with Retry-After; other addresses are not affected; the next window starts afresh`, async () => {
    const right = ((await (await t.call('GET', '/accounts/developer', { as: 'owner@acme.test' })).json()) as { secretKey: string }).secretKey;
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

  it('a right key is never counted', async () => {
    const right = ((await (await t.call('GET', '/accounts/developer', { as: 'owner@acme.test' })).json()) as { secretKey: string }).secretKey;
    for (let i = 0; i < max + 5; i++) expect((await call(right, '192.0.2.44')).status).not.toBe(429);
  });
});
