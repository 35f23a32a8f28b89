import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { DATABASE_KINDS, useTestContext, type TestContext } from './helpers';
import type { SmsGuard } from '../../api/contract/sms-guard';
import { sendAccountSms } from '../../api/apps/platform/sms';
import { ApiError } from '../../api/http/errors';

// Pumping spread over many ranges (docs/sms-guard.md#pumping-spread-over-ranges): the per-range
// rules let 20 an hour through to each range never used before, so twelve ranges of twenty pass
// them all. The country's and the account's unanswered sends, judged by whether people answer,
// hold it; a real burst whose customers answer is never held. The test moves the clock.

const AREAS = [
  '202',
  '212',
  '213',
  '305',
  '312',
  '415',
  '503',
  '602',
  '617',
  '702',
  '713',
  '718',
  '404',
  '206',
  '303',
  '512',
  '615',
  '801',
  '314',
  '412',
  '216',
  '513',
  '904',
  '919',
  '704',
  '816',
  '402',
  '505',
  '907',
  '808',
];

async function apiKeyOf(t: TestContext, owner: string): Promise<string> {
  const res = await t.call('GET', '/accounts/developer', { as: owner });
  return ((await res.json()) as { secretKey: string }).secretKey;
}

const tick = (t: TestContext, ms: number) => (t.clock.now = new Date(t.clock.now.getTime() + ms));

describe.each(DATABASE_KINDS)('the SMS guard holds pumping spread over ranges (%s)', (kind) => {
  const t = useTestContext(kind);
  const keys: Record<string, string> = {};
  beforeAll(async () => {
    for (const owner of ['owner@acme.test']) {
      expect((await t.call('POST', '/sms', { as: owner, body: { provider: 'dev-outbox' } })).status).toBe(200);
      // the outbox pays nothing, so its pumping rules are off unless turned on
      expect(
        (await t.call('PUT', '/sms/guard', { as: owner, body: { allowedCountries: ['US'], pumpingGuard: true } })).status,
      ).toBe(200);
      keys[owner] = await apiKeyOf(t, owner);
    }
  });
  const v1 = (owner: string, path: string, body: unknown) =>
    t.call('POST', `/v1${path}`, { body, headers: { authorization: `Bearer ${keys[owner]}` } });

  /** 12 ranges × 20, round the ranges, as fast as the API lets one client (a send every 250 ms: 240 in a minute), none answered. */
  async function spread(
    send: (phone: string) => Promise<Response>,
    tag: string,
  ): Promise<{ delivered: number; refused: { code: string; message: string } | null }> {
    let delivered = 0;
    for (let i = 0; i < 240; i++) {
      const phone = `+1${AREAS[i % 12]}555${tag}${String(Math.floor(i / 12)).padStart(2, '0')}`;
      const res = await send(phone);
      tick(t, 250);
      if (res.status === 429) return { delivered, refused: (await res.json()) as { code: string; message: string } };
      expect(res.status, await res.clone().text()).toBeLessThan(300);
      delivered++;
    }
    return { delivered, refused: null };
  }

  it('12 ranges × 20 passcodes in a minute, none answered, are held for the country before the 60th is sent', async () => {
    const owner = 'owner@acme.test';
    const { delivered, refused } = await spread((phone) => v1(owner, '/otp/send', { phoneNumber: phone }), '01');
    expect(refused).toMatchObject({ code: 'SMS_PUMPING_SUSPECTED', message: expect.stringContaining('United States (US)') });
    expect(delivered).toBeLessThan(60);
    const guard = (await (await t.call('GET', '/sms/guard', { as: owner })).json()) as SmsGuard;
    expect(guard.holds.map((h) => h.prefix)).toContain('US');
    // a range of the country it never reached is held with it
    expect((await v1(owner, '/otp/send', { phoneNumber: '+19075550199' })).status).toBe(429);
    // the admin releases the country: counting starts again from then
    expect((await t.call('POST', '/sms/guard/holds/US/release', { as: owner })).status).toBe(200);
    expect((await v1(owner, '/otp/send', { phoneNumber: '+19075550198' })).status).toBe(201);
  });

  it('the same spread through the door every other app sends by (sendAccountSms) is held the same way', async () => {
    tick(t, 2 * 3600_000);
    const accountId = t.account('acme').id;
    const { delivered, refused } = await spread(async (phone) => {
      try {
        await sendAccountSms(t.deps, accountId, phone, 'Enroll your passkey: https://example.test/p');
        return new Response(null, { status: 201 });
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        return Response.json({ code: err.code, message: err.message }, { status: err.status });
      }
    }, '02');
    expect(refused).toMatchObject({ code: 'SMS_PUMPING_SUSPECTED', message: expect.stringContaining('United States (US)') });
    expect(delivered).toBeLessThan(60);
  });

  it('a real burst, 300 customers of one country in 10 minutes with 60 % checking their code within a minute, is never held', async () => {
    const owner = 'owner@acme.test';
    tick(t, 2 * 3600_000);
    for (const hold of ((await (await t.call('GET', '/sms/guard', { as: owner })).json()) as SmsGuard).holds) {
      expect((await t.call('POST', `/sms/guard/holds/${hold.prefix}/release`, { as: owner })).status).toBe(200);
    }
    const accountId = t.account('acme').id;
    const checks: { due: number; id: string; phone: string }[] = [];
    const checkDue = async () => {
      while (checks.length && checks[0]!.due <= t.clock.now.getTime()) {
        const { id, phone } = checks.shift()!;
        const sent = await sql<{
          body: string;
        }>`select body from dev_sms_outbox where account_id = ${accountId} and to_number = ${phone} order by created_at desc limit 1`.execute(
          t.db.kysely,
        );
        const code = sent.rows[0]!.body.match(/\d{4,10}/)![0];
        const checked = await v1(owner, '/otp/check', { id, code });
        expect(((await checked.json()) as { status: string }).status).toBe('approved');
      }
    };
    for (let i = 0; i < 300; i++) {
      await checkDue();
      // 30 ranges of ten numbers each (each range stays within its own 20 an hour)
      const phone = `+1${AREAS[i % 30]}556${String(1000 + i).padStart(4, '0')}`;
      const res = await v1(owner, '/otp/send', { phoneNumber: phone });
      expect(res.status, await res.clone().text()).toBe(201);
      // three in five answer, 15 to 55 s after the SMS
      if (i % 5 < 3)
        checks.push({
          due: t.clock.now.getTime() + 15_000 + (i % 5) * 20_000,
          id: ((await res.json()) as { id: string }).id,
          phone,
        });
      tick(t, 2_000);
    }
    const guard = (await (await t.call('GET', '/sms/guard', { as: owner })).json()) as SmsGuard;
    expect(guard.holds).toEqual([]);
  });
});
