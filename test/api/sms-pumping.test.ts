import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { DATABASE_KINDS, useTestContext, type TestContext } from './helpers';
import { json, startPeer, type Peer } from './peers';
import { sendPasscode } from '../../api/apps/one-time-passcode/service';
import { apiCaller } from '../../api/apps/platform/caller';
import { ApiError } from '../../api/http/errors';
import type { SmsGuard } from '../../api/contract/sms-guard';
import type { AccountList } from '../../api/contract/watch-tower';

// A simulated SMS pumping attack on one account, on PostgreSQL (where the counts and holds live
// for every process): 2,000 code requests to three number ranges nobody answers, mixed with the
// account's normal traffic, whose customers check their codes.

const SID = 'AC' + 'c'.repeat(32);
const STAFF = 'staff@provider.test';
const ATTACK_PREFIXES = ['+370600', '+252611', '+44740'];
const NORMAL_PREFIX = '+1202';
/** the bot's requests go straight to the service function /api/v1/otp/send calls (the HTTP doors cost the machine time, not the guard) */
const BOT = apiCaller(null, '198.51.100.7', 'bot');
const ATTACK_SENDS = Number(process.env.ATTACK_SENDS ?? 2000);
/** one customer among this many attack requests */
const NORMAL_EVERY = 20;
const CONCURRENCY = 5;

async function apiKeyOf(t: TestContext, owner: string): Promise<string> {
  const res = await t.call('GET', '/accounts/developer', { as: owner });
  return ((await res.json()) as { secretKey: string }).secretKey;
}

/** the account's audit descriptions for one event (thousands of sends push them off the log's first page) */
async function auditOf(t: TestContext, event: string): Promise<string[]> {
  const rows = await t.db.tenant(t.account('globex').id, (trx) =>
    sql<{ description: string }>`select description from audit_log where event = ${event} order by id`.execute(trx),
  );
  return rows.rows.map((r) => r.description);
}

const v1 = (t: TestContext, key: string, method: string, path: string, body?: unknown) =>
  t.call(method, `/v1${path}`, { body, headers: { authorization: `Bearer ${key}` } });

/** valid mobile numbers of the range (GB 7400 has seven digits after the prefix, the others five), distinct per i */
const attackNumber = (prefix: string, i: number) => `${prefix}${String(100_000_000 + i).slice(prefix === '+44740' ? -7 : -5)}`;

