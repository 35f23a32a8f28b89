import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { BOTH_DATABASE_KINDS, useTestContext, type TestContext } from './helpers';
import { json, startPeer, type Peer } from './peers';
import { assertAppUsable, chargeCredits } from '../../api/usage/credits';
import type { Config } from '../../api/config';
import type { AppId } from '../../api/contract/apps';
import { apiCaller } from '../../api/apps/platform/caller';
import { enrollPasskey } from '../../api/apps/passkeys/service';
import { sendPasscode } from '../../api/apps/one-time-passcode/service';
import type { ApiError } from '../../api/http/errors';

const SID = 'AC0123456789abcdef0123456789abcdef';
const TOKEN = 'twilio-auth-token-secret-value';
/** Twilio on loopback: the account is fine, every message to +1415555 0999 fails with a 500. */
const twilioPeer = () =>
  startPeer((req, res) => {
    if (req.method === 'GET') return json(res, 200, { sid: SID, status: 'active' });
    const to = new URLSearchParams(req.body).get('To');
    if (to === '+14155550999') return json(res, 500, { message: 'boom' });
    return json(res, 201, { sid: 'SM' + 'f'.repeat(32), status: 'queued', to });
  });

async function usage(
  t: TestContext,
  accountId: string,
  app: AppId,
): Promise<{ credits: number; ledger: number; freeTier: number }> {
  const row = (
    await sql<{ credits: number; free_tier: number; ledger: number }>`select b.credits, b.free_tier,
      (select coalesce(sum(units), 0)::int from credit_ledger l where l.account_id = b.account_id and l.app = b.app) as ledger
    from app_billing b where b.account_id = ${accountId} and b.app = ${app}`.execute(t.db.kysely)
  ).rows[0]!;
  return { credits: row.credits, ledger: row.ledger, freeTier: row.free_tier };
}

