import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { DATABASE_KINDS, useTestContext, type TestContext } from './helpers';
import { json, startPeer, type Peer } from './peers';
import { expireDueVerifications } from '../../api/apps/one-time-passcode/service';
import { PHONE_MESSAGE, PHONE_REQUIRED_MESSAGE } from '../../api/contract/sms';

const SID = 'AC' + 'a'.repeat(32);
const TOKEN = 'twilio-auth-token-for-otp';

async function fakeTwilio(): Promise<Peer> {
  return startPeer((req, res) => {
    if (req.method === 'GET' && req.path === `/2010-04-01/Accounts/${SID}.json`)
      return json(res, 200, { sid: SID, status: 'active' });
    if (req.method === 'POST' && req.path === `/2010-04-01/Accounts/${SID}/Messages.json`) {
      const to = new URLSearchParams(req.body).get('To');
      if (to === '+15005550001')
        return json(res, 400, { code: 21211, message: "The 'To' number +15005550001 is not a valid phone number.", status: 400 });
      return json(res, 201, { sid: 'SM' + 'f'.repeat(32), status: 'queued' });
    }
    json(res, 404, { message: 'not found' });
  });
}

/** Everything a test needs to call /api/v1 as one account. */
async function apiKeyOf(t: TestContext, owner: string): Promise<string> {
  const res = await t.call('GET', '/accounts/developer', { as: owner });
  return ((await res.json()) as { secretKey: string }).secretKey;
}

async function v1(
  t: TestContext,
  key: string | null,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  return t.call(method, `/v1${path}`, { body, headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...headers } });
}

/** The last code the development outbox holds for a number. */
async function lastCode(t: TestContext, as: string, to: string): Promise<string> {
  const res = await t.call('GET', '/dev/sms-outbox', { as });
  const list = (await res.json()) as { to: string; body: string }[];
  const message = list.find((m) => m.to === to);
  return message!.body.match(/\b(\d{4,10})\b/)![1]!;
}

let phoneCounter = 0;
const freshPhone = () => `+1415555${String(1000 + phoneCounter++).padStart(4, '0')}`;

