import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { DATABASE_KINDS, BOTH_DATABASE_KINDS, openTestDatabase, useTestContext, type TestContext } from './helpers';
import { json, startPeer, type Peer } from './peers';
import { migrate } from '../../api/db/migrate';
import { MIGRATIONS } from '../../api/db/migrations/index';
import type { SmsGuard } from '../../api/contract/sms-guard';

const SID = 'AC' + 'b'.repeat(32);
const TOKEN = 'twilio-auth-token-for-the-guard';

async function apiKeyOf(t: TestContext, owner: string): Promise<string> {
  const res = await t.call('GET', '/accounts/developer', { as: owner });
  return ((await res.json()) as { secretKey: string }).secretKey;
}

const v1 = (t: TestContext, key: string, method: string, path: string, body?: unknown) =>
  t.call(method, `/v1${path}`, { body, headers: { authorization: `Bearer ${key}` } });

const messagesTo = (peer: Peer) =>
  peer.received.filter((r) => r.path.endsWith('/Messages.json')).map((r) => new URLSearchParams(r.body).get('To'));

let counter = 0;
/** a fresh valid US number (the 202 area code), so the per-number send limit never interferes */
const usPhone = () => `+1202555${String(1000 + counter++).padStart(4, '0')}`;

describe.each(DATABASE_KINDS)('SMS geo permissions and number types (%s)', (kind) => {
  const overrides: Record<string, unknown> = {};
  let twilio: Peer;
  beforeAll(async () => {
    twilio = await startPeer((req, res) => {
      if (req.method === 'GET' && req.path === `/2010-04-01/Accounts/${SID}.json`)
        return json(res, 200, { sid: SID, status: 'active' });
      if (req.method === 'POST' && req.path === `/2010-04-01/Accounts/${SID}/Messages.json`)
        return json(res, 201, { sid: 'SM' + 'a'.repeat(32), status: 'queued' });
      json(res, 404, { message: 'not found' });
    });
    overrides.twilioApiUrl = twilio.url;
    overrides.outboundAllowHosts = [twilio.host];
    return () => twilio.close();
  });
  const t = useTestContext(kind, overrides);
  let acmeKey: string;
  let globexKey: string;
  beforeAll(async () => {
    expect((await t.call('POST', '/sms', { as: 'owner@acme.test', body: { provider: 'dev-outbox' } })).status).toBe(200);
    expect(
      (
        await t.call('POST', '/sms', {
          as: 'owner@globex.test',
          body: { provider: 'twilio', twilio: { accountSid: SID, authToken: TOKEN, phoneNumber: '+14155550100' } },
        })
      ).status,
    ).toBe(200);
    acmeKey = await apiKeyOf(t, 'owner@acme.test');
    globexKey = await apiKeyOf(t, 'owner@globex.test');
  });
  beforeEach(() => {
    t.clock.now = new Date(t.clock.now.getTime() + 60_000);
  });

  it('by default the development outbox may text the countries of the demo data, Twilio the country of its sender number', async () => {
    const dev = (await (await t.call('GET', '/sms/guard', { as: 'owner@acme.test' })).json()) as SmsGuard;
    expect(dev).toMatchObject({ allowedCountries: ['US'], isDefault: true, holds: [] });
    expect(dev.countries).toContainEqual({ code: 'CA', callingCode: '1' });
    const twilioGuard = (await (await t.call('GET', '/sms/guard', { as: 'owner@globex.test' })).json()) as SmsGuard;
    expect(twilioGuard).toMatchObject({
      allowedCountries: ['US'],
      isDefault: true,
      rules: { volumeMultiplier: 5, volumeAllowance: 20, conversionWindow: 30, conversionMinPercent: 10 },
    });
  });

  it('a passcode to a country that is not allowed is refused with 403 naming the country, and nothing is written or sent', async () => {
    const before = await t.db.system((trx) => sql<{ n: number }>`select count(*)::int as n from otp_verifications`.execute(trx));
    const outbox = await t.db.system((trx) => sql<{ n: number }>`select count(*)::int as n from dev_sms_outbox`.execute(trx));
    const res = await v1(t, acmeKey, 'POST', '/otp/send', { phoneNumber: '+447400123456' });
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({
      code: 'COUNTRY_NOT_ALLOWED',
      message: expect.stringContaining('United Kingdom (GB)'),
    });
    expect(
      (await t.db.system((trx) => sql<{ n: number }>`select count(*)::int as n from otp_verifications`.execute(trx))).rows[0]!.n,
    ).toBe(before.rows[0]!.n);
    expect(
      (await t.db.system((trx) => sql<{ n: number }>`select count(*)::int as n from dev_sms_outbox`.execute(trx))).rows[0]!.n,
    ).toBe(outbox.rows[0]!.n);
  });

  it('a calling code is not a country: +1 604 is Canada, refused while only the United States is allowed', async () => {
    twilio.received.length = 0;
    const res = await v1(t, globexKey, 'POST', '/otp/send', { phoneNumber: '+16042345678' });
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ code: 'COUNTRY_NOT_ALLOWED', message: expect.stringContaining('Canada (CA)') });
    expect(messagesTo(twilio)).toEqual([]);
    const ok = await v1(t, globexKey, 'POST', '/otp/send', { phoneNumber: usPhone() });
    expect(ok.status).toBe(201);
    expect(messagesTo(twilio)).toHaveLength(1);
  });

  it('every app is covered: a passkey enrollment link to a country that is not allowed is refused the same way', async () => {
    const res = await v1(t, acmeKey, 'POST', '/passkeys/enrollments', { customerRef: 'CUST-GEO', phoneNumber: '+33612345678' });
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ code: 'COUNTRY_NOT_ALLOWED', message: expect.stringContaining('France (FR)') });
  });

  it('the agent panel gets the same refusal from the console action', async () => {
    const res = await t.call('POST', '/one-time-passcode/actions/send', {
      as: 'admin@acme.test',
      body: { input: { phoneNumber: '+4915112345678' } },
    });
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ code: 'COUNTRY_NOT_ALLOWED', message: expect.stringContaining('Germany (DE)') });
  });

  it.each([
    ['+19005551234', 'a premium-rate number'],
    ['+448431234567', 'a premium-rate number'],
  ])('%s is refused in every country with 422 NUMBER_TYPE_NOT_ALLOWED (%s)', async (phone, what) => {
    await t.call('PUT', '/sms/guard', { as: 'owner@globex.test', body: { allowedCountries: ['US', 'GB'] } });
    const res = await v1(t, globexKey, 'POST', '/otp/send', { phoneNumber: phone });
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({ code: 'NUMBER_TYPE_NOT_ALLOWED', message: expect.stringContaining(what) });
  });

  it('through Twilio a number the metadata does not know for its country is refused', async () => {
    twilio.received.length = 0;
    const res = await v1(t, globexKey, 'POST', '/otp/send', { phoneNumber: '+15551234567' });
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({
      code: 'NUMBER_TYPE_NOT_ALLOWED',
      message: expect.stringContaining('not a valid number in United States'),
    });
    expect(messagesTo(twilio)).toEqual([]);
  });

  it('an admin allows a country: sends to it go out, and the change is in the audit log', async () => {
    const saved = await t.call('PUT', '/sms/guard', { as: 'owner@acme.test', body: { allowedCountries: ['US', 'GB'] } });
    expect(saved.status).toBe(200);
    expect(await saved.json()).toMatchObject({ allowedCountries: ['GB', 'US'], isDefault: false });
    expect((await v1(t, acmeKey, 'POST', '/otp/send', { phoneNumber: '+447400123457' })).status).toBe(201);
    const audit = (await (await t.call('GET', '/audit-log', { as: 'owner@acme.test' })).json()) as {
      event: string;
      description: string;
    }[];
    expect(audit.find((e) => e.event === 'sms.guard-updated')?.description).toContain('allowed United Kingdom');
  });

  it('an unknown country or an empty list is refused with a field message and changes nothing', async () => {
    const bad = await t.call('PUT', '/sms/guard', { as: 'owner@acme.test', body: { allowedCountries: ['XX'] } });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ fields: { allowedCountries: 'XX is not a country SMS can be sent to' } });
    const empty = await t.call('PUT', '/sms/guard', { as: 'owner@acme.test', body: { allowedCountries: [] } });
    expect(empty.status).toBe(400);
    expect(((await (await t.call('GET', '/sms/guard', { as: 'owner@acme.test' })).json()) as SmsGuard).allowedCountries).toEqual([
      'GB',
      'US',
    ]);
  });

  it('supervisors cannot read or change the guard', async () => {
    expect((await t.call('GET', '/sms/guard', { as: 'supervisor@acme.test' })).status).toBe(403);
    expect((await t.call('PUT', '/sms/guard', { as: 'supervisor@acme.test', body: { allowedCountries: ['FR'] } })).status).toBe(
      403,
    );
  });
});