describe.each(BOTH_DATABASE_KINDS)('credit ledger (%s)', (kind) => {
  let twilio: Peer;
  const overrides: Partial<Config> = {};
  beforeAll(async () => {
    twilio = await twilioPeer();
    overrides.twilioApiUrl = twilio.url;
    overrides.outboundAllowHosts = [twilio.host];
  });
  afterAll(() => twilio.close());
  const t = useTestContext(kind, overrides);
  const ledgerRows = async (accountId: string) =>
    (
      await t.db.system((trx) =>
        sql<{ n: number }>`select count(*)::int as n from credit_ledger where account_id = ${accountId}`.execute(trx),
      )
    ).rows[0]!.n;
  let key: string;
  const v1 = (path: string, body: unknown) => t.call('POST', `/v1${path}`, { body, headers: { authorization: `Bearer ${key}` } });

  beforeAll(async () => {
    const res = await t.call('POST', '/sms', {
      as: 'owner@acme.test',
      body: { provider: 'twilio', twilio: { accountSid: SID, authToken: TOKEN, phoneNumber: '+14155550100' } },
    });
    expect(res.status).toBe(200);
    key = ((await (await t.call('GET', '/accounts/developer', { as: 'owner@acme.test' })).json()) as { secretKey: string })
      .secretKey;
  });

  /** A free trial with `left` credits of its free tier left. */
  async function onTrialWith(app: AppId, left: number): Promise<string> {
    const acme = t.account('acme');
    await sql`update app_billing set status = 'free-trial', credits = free_tier - ${left} where account_id = ${acme.id} and app = ${app}`.execute(
      t.db.kysely,
    );
    // the ledger is the truth the running total is kept from: bring it to the same total
    const { credits, ledger } = await usage(t, acme.id, app);
    if (credits !== ledger)
      await sql`insert into credit_ledger (account_id, app, task_id, kind, units) values (${acme.id}, ${app}, ${`opening-${Date.now()}`}, 'opening', ${credits - ledger})`.execute(
        t.db.kysely,
      );
    return acme.id;
  }

  const phone = (base: number, i: number) => `+1415556${String(base + i).padStart(4, '0')}`;
  const CASES: [
    AppId,
    string,
    (i: number) => { phoneNumber: string; customerRef: string },
    (accountId: string, body: { phoneNumber: string; customerRef: string }) => Promise<unknown>,
  ][] = [
    [
      'passkeys',
      '/passkeys/enrollments',
      (i) => ({ customerRef: `C-${i}`, phoneNumber: phone(2000, i) }),
      (a, b) => enrollPasskey(t.deps, a, b, apiCaller('Agent', null, null)),
    ],
    [
      'one-time-passcode',
      '/otp/send',
      (i) => ({ customerRef: `C-${i}`, phoneNumber: phone(3000, i) }),
      (a, b) => sendPasscode(t.deps, a, b, apiCaller('Agent', null, null)),
    ],
  ];

  it.each(CASES)(
    '50 parallel %s tasks with 3 credits left: 3 are sent, the rest 402 FREE_TIER_EXHAUSTED, usage stops at the free tier',
    async (app, path, body, service) => {
      const accountId = await onTrialWith(app, 3);
      // 40 through /api/v1 (its whole burst, so none is rate limited) and 10 the way an agent action sends, all at once
      await sql`delete from api_rate_buckets where account_id = ${accountId}`.execute(t.db.kysely);
      // a task answers 201 with a failed status when its SMS did not go out (a slow provider on a
      // loaded machine): its credit is given back, so what counts is what was delivered
      const delivered = (task: unknown) =>
        !['failed', 'not_delivered'].includes(
          String(
            (task as { status?: string; verification?: { status?: string } }).verification?.status ??
              (task as { status?: string }).status,
          ),
        );
      const outcomes = await Promise.all([
        ...Array.from({ length: 40 }, async (_, i) => {
          const res = await v1(path, body(i));
          const answer = await res.json();
          if (res.status === 402) expect(answer).toMatchObject({ code: 'FREE_TIER_EXHAUSTED' });
          return { status: res.status, delivered: res.status < 300 && delivered(answer) };
        }),
        ...Array.from({ length: 10 }, (_, i) =>
          service(accountId, body(40 + i)).then(
            (task) => ({ status: 201, delivered: delivered(task) }),
            (err: ApiError) => ({ status: err.code === 'FREE_TIER_EXHAUSTED' ? err.status : 500, delivered: false }),
          ),
        ),
      ]);
      const statuses = outcomes.map((o) => o.status);
      expect(statuses.filter((s) => s === 201 || s === 200)).toHaveLength(3);
      expect(statuses.filter((s) => s === 402)).toHaveLength(47);
      const after = await usage(t, accountId, app);
      expect(after.credits).toBe(after.freeTier - 3 + outcomes.filter((o) => o.delivered).length);
      expect(after.credits).toBeLessThanOrEqual(after.freeTier);
      expect(after.ledger).toBe(after.credits);
    },
  );

  it('a send that fails gives its credit back: the next task can use it', async () => {
    const accountId = await onTrialWith('passkeys', 1);
    await sql`delete from api_rate_buckets where account_id = ${accountId}`.execute(t.db.kysely);
    const failed = await v1('/passkeys/enrollments', { customerRef: 'C-fail', phoneNumber: '+14155550999' });
    expect(await failed.json()).toMatchObject({ status: 'not_delivered' });
    expect(await usage(t, accountId, 'passkeys')).toMatchObject({
      credits: (await usage(t, accountId, 'passkeys')).freeTier - 1,
    });
    const ok = await v1('/passkeys/enrollments', { customerRef: 'C-ok', phoneNumber: '+14155550998' });
    expect(ok.status).toBe(201);
    const after = await usage(t, accountId, 'passkeys');
    expect(after.credits).toBe(after.freeTier);
    expect(after.ledger).toBe(after.credits);
  });

  it('an app that was never started is refused with 403 APP_NOT_ACTIVE', async () => {
    const globex = t.account('globex');
    await sql`delete from app_billing where account_id = ${globex.id} and app = 'e-form'`.execute(t.db.kysely);
    await expect(t.db.tenant(globex.id, (trx) => assertAppUsable(trx, globex.id, 'e-form'))).rejects.toMatchObject({
      status: 403,
      code: 'APP_NOT_ACTIVE',
    });
  });

  it('charging a task raises the credits the console shows, once per task and kind', async () => {
    const acme = t.account('acme');
    const before = (await t.call('GET', '/one-time-passcode/billing/usage', { as: 'admin@acme.test' }).then((r) => r.json())) as {
      credits: number;
    };
    const charged = await t.db.tenant(acme.id, async (trx) => [
      await chargeCredits(trx, { accountId: acme.id, app: 'one-time-passcode', taskId: 'task-1', kind: 'sms' }),
      await chargeCredits(trx, { accountId: acme.id, app: 'one-time-passcode', taskId: 'task-1', kind: 'sms' }),
    ]);
    expect(charged).toEqual([true, false]);
    const after = (await t.call('GET', '/one-time-passcode/billing/usage', { as: 'admin@acme.test' }).then((r) => r.json())) as {
      credits: number;
    };
    expect(after.credits - before.credits).toBe(1);
  });

  it('a free trial whose free tier is used up answers 402 FREE_TIER_EXHAUSTED', async () => {
    const acme = t.account('acme');
    await sql`update app_billing set status = 'free-trial', credits = free_tier where account_id = ${acme.id} and app = 'passkeys'`.execute(
      t.db.kysely,
    );
    await expect(t.db.tenant(acme.id, (trx) => assertAppUsable(trx, acme.id, 'passkeys'))).rejects.toMatchObject({
      status: 402,
      code: 'FREE_TIER_EXHAUSTED',
    });
  });

  it('ledger rows cannot be changed or deleted', async () => {
    const acme = t.account('acme');
    await expect(t.db.tenant(acme.id, (trx) => sql`delete from credit_ledger`.execute(trx))).rejects.toThrow(/append-only/);
    await expect(t.db.system((trx) => sql`delete from credit_ledger where account_id = ${acme.id}`.execute(trx))).rejects.toThrow(
      /append-only/,
    );
    await expect(
      t.db.system((trx) => sql`update credit_ledger set units = 1 where account_id = ${acme.id}`.execute(trx)),
    ).rejects.toThrow(/append-only/);
  });

  it('removing an account removes its ledger with it', async () => {
    const globex = t.account('globex');
    expect(await ledgerRows(globex.id)).toBeGreaterThan(0);
    await t.db.system((trx) => sql`delete from accounts where id = ${globex.id}`.execute(trx));
    expect(await ledgerRows(globex.id)).toBe(0);
  });
});