describe.each(DATABASE_KINDS)('One-Time Passcode (%s)', (kind) => {
  const overrides: Record<string, unknown> = {};
  let twilio: Peer;
  beforeAll(async () => {
    twilio = await fakeTwilio();
    overrides.twilioApiUrl = twilio.url;
    overrides.outboundAllowHosts = [twilio.host];
    return () => twilio.close();
  });
  const t = useTestContext(kind, overrides);
  let acmeKey: string;
  beforeAll(async () => {
    expect((await t.call('POST', '/sms', { as: 'owner@acme.test', body: { provider: 'dev-outbox' } })).status).toBe(200);
    acmeKey = await apiKeyOf(t, 'owner@acme.test');
  });
  // each test starts with a full rate-limit bucket and its own numbers
  beforeEach(() => {
    t.clock.now = new Date(t.clock.now.getTime() + 60_000);
  });

  it('a passcode sent through the development outbox is approved with the code the customer got', async () => {
    const phone = freshPhone();
    const sent = await v1(t, acmeKey, 'POST', '/otp/send', {
      phoneNumber: phone,
      customerRef: 'CUST-1001',
      agent: 'jo@acme.test',
    });
    expect(sent.status).toBe(201);
    const verification = (await sent.json()) as { id: string; status: string; expiresAt: string; phoneNumber: string };
    expect(verification.status).toBe('pending');
    expect(verification.phoneNumber).toBe(`+1 •••• •• ${phone.slice(-4)}`);
    const code = await lastCode(t, 'owner@acme.test', phone);
    expect(JSON.stringify(verification)).not.toContain(code);
    const checked = await v1(t, acmeKey, 'POST', '/otp/check', { id: verification.id, code });
    expect(checked.status).toBe(200);
    expect(await checked.json()).toMatchObject({
      id: verification.id,
      status: 'approved',
      checks: 1,
      sends: 1,
      customerRef: 'CUST-1001',
      agent: 'jo@acme.test',
    });
    const got = await v1(t, acmeKey, 'GET', `/otp/${verification.id}`);
    expect(await got.json()).toMatchObject({ status: 'approved' });
  });

  it('an approved passcode shows in the customer search, the credits and the audit log with its agent', async () => {
    const phone = freshPhone();
    const before = await t.db.system((trx) =>
      trx
        .selectFrom('app_billing')
        .select('credits')
        .where('app', '=', 'one-time-passcode')
        .where('account_id', '=', t.account('acme').id)
        .executeTakeFirstOrThrow(),
    );
    const sent = (await (
      await v1(t, acmeKey, 'POST', '/otp/send', { phoneNumber: phone, customerRef: 'CUST-SEARCH-7', agent: 'sam@acme.test' })
    ).json()) as { id: string };
    await v1(t, acmeKey, 'POST', '/otp/check', { id: sent.id, code: await lastCode(t, 'owner@acme.test', phone) });
    const search = (await (
      await t.call('GET', '/results/customer?customerRef=CUST-SEARCH-7', { as: 'owner@acme.test' })
    ).json()) as { results: { app: string; status: string; sessionRef: string }[] };
    expect(search.results).toContainEqual(
      expect.objectContaining({ app: 'one-time-passcode', status: 'success', sessionRef: sent.id }),
    );
    const after = await t.db.system((trx) =>
      trx
        .selectFrom('app_billing')
        .select('credits')
        .where('app', '=', 'one-time-passcode')
        .where('account_id', '=', t.account('acme').id)
        .executeTakeFirstOrThrow(),
    );
    expect(after.credits).toBe(before.credits + 1);
    const audit = (await (await t.call('GET', '/audit-log', { as: 'owner@acme.test' })).json()) as {
      admin?: { firstName: string };
      event: string;
    }[];
    expect(audit.find((e) => e.event === 'otp.verified')?.admin?.firstName).toBe('sam@acme.test');
  });

  it('a passcode sent through Twilio carries the code in the SMS and nowhere else', async () => {
    expect(
      (
        await t.call('POST', '/sms', {
          as: 'owner@globex.test',
          body: { provider: 'twilio', twilio: { accountSid: SID, authToken: TOKEN, phoneNumber: '+14155550100' } },
        })
      ).status,
    ).toBe(200);
    const key = await apiKeyOf(t, 'owner@globex.test');
    const phone = freshPhone();
    twilio.received.length = 0;
    const sent = (await (await v1(t, key, 'POST', '/otp/send', { phoneNumber: phone })).json()) as { id: string };
    const sms = twilio.received.find((r) => r.path.endsWith('/Messages.json'))!;
    const code = new URLSearchParams(sms.body).get('Body')!.match(/\b(\d{6})\b/)![1]!;
    const checked = await v1(t, key, 'POST', '/otp/check', { id: sent.id, code });
    expect(await checked.json()).toMatchObject({ status: 'approved' });
    const list = await (await t.call('GET', '/one-time-passcode/tasks', { as: 'owner@globex.test' })).text();
    expect(list).not.toContain(code);
  });

  it('a number Twilio refuses ends the verification as failed with the reason', async () => {
    const key = await apiKeyOf(t, 'owner@globex.test');
    const res = await v1(t, key, 'POST', '/otp/send', { phoneNumber: '+15005550001' });
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({
      status: 'failed',
      failureReason: "The 'To' number +15005550001 is not a valid phone number.",
    });
  });

  it('a wrong code leaves the verification pending with the check counted', async () => {
    const phone = freshPhone();
    const sent = (await (await v1(t, acmeKey, 'POST', '/otp/send', { phoneNumber: phone })).json()) as { id: string };
    const code = await lastCode(t, 'owner@acme.test', phone);
    const wrong = code === '000000' ? '111111' : '000000';
    expect(await (await v1(t, acmeKey, 'POST', '/otp/check', { id: sent.id, code: wrong })).json()).toMatchObject({
      status: 'pending',
      checks: 1,
      attemptsLeft: 4,
    });
  });

  it("the agent's wrong code is an error that says how many attempts are left", async () => {
    const phone = freshPhone();
    const sent = (await (
      await t.call('POST', '/one-time-passcode/actions/send', { as: 'admin@acme.test', body: { input: { phoneNumber: phone } } })
    ).json()) as { taskId: string; failed?: boolean };
    expect(sent.failed).toBeUndefined();
    const code = await lastCode(t, 'owner@acme.test', phone);
    const wrong = code === '000000' ? '111111' : '000000';
    const first = await t.call('POST', '/one-time-passcode/actions/check', {
      as: 'admin@acme.test',
      body: { taskId: sent.taskId, input: { code: wrong } },
    });
    expect(await first.json()).toMatchObject({
      status: 'pending',
      failed: true,
      message: 'Wrong code: 4 attempts left. Ask the caller to read it again.',
    });
    for (let i = 0; i < 3; i++)
      await t.call('POST', '/one-time-passcode/actions/check', {
        as: 'admin@acme.test',
        body: { taskId: sent.taskId, input: { code: wrong } },
      });
    const status = await t.call('GET', `/one-time-passcode/tasks/${sent.taskId}/status`, { as: 'admin@acme.test' });
    expect(await status.json()).toMatchObject({
      status: 'pending',
      failed: true,
      message: 'Wrong code: 1 attempt left. Ask the caller to read it again.',
    });
  });

  it('five wrong codes use up the attempts and the right code no longer helps', async () => {
    const phone = freshPhone();
    const sent = (await (await v1(t, acmeKey, 'POST', '/otp/send', { phoneNumber: phone })).json()) as { id: string };
    const code = await lastCode(t, 'owner@acme.test', phone);
    const wrong = code === '000000' ? '111111' : '000000';
    let last: { status: string } = { status: '' };
    for (let i = 0; i < 5; i++)
      last = (await (await v1(t, acmeKey, 'POST', '/otp/check', { id: sent.id, code: wrong })).json()) as { status: string };
    expect(last.status).toBe('max_attempts_reached');
    expect(await (await v1(t, acmeKey, 'POST', '/otp/check', { id: sent.id, code })).json()).toMatchObject({
      status: 'max_attempts_reached',
    });
  });

  it('a passcode past its validity is expired, by a check and by the sweep', async () => {
    const a = (await (await v1(t, acmeKey, 'POST', '/otp/send', { phoneNumber: freshPhone() })).json()) as { id: string };
    const phoneB = freshPhone();
    const b = (await (await v1(t, acmeKey, 'POST', '/otp/send', { phoneNumber: phoneB })).json()) as { id: string };
    const codeB = await lastCode(t, 'owner@acme.test', phoneB);
    t.clock.now = new Date(t.clock.now.getTime() + 11 * 60_000);
    expect(await (await v1(t, acmeKey, 'POST', '/otp/check', { id: b.id, code: codeB })).json()).toMatchObject({
      status: 'expired',
    });
    expect(await expireDueVerifications(t.deps)).toBeGreaterThanOrEqual(1);
    const row = await t.db.system((trx) =>
      trx.selectFrom('otp_verifications').select('status').where('id', '=', a.id).executeTakeFirstOrThrow(),
    );
    expect(row.status).toBe('expired');
    const search = await t.db.system((trx) =>
      trx.selectFrom('customer_results').select('status').where('session_ref', '=', a.id).executeTakeFirstOrThrow(),
    );
    expect(search.status).toBe('timeout');
  });

  it('a resend within the validity sends the same code, and a sixth send in 10 minutes answers 429 with Retry-After', async () => {
    const phone = freshPhone();
    const first = (await (await v1(t, acmeKey, 'POST', '/otp/send', { phoneNumber: phone })).json()) as { id: string };
    const code = await lastCode(t, 'owner@acme.test', phone);
    const again = await v1(t, acmeKey, 'POST', '/otp/send', { phoneNumber: phone });
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({ id: first.id, sends: 2 });
    expect(await lastCode(t, 'owner@acme.test', phone)).toBe(code);
    for (let i = 0; i < 3; i++) await v1(t, acmeKey, 'POST', '/otp/send', { phoneNumber: phone });
    const refused = await v1(t, acmeKey, 'POST', '/otp/send', { phoneNumber: phone });
    expect(refused.status).toBe(429);
    expect((await refused.json()) as { code: string }).toMatchObject({ code: 'TOO_MANY_SENDS' });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('the same Idempotency-Key and body answer the first answer and send nothing new; another body answers 409', async () => {
    const phone = freshPhone();
    const headers = { 'Idempotency-Key': `idem-${phone}` };
    const first = await v1(t, acmeKey, 'POST', '/otp/send', { phoneNumber: phone }, headers);
    const second = await v1(t, acmeKey, 'POST', '/otp/send', { phoneNumber: phone }, headers);
    expect(second.status).toBe(first.status);
    expect(await second.json()).toEqual(await first.json());
    const outbox = (await (await t.call('GET', '/dev/sms-outbox', { as: 'owner@acme.test' })).json()) as { to: string }[];
    expect(outbox.filter((m) => m.to === phone)).toHaveLength(1);
    const other = await v1(t, acmeKey, 'POST', '/otp/send', { phoneNumber: freshPhone() }, headers);
    expect(other.status).toBe(409);
    expect(await other.json()).toMatchObject({ code: 'IDEMPOTENCY_CONFLICT' });
  });

  it('a phone number without its country code answers 400 naming the field in plain words; an empty one is required', async () => {
    const res = await v1(t, acmeKey, 'POST', '/otp/send', { phoneNumber: '4155550100', customerRef: 5 });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { code: string; fields: Record<string, string> };
    expect(body.code).toBe('VALIDATION_FAILED');
    expect(body.fields.phoneNumber).toBe(PHONE_MESSAGE);
    expect(body.fields.customerRef).toBeDefined();
    const empty = (await (await v1(t, acmeKey, 'POST', '/otp/send', { phoneNumber: ' ' })).json()) as {
      fields: Record<string, string>;
    };
    expect(empty.fields.phoneNumber).toBe(PHONE_REQUIRED_MESSAGE);
  });

  it('a number typed with spaces, dashes or brackets is taken as its digits', async () => {
    const phone = freshPhone();
    const typed = `${phone.slice(0, 2)} (${phone.slice(2, 5)}) ${phone.slice(5, 8)}-${phone.slice(8)}`;
    const res = await v1(t, acmeKey, 'POST', '/otp/send', { phoneNumber: typed });
    expect(res.status).toBe(201);
    // the SMS went to the number's digits
    expect(await lastCode(t, 'owner@acme.test', phone)).toMatch(/^\d+$/);
  });

  it('bodies that are not JSON, unknown ids and bad ids never answer 500', async () => {
    expect((await v1(t, acmeKey, 'POST', '/otp/send', '{nope')).status).toBe(400);
    expect((await v1(t, acmeKey, 'POST', '/otp/check', { id: 'x', code: 'abc' })).status).toBe(400);
    expect((await v1(t, acmeKey, 'GET', '/otp/00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await v1(t, acmeKey, 'GET', '/otp/not-an-id')).status).toBe(400);
    expect((await v1(t, acmeKey, 'POST', '/otp/check', [])).status).toBe(400);
  });

  it('a missing, wrong or console token answers 401 INVALID_API_KEY', async () => {
    for (const key of [null, 'sk_wrong', await t.tokenFor('owner@acme.test')]) {
      const res = await v1(t, key, 'GET', '/otp/00000000-0000-4000-8000-000000000000');
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ code: 'INVALID_API_KEY' });
    }
  });

  it("another account's key never reaches this account's verification (404)", async () => {
    const sent = (await (await v1(t, acmeKey, 'POST', '/otp/send', { phoneNumber: freshPhone() })).json()) as { id: string };
    const globexKey = await apiKeyOf(t, 'owner@globex.test');
    expect((await v1(t, globexKey, 'GET', `/otp/${sent.id}`)).status).toBe(404);
    expect((await v1(t, globexKey, 'POST', `/otp/${sent.id}/cancel`, {})).status).toBe(404);
  });

  it('a canceled verification answers canceled to a later check', async () => {
    const phone = freshPhone();
    const sent = (await (await v1(t, acmeKey, 'POST', '/otp/send', { phoneNumber: phone })).json()) as { id: string };
    expect(await (await v1(t, acmeKey, 'POST', `/otp/${sent.id}/cancel`)).json()).toMatchObject({ status: 'canceled' });
    expect(
      await (
        await v1(t, acmeKey, 'POST', '/otp/check', { id: sent.id, code: await lastCode(t, 'owner@acme.test', phone) })
      ).json(),
    ).toMatchObject({ status: 'canceled' });
  });

  it('an account without SMS answers 409 SMS_NOT_CONFIGURED saying where to connect one', async () => {
    const key = await apiKeyOf(t, 'staff@provider.test');
    const res = await v1(t, key, 'POST', '/otp/send', { phoneNumber: freshPhone() });
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({
      code: 'SMS_NOT_CONFIGURED',
      message: expect.stringContaining('Settings > SMS Configuration'),
    });
  });

  it('a free trial with its credits used answers 402 and an inactive app 403', async () => {
    const key = await apiKeyOf(t, 'staff@provider.test');
    const accountId = t.account('provider').id;
    const setBilling = (status: string, credits: number) =>
      t.db.system((trx) =>
        sql`update app_billing set status = ${status}, credits = ${credits}, free_tier = 100 where account_id = ${accountId} and app = 'one-time-passcode'`.execute(
          trx,
        ),
      );
    await setBilling('free-trial', 100);
    const exhausted = await v1(t, key, 'POST', '/otp/send', { phoneNumber: freshPhone() });
    expect(exhausted.status).toBe(402);
    expect(await exhausted.json()).toMatchObject({ code: 'FREE_TIER_EXHAUSTED' });
    await setBilling('inactive', 0);
    const inactive = await v1(t, key, 'POST', '/otp/send', { phoneNumber: freshPhone() });
    expect(inactive.status).toBe(403);
    expect(await inactive.json()).toMatchObject({ code: 'APP_NOT_ACTIVE' });
  });

  it('a rotated secret key stops at once and the new one works', async () => {
    const oldKey = await apiKeyOf(t, 'owner@globex.test');
    const rotated = await t.call('POST', '/accounts/developer/rotate', { as: 'owner@globex.test', body: { key: 'secretKey' } });
    const newKey = ((await rotated.json()) as { secretKey: string }).secretKey;
    expect((await v1(t, oldKey, 'GET', '/otp/00000000-0000-4000-8000-000000000000')).status).toBe(401);
    expect((await v1(t, newKey, 'GET', '/otp/00000000-0000-4000-8000-000000000000')).status).toBe(404);
  });

  it('more than 40 calls at once with one key answer 429 RATE_LIMITED with Retry-After', async () => {
    const key = await apiKeyOf(t, 'staff@provider.test');
    const statuses: number[] = [];
    let retryAfter: string | null = null;
    for (let i = 0; i < 42; i++) {
      const res = await v1(t, key, 'GET', '/otp/00000000-0000-4000-8000-000000000000');
      statuses.push(res.status);
      if (res.status === 429) retryAfter = res.headers.get('retry-after');
    }
    expect(statuses.filter((s) => s === 404)).toHaveLength(40);
    expect(statuses.slice(40)).toEqual([429, 429]);
    expect(Number(retryAfter)).toBeGreaterThan(0);
    t.clock.now = new Date(t.clock.now.getTime() + 1000);
    expect((await v1(t, key, 'GET', '/otp/00000000-0000-4000-8000-000000000000')).status).toBe(404);
  });
});
