import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { DATABASE_KINDS, useTestContext, type TestContext } from './helpers';
import type { AccountDetail } from '../../api/contract/watch-tower';
import type { ApiRateLimitUsage } from '../../api/contract/api-limits';

const STAFF = 'staff@provider.test';

async function apiKeyOf(t: TestContext, owner: string): Promise<string> {
  const res = await t.call('GET', '/accounts/developer', { as: owner });
  return ((await res.json()) as { secretKey: string }).secretKey;
}

const v1 = (t: TestContext, key: string, method: string, path: string, body?: unknown) =>
  t.call(method, `/v1${path}`, { body, headers: { authorization: `Bearer ${key}` } });

describe.each(DATABASE_KINDS)('per-account /api/v1 rate limits (%s)', (kind) => {
  const t = useTestContext(kind);
  let acmeKey: string;
  let globexKey: string;
  beforeAll(async () => {
    acmeKey = await apiKeyOf(t, 'owner@acme.test');
    globexKey = await apiKeyOf(t, 'owner@globex.test');
  });
  // a full bucket for each test
  beforeEach(() => {
    t.clock.now = new Date(t.clock.now.getTime() + 60_000);
  });

  it('every answer carries the RateLimit-Policy and RateLimit header fields, errors included', async () => {
    const first = await v1(t, acmeKey, 'GET', '/otp/00000000-0000-4000-8000-000000000000');
    expect(first.status).toBe(404);
    expect(first.headers.get('ratelimit-policy')).toBe('"default";q=40;w=2');
    expect(first.headers.get('ratelimit')).toBe('"default";r=39;t=1');
    const second = await v1(t, acmeKey, 'POST', '/otp/send', { phoneNumber: 'not a number' });
    expect(second.status).toBe(400);
    expect(second.headers.get('ratelimit')).toBe('"default";r=38;t=1');
  });

  it('past the burst the answer is 429 with Retry-After and r=0', async () => {
    const answers = await Promise.all(
      Array.from({ length: 45 }, () => v1(t, globexKey, 'GET', '/otp/00000000-0000-4000-8000-000000000000')),
    );
    const limited = answers.filter((a) => a.status === 429);
    expect(limited).toHaveLength(5);
    expect(limited[0]!.headers.get('ratelimit')).toBe('"default";r=0;t=2');
    expect(limited[0]!.headers.get('retry-after')).toBe('1');
    expect(await limited[0]!.json()).toMatchObject({
      code: 'RATE_LIMITED',
      message: expect.stringContaining('at most 20 per second (bursts of 40)'),
    });
  });

  it('provider staff raise one account limit in Watch Tower: its calls pass, the change is audited, other accounts keep the default', async () => {
    const set = await t.call('PUT', `/watch-tower/accounts/${t.account('acme').id}/api-rate-limit`, {
      as: STAFF,
      body: { perSecond: 100 },
    });
    expect(set.status).toBe(200);
    expect(await set.json()).toEqual({ perSecond: 100, burst: 200, isDefault: false });
    const detail = (await (
      await t.call('GET', `/watch-tower/accounts/${t.account('acme').id}`, { as: STAFF })
    ).json()) as AccountDetail;
    expect(detail.apiRateLimit).toEqual({ perSecond: 100, burst: 200, isDefault: false });
    const answers = await Promise.all(
      Array.from({ length: 60 }, () => v1(t, acmeKey, 'GET', '/otp/00000000-0000-4000-8000-000000000000')),
    );
    expect(answers.filter((a) => a.status === 429)).toEqual([]);
    expect(answers[0]!.headers.get('ratelimit-policy')).toBe('"default";q=200;w=2');
    const audit = await t.db.tenant(t.account('acme').id, (trx) =>
      sql<{
        description: string;
        admin_id: string | null;
      }>`select description, admin_id from audit_log where event = 'api.rate-limit-changed'`.execute(trx),
    );
    expect(audit.rows).toEqual([
      {
        description:
          'The API rate limit was changed from 20 requests a second (bursts of 40), the default to 100 requests a second (bursts of 200)',
        admin_id: null,
      },
    ]);
    const other = await v1(t, globexKey, 'GET', '/otp/00000000-0000-4000-8000-000000000000');
    expect(other.headers.get('ratelimit-policy')).toBe('"default";q=40;w=2');
    // and back to the default
    expect(
      await (
        await t.call('PUT', `/watch-tower/accounts/${t.account('acme').id}/api-rate-limit`, {
          as: STAFF,
          body: { perSecond: null },
        })
      ).json(),
    ).toEqual({ perSecond: 20, burst: 40, isDefault: true });
  });

  it('only provider staff change a limit, and a bad value changes nothing', async () => {
    expect(
      (
        await t.call('PUT', `/watch-tower/accounts/${t.account('acme').id}/api-rate-limit`, {
          as: 'owner@acme.test',
          body: { perSecond: 1000 },
        })
      ).status,
    ).toBe(403);
    const bad = await t.call('PUT', `/watch-tower/accounts/${t.account('acme').id}/api-rate-limit`, {
      as: STAFF,
      body: { perSecond: 0 },
    });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ fields: { perSecond: 'Requests per second must be at least 1' } });
    expect(
      (
        await t.call('PUT', '/watch-tower/accounts/00000000-0000-4000-8000-000000000000/api-rate-limit', {
          as: STAFF,
          body: { perSecond: 5 },
        })
      ).status,
    ).toBe(404);
  });

  it('Settings > Developers reads the limit and the burst in use now', async () => {
    await Promise.all(Array.from({ length: 10 }, () => v1(t, globexKey, 'GET', '/otp/00000000-0000-4000-8000-000000000000')));
    const usage = (await (
      await t.call('GET', '/accounts/developer/rate-limit', { as: 'owner@globex.test' })
    ).json()) as ApiRateLimitUsage;
    expect(usage).toEqual({ perSecond: 20, burst: 40, isDefault: true, used: 10 });
    expect((await t.call('GET', '/accounts/developer/rate-limit', { as: 'supervisor@acme.test' })).status).toBe(403);
  });

  it('the OpenAPI document describes both header fields on the answers', async () => {
    const doc = (await (await t.call('GET', '/v1/openapi.json')).json()) as {
      components: { headers: Record<string, { description: string }> };
      paths: Record<string, Record<string, { responses: Record<string, { headers?: Record<string, unknown> }> }>>;
    };
    expect(Object.keys(doc.components.headers)).toEqual(expect.arrayContaining(['RateLimit-Policy', 'RateLimit']));
    const send = doc.paths['/otp/send']!.post!.responses;
    expect(send['201']!.headers).toHaveProperty('RateLimit-Policy');
    expect(send['429']!.headers).toHaveProperty('RateLimit');
    expect(send['429']!.headers).toHaveProperty('Retry-After');
  });
});