describe.each(BOTH_DATABASE_KINDS)('SMS geo permissions when the guard ships (%s)', (kind) => {
  it('an existing account keeps the countries it texted in the last 90 days; one that texted nowhere keeps the default', async () => {
    const { db, drop } = await openTestDatabase(
      kind,
      MIGRATIONS.filter((m) => m.id !== '1050_sms_guard' && m.id !== '1200_sms_guard_spread'),
    );
    try {
      const [texted, quiet] = await db.system(async (trx) => [
        await trx
          .insertInto('accounts')
          .values({ name: 'Texted', platform: 'zoom', email_domain: null })
          .returning('id')
          .executeTakeFirstOrThrow(),
        await trx
          .insertInto('accounts')
          .values({ name: 'Quiet', platform: 'zoom', email_domain: null })
          .returning('id')
          .executeTakeFirstOrThrow(),
      ]);
      const old = new Date(Date.now() - 120 * 86_400_000);
      await db.system(async (trx) => {
        await sql`insert into sms_settings (account_id, provider, account_sid, auth_token_enc, phone_number) values (${texted.id}, 'twilio', 'AC1', 'x', '+14155550100'), (${quiet.id}, 'twilio', 'AC1', 'x', '+447400123456')`.execute(
          trx,
        );
        await sql`insert into otp_sends (account_id, phone_number, ts) values (${texted.id}, '+16042345678', now()), (${texted.id}, '+33612345678', ${old})`.execute(
          trx,
        );
        await sql`insert into dev_sms_outbox (account_id, to_number, body, created_at) values (${texted.id}, '+4915112345678', 'hi', now())`.execute(
          trx,
        );
      });
      await migrate(db, MIGRATIONS);
      const rows = await db.system((trx) =>
        sql<{
          account_id: string;
          allowed_countries: string[];
        }>`select account_id, allowed_countries from sms_guard_settings`.execute(trx),
      );
      expect(rows.rows).toEqual([{ account_id: texted.id, allowed_countries: ['CA', 'DE', 'US'] }]);
    } finally {
      await drop();
    }
  }, 120_000);
});