describe.each(DATABASE_KINDS.filter((k) => k === 'postgres'))('SMS pumping (%s)', (kind) => {
  const overrides: Record<string, unknown> = {};
  let twilio: Peer;
  /** what reached the Twilio peer, in order: the number and the text */
  const delivered: { to: string; body: string }[] = [];
  beforeAll(async () => {
    twilio = await startPeer((req, res) => {
      if (req.method === 'GET' && req.path === `/2010-04-01/Accounts/${SID}.json`)
        return json(res, 200, { sid: SID, status: 'active' });
      if (req.method === 'POST' && req.path === `/2010-04-01/Accounts/${SID}/Messages.json`) {
        const form = new URLSearchParams(req.body);
        delivered.push({ to: form.get('To')!, body: form.get('Body')! });
        return json(res, 201, { sid: `SM${String(delivered.length).padStart(32, '0')}`, status: 'queued' });
      }
      json(res, 404, { message: 'not found' });
    });
    overrides.twilioApiUrl = twilio.url;
    overrides.outboundAllowHosts = [twilio.host];
    return () => twilio.close();
  });
  const t = useTestContext(kind, overrides);
  let key: string;
  beforeAll(async () => {
    expect(
      (
        await t.call('POST', '/sms', {
          as: 'owner@globex.test',
          body: { provider: 'twilio', twilio: { accountSid: SID, authToken: 'token', phoneNumber: '+14155550100' } },
        })
      ).status,
    ).toBe(200);
    const saved = await t.call('PUT', '/sms/guard', {
      as: 'owner@globex.test',
      body: {
        allowedCountries: ['US', 'GB', 'LT', 'SO'],
        rules: {
          volumeMultiplier: 5,
          volumeAllowance: 20,
          baselineDays: 7,
          conversionWindow: 30,
          conversionMinPercent: 10,
          conversionGraceSeconds: 60,
          holdMinutes: 60,
        },
      },
    });
    expect(saved.status).toBe(200);
    key = await apiKeyOf(t, 'owner@globex.test');
    // the normal range's last week: 40 SMS an hour, answered (its baseline, so 200 in the test's hour is usual)
    const account = t.account('globex').id;
    await t.db.tenant(account, (trx) =>
      sql`insert into sms_guard_sends (account_id, prefix, phone_number, ts, answered)
        select ${account}, ${NORMAL_PREFIX}, '+12025550100', ${t.clock.now}::timestamptz - interval '2 hours' - (i * interval '90 seconds'), true
        from generate_series(0, 6719) i`.execute(trx),
    );
  });

  it('the attack is held within the first few dozen messages, normal traffic is never held, and nothing reaches Twilio after a hold', {
    timeout: 60_000,
  }, async () => {
    const refused = new Set<string>();
    const heldAt = new Map<string, number>(); // prefix -> deliveries to Twilio when its first refusal had settled
    const accepted = new Map<string, number>(ATTACK_PREFIXES.map((p) => [p, 0]));
    const normal: { status: number; code?: string }[] = [];
    let normalCounter = 0;
    const tick = () => (t.clock.now = new Date(t.clock.now.getTime() + 60)); // ~16 requests/s: the customers' key stays under its 20/s

    const attack = async (i: number) => {
      const prefix = ATTACK_PREFIXES[i % ATTACK_PREFIXES.length]!;
      tick();
      try {
        await sendPasscode(t.deps, t.account('globex').id, { phoneNumber: attackNumber(prefix, i) }, BOT);
        accepted.set(prefix, accepted.get(prefix)! + 1);
      } catch (err) {
        expect(err).toBeInstanceOf(ApiError);
        expect(err).toMatchObject({ status: 429, code: 'SMS_PUMPING_SUSPECTED' });
        expect(Number((err as ApiError).headers!['Retry-After'])).toBeGreaterThan(0);
        refused.add(prefix);
      }
    };
    const customer = async () => {
      tick();
      const phone = `+1202555${String(1000 + normalCounter++).padStart(4, '0')}`;
      const sent = await v1(t, key, 'POST', '/otp/send', { phoneNumber: phone });
      normal.push({
        status: sent.status,
        code: sent.status === 429 ? ((await sent.json()) as { code: string }).code : undefined,
      });
      if (sent.status !== 201) return;
      const { id } = (await sent.json()) as { id: string };
      const code = delivered.findLast((d) => d.to === phone)!.body.match(/\b(\d{4,10})\b/)![1]!;
      tick();
      expect((await v1(t, key, 'POST', '/otp/check', { id, code })).status).toBe(200);
    };
    // a bot fires requests several at a time; a customer now and then among them
    for (let i = 0; i < ATTACK_SENDS; i += CONCURRENCY) {
      const batch = Array.from({ length: Math.min(CONCURRENCY, ATTACK_SENDS - i) }, (_, j) => attack(i + j));
      if ((i / CONCURRENCY) % (NORMAL_EVERY / CONCURRENCY) === 0) batch.push(customer());
      await Promise.all(batch);
      // once the batch with a range's first refusal has settled, nothing to that range is in flight
      for (const prefix of refused) if (!heldAt.has(prefix)) heldAt.set(prefix, delivered.length);
    }

    // held within the first few dozen: at most the allowance (20) and the tripping send per range
    for (const prefix of ATTACK_PREFIXES) {
      expect(heldAt.has(prefix)).toBe(true);
      // 20 delivered, then the send that tripped the rule and those already past the first check (failed, not sent)
      expect(accepted.get(prefix)).toBeLessThanOrEqual(20 + CONCURRENCY);
      expect(delivered.filter((d) => d.to.startsWith(prefix)).length).toBeLessThanOrEqual(20);
      // nothing to the range reached Twilio after its hold
      expect(delivered.slice(heldAt.get(prefix)!).filter((d) => d.to.startsWith(prefix))).toEqual([]);
    }
    expect(delivered.filter((d) => ATTACK_PREFIXES.some((p) => d.to.startsWith(p))).length).toBeLessThanOrEqual(60);
    // normal traffic: every send went out
    expect(normal).toHaveLength(ATTACK_SENDS / NORMAL_EVERY);
    expect(normal.filter((n) => n.status !== 201)).toEqual([]);
    expect(delivered.filter((d) => d.to.startsWith(NORMAL_PREFIX))).toHaveLength(normal.length);
  });

  it('a hold is audited, notifies the admins, flags the account in Watch Tower and is listed in the settings', async () => {
    const audit = await auditOf(t, 'sms.pumping-held');
    expect(audit).toHaveLength(3);
    expect(audit.join('\n')).toContain('numbers starting +370600 (Lithuania)');
    const notes = (await (await t.call('GET', '/notifications', { as: 'owner@globex.test' })).json()) as {
      notifications: { kind: string; title: string }[];
    };
    expect(notes.notifications.filter((n) => n.kind === 'sms.pumping-held')).toHaveLength(3);
    const staff = (await (await t.call('GET', '/watch-tower/accounts?q=globex', { as: STAFF })).json()) as AccountList;
    expect(staff.accounts.find((a) => a.id === t.account('globex').id)?.smsHeldRanges).toBe(3);
    const guard = (await (await t.call('GET', '/sms/guard', { as: 'owner@globex.test' })).json()) as SmsGuard;
    expect(guard.holds.map((h) => h.prefix).sort()).toEqual([...ATTACK_PREFIXES].sort());
  });

  it('an admin releases a range: its SMS go out again at once, and the release is audited', async () => {
    const before = delivered.length;
    expect((await v1(t, key, 'POST', '/otp/send', { phoneNumber: attackNumber('+44740', 99_001) })).status).toBe(429);
    const released = await t.call('POST', `/sms/guard/holds/${encodeURIComponent('+44740')}/release`, {
      as: 'owner@globex.test',
    });
    expect(released.status).toBe(200);
    expect(((await released.json()) as SmsGuard).holds.map((h) => h.prefix)).not.toContain('+44740');
    t.clock.now = new Date(t.clock.now.getTime() + 1000);
    expect((await v1(t, key, 'POST', '/otp/send', { phoneNumber: attackNumber('+44740', 99_002) })).status).toBe(201);
    expect(delivered.slice(before).map((d) => d.to)).toEqual([attackNumber('+44740', 99_002)]);
    expect(await auditOf(t, 'sms.pumping-released')).toEqual([
      expect.stringContaining('Released the hold on SMS to numbers starting +44740 (United Kingdom)'),
    ]);
    expect(
      (await t.call('POST', `/sms/guard/holds/${encodeURIComponent('+44740')}/release`, { as: 'owner@globex.test' })).status,
    ).toBe(404);
  });

  it('a range whose SMS are not answered is held by the conversion rule even under the volume limit', async () => {
    await t.call('PUT', '/sms/guard', {
      as: 'owner@globex.test',
      body: {
        allowedCountries: ['US', 'GB', 'LT', 'SO'],
        rules: {
          volumeMultiplier: 5,
          volumeAllowance: 1000,
          baselineDays: 7,
          conversionWindow: 10,
          conversionMinPercent: 10,
          conversionGraceSeconds: 60,
          holdMinutes: 60,
        },
      },
    });
    let first429 = -1;
    for (let i = 0; i < 20 && first429 < 0; i++) {
      t.clock.now = new Date(t.clock.now.getTime() + 30_000);
      const res = await v1(t, key, 'POST', '/otp/send', { phoneNumber: `+1303555${String(1000 + i).padStart(4, '0')}` });
      if (res.status === 429) first429 = i;
    }
    // ten unanswered SMS older than the grace are judged by the 12th send; the next one is refused
    expect(first429).toBeGreaterThan(10);
    expect(first429).toBeLessThanOrEqual(14);
    expect((await auditOf(t, 'sms.pumping-held')).find((d) => d.includes('+1303'))).toContain('were answered');
  });
});
