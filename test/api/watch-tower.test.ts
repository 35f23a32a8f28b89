import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { sql } from 'kysely';
import { AccountDetailSchema, AccountListSchema, StatisticsSchema, SummarySchema } from '../../api/contract/watch-tower';
import { recordResult } from '../../api/results/record';
import { DATABASE_KINDS, useTestContext, type TestContext } from './helpers';

const STAFF = 'staff@provider.test';

/** A bare account for the test, outside the demo data, with the apps' paid dates given. */
async function newAccount(
  t: TestContext,
  name: string,
  apps: { app: string; status: 'subscription' | 'enterprise' | 'cancelled' | 'free-trial'; paidSince?: string }[] = [],
) {
  return t.db.system(async (trx) => {
    const { id } = await trx
      .insertInto('accounts')
      .values({ name, platform: 'zoom', email_domain: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    for (const a of apps) {
      await trx
        .insertInto('app_billing')
        .values({ account_id: id, app: a.app, status: a.status, trial_ends_at: null, paid_since: a.paidSince ?? null })
        .execute();
    }
    return id;
  });
}

async function record(
  t: TestContext,
  accountId: string,
  app: 'passkeys' | 'payments' | 'one-time-passcode',
  isoTs: string,
  n = 1,
) {
  await t.db.tenant(accountId, async (trx) => {
    for (let i = 0; i < n; i++)
      await recordResult(trx, accountId, {
        app,
        status: 'success',
        ts: new Date(isoTs),
        sessionRef: `ses_${i}`,
        customerRef: 'C-1',
      });
  });
}

describe.each(DATABASE_KINDS)('Watch Tower (%s)', (kind) => {
  const t = useTestContext(kind);

  describe('root guard', () => {
    const calls = (t: TestContext): [string, string, unknown?][] => [
      ['GET', '/watch-tower/accounts'],
      ['GET', `/watch-tower/accounts/${t.account('globex').id}`],
      ['PUT', `/watch-tower/accounts/${t.account('globex').id}/apps/payments/status`, { status: 'enterprise' }],
      ['GET', '/watch-tower/statistics/summary'],
      ['GET', `/watch-tower/statistics/account?accountId=${t.account('globex').id}`],
      ['POST', '/watch-tower/ghost-mode', { accountId: t.account('globex').id }],
    ];

    it.each(['owner@acme.test', 'admin@acme.test', 'supervisor@acme.test'])(
      'every Watch Tower call answers 403 to %s and changes nothing',
      async (email) => {
        for (const [method, path, body] of calls(t)) {
          const res = await t.call(method, path, { as: email, body });
          expect(res.status, `${method} ${path}`).toBe(403);
          expect(await res.json()).toEqual({
            requestId: expect.any(String),
            code: 'FORBIDDEN',
            message: 'This is for provider staff only.',
          });
        }
        const billing = await t.db.tenant(t.account('globex').id, (trx) =>
          trx.selectFrom('app_billing').select('status').where('app', '=', 'payments').executeTakeFirstOrThrow(),
        );
        expect(billing.status).toBe('subscription');
      },
    );

    it('a ghost session of staff is not root: every Watch Tower call answers 403', async () => {
      const start = await t.call('POST', '/watch-tower/ghost-mode', { as: STAFF, body: { accountId: t.account('acme').id } });
      const { token } = (await start.json()) as { token: string };
      for (const [method, path, body] of calls(t)) {
        const res = await t.call(method, path, { token, body });
        expect(res.status, `${method} ${path}`).toBe(403);
      }
    });

    it('without a token every Watch Tower call answers 401', async () => {
      for (const [method, path, body] of calls(t)) expect((await t.call(method, path, { body })).status).toBe(401);
    });
  });

  describe('accounts', () => {
    it('lists every account with its apps, sign-in provider and admins, and counts the active ones', async () => {
      const res = await t.call('GET', '/watch-tower/accounts', { as: STAFF });
      expect(res.status).toBe(200);
      const raw = (await res.json()) as { accounts: Record<string, unknown>[] };
      // SPEC §3 names the field provider, as the answer does (valibot's parse would drop a stray key)
      expect(raw.accounts.find((a) => a.name === 'Acme Support')).toMatchObject({ provider: 'google' });
      expect(raw.accounts.every((a) => !('platform' in a))).toBe(true);
      const body = v.parse(AccountListSchema, raw);
      const acme = body.accounts.find((a) => a.name === 'Acme Support')!;
      expect(acme.apps).toContainEqual({ id: 'one-time-passcode', status: 'subscription' });
      expect(acme.admins.map((a) => a.email)).toEqual(['owner@acme.test', 'admin@acme.test', 'supervisor@acme.test']);
      expect(acme.admins[0]).toMatchObject({ firstName: 'Olivia', lastName: 'Owens', timeZone: 'Europe/London', photo: null });
      const active = await t.db.system(
        async (trx) =>
          (
            await sql<{
              n: number;
            }>`select count(distinct account_id)::int as n from app_billing where status in ('free-trial','subscription','enterprise')`.execute(
              trx,
            )
          ).rows[0]!.n,
      );
      expect(body.activeAccounts).toBe(active);
      expect(body.matching).toBe(body.accounts.length);
    });

    it.each([
      ['an account name', 'globex', 'Globex Care'],
      ["an admin's e-mail", 'OWNER@GLOBEX', 'Globex Care'],
      ["an admin's last name", 'adeyemi', 'Acme Support'],
      ["an admin's first name", 'Grace', 'Globex Care'],
      ["an admin's full name", 'Sam Silva', 'Acme Support'],
    ])('finds accounts by %s', async (_what, q, name) => {
      const res = await t.call('GET', `/watch-tower/accounts?q=${encodeURIComponent(q)}`, { as: STAFF });
      const body = v.parse(AccountListSchema, await res.json());
      expect(body.accounts.map((a) => a.name)).toEqual([name]);
    });

    it("finds an account by an admin's name as it is now, not as it was", async () => {
      const id = await newAccount(t, 'Renamed Admins Ltd');
      await t.db.system(async (trx) => {
        await trx
          .insertInto('admins')
          .values({
            account_id: id,
            email: 'kim@renamed.test',
            first_name: 'Kim',
            last_name: 'Oldname',
            role: 'owner',
            photo: null,
            time_zone: null,
            archived_at: null,
            last_sign_in_at: null,
          })
          .execute();
        await trx.updateTable('admins').set({ last_name: 'Newname' }).where('email', '=', 'kim@renamed.test').execute();
      });
      const names = async (q: string) =>
        v
          .parse(
            AccountListSchema,
            await (await t.call('GET', `/watch-tower/accounts?q=${encodeURIComponent(q)}`, { as: STAFF })).json(),
          )
          .accounts.map((a) => a.name);
      expect(await names('KIM NEWNAME')).toEqual(['Renamed Admins Ltd']);
      expect(await names('oldname')).toEqual([]);
    });

    it('finds an account by its id', async () => {
      const res = await t.call('GET', `/watch-tower/accounts?q=${t.account('globex').id}`, { as: STAFF });
      const body = v.parse(AccountListSchema, await res.json());
      expect(body.accounts.map((a) => a.id)).toEqual([t.account('globex').id]);
    });

    it('treats % and _ in a search as plain characters', async () => {
      const body = v.parse(AccountListSchema, await (await t.call('GET', '/watch-tower/accounts?q=%25', { as: STAFF })).json());
      expect(body.accounts).toEqual([]);
    });

    it('the account detail has its sign-in provider, every app with its status and the admins', async () => {
      const res = await t.call('GET', `/watch-tower/accounts/${t.account('globex').id}`, { as: STAFF });
      expect(res.status).toBe(200);
      const raw = (await res.json()) as Record<string, unknown>;
      expect([raw.provider, 'platform' in raw]).toEqual(['azure', false]);
      const body = v.parse(AccountDetailSchema, raw);
      expect(body.name).toBe('Globex Care');
      expect(body.apps).toHaveLength(6);
      expect(body.apps.find((a) => a.id === 'passkeys')?.status).toBe('inactive');
      expect(body.apps.find((a) => a.id === 'one-time-passcode')?.status).toBe('enterprise');
      expect(body.admins).toEqual([expect.objectContaining({ email: 'owner@globex.test', role: 'owner' })]);
    });

    it('an unknown account answers 404 ACCOUNT_NOT_FOUND', async () => {
      for (const id of ['00000000-0000-4000-8000-000000000000', 'not-an-id']) {
        const res = await t.call('GET', `/watch-tower/accounts/${id}`, { as: STAFF });
        expect(res.status).toBe(404);
        expect(await res.json()).toMatchObject({ code: 'ACCOUNT_NOT_FOUND' });
      }
    });
  });

  describe('conversion to Enterprise', () => {
    it('converts a subscription app, answers the new status and audits it as made by the provider', async () => {
      const globex = t.account('globex');
      const res = await t.call('PUT', `/watch-tower/accounts/${globex.id}/apps/payments/status`, {
        as: STAFF,
        body: { status: 'enterprise' },
      });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ status: 'enterprise' });
      const entry = await t.db.tenant(globex.id, (trx) =>
        trx.selectFrom('audit_log').selectAll().where('event', '=', 'billing.enterprise').executeTakeFirstOrThrow(),
      );
      expect(entry).toMatchObject({ namespace: 'payments', admin_id: null, admin_first_name: null });
      expect(entry.description).toContain('from subscription');
    });

    it('converts an app the account never started', async () => {
      const globex = t.account('globex');
      const res = await t.call('PUT', `/watch-tower/accounts/${globex.id}/apps/e-form/status`, {
        as: STAFF,
        body: { status: 'enterprise' },
      });
      expect(await res.json()).toEqual({ status: 'enterprise' });
      const boot = (await (await t.call('GET', '/admins/bootstrap', { as: 'owner@globex.test' })).json()) as {
        billing: Record<string, { status: string }>;
      };
      expect(boot.billing['e-form']!.status).toBe('enterprise');
    });

    it('an app already on Enterprise answers 409 ALREADY_ENTERPRISE', async () => {
      const res = await t.call('PUT', `/watch-tower/accounts/${t.account('globex').id}/apps/one-time-passcode/status`, {
        as: STAFF,
        body: { status: 'enterprise' },
      });
      expect(res.status).toBe(409);
      expect(await res.json()).toMatchObject({ code: 'ALREADY_ENTERPRISE' });
    });

    it('any other status answers 400 and changes nothing', async () => {
      const acme = t.account('acme');
      const res = await t.call('PUT', `/watch-tower/accounts/${acme.id}/apps/passkeys/status`, {
        as: STAFF,
        body: { status: 'subscription' },
      });
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ code: 'VALIDATION_FAILED', fields: { status: expect.any(String) } });
      const row = await t.db.tenant(acme.id, (trx) =>
        trx.selectFrom('app_billing').select('status').where('app', '=', 'passkeys').executeTakeFirstOrThrow(),
      );
      expect(row.status).toBe('free-trial');
    });

    it('an unknown app or account answers 404', async () => {
      expect(
        (
          await t.call('PUT', `/watch-tower/accounts/${t.account('acme').id}/apps/nope/status`, {
            as: STAFF,
            body: { status: 'enterprise' },
          })
        ).status,
      ).toBe(404);
      expect(
        (
          await t.call('PUT', '/watch-tower/accounts/00000000-0000-4000-8000-000000000000/apps/passkeys/status', {
            as: STAFF,
            body: { status: 'enterprise' },
          })
        ).status,
      ).toBe(404);
    });
  });

  describe('statistics', () => {
    it('account statistics count the results recorded for it, per day and per app, with missing days as 0', async () => {
      const id = await newAccount(t, 'Stats One');
      await record(t, id, 'passkeys', '2021-01-30T10:00:00Z', 2);
      await record(t, id, 'passkeys', '2021-01-31T23:59:59Z');
      await record(t, id, 'payments', '2021-02-01T00:00:00Z', 3);
      const res = await t.call('GET', `/watch-tower/statistics/account?accountId=${id}&from=2021-01-29&to=2021-02-02`, {
        as: STAFF,
      });
      expect(res.status).toBe(200);
      const body = v.parse(StatisticsSchema, await res.json());
      expect(body.tasks.daily).toEqual([
        { date: '2021-01-29', count: 0 },
        { date: '2021-01-30', count: 2 },
        { date: '2021-01-31', count: 1 },
        { date: '2021-02-01', count: 3 },
        { date: '2021-02-02', count: 0 },
      ]);
      expect(body.apps.passkeys!.daily.map((p) => p.count)).toEqual([0, 2, 1, 0, 0]);
      expect(body.apps.payments!.daily.map((p) => p.count)).toEqual([0, 0, 0, 3, 0]);
      expect(body.apps['e-form']!.daily.every((p) => p.count === 0)).toBe(true);
    });

    it('the 14-day moving average spans a month boundary and a gap, counting days before the range', async () => {
      const id = await newAccount(t, 'Stats Two');
      // 14 in the window before the range starts, then a gap, then results across Feb/Mar of a leap year
      await record(t, id, 'one-time-passcode', '2020-02-20T12:00:00Z', 14);
      await record(t, id, 'one-time-passcode', '2020-03-01T08:00:00Z', 7);
      const res = await t.call('GET', `/watch-tower/statistics/account?accountId=${id}&from=2020-02-28&to=2020-03-06`, {
        as: STAFF,
      });
      const body = v.parse(StatisticsSchema, await res.json());
      expect(body.tasks.daily.map((p) => p.date)).toEqual([
        '2020-02-28',
        '2020-02-29',
        '2020-03-01',
        '2020-03-02',
        '2020-03-03',
        '2020-03-04',
        '2020-03-05',
        '2020-03-06',
      ]);
      // Feb 20 stays in the window up to Mar 4 (14 days: Feb 20..Mar 4), then drops out
      expect(body.tasks.average.map((p) => p.count)).toEqual([1, 1, 1.5, 1.5, 1.5, 1.5, 0.5, 0.5]);
    });

    it.each([
      ['a day past the last one (year 9999)', 'to=9999-12-31', 'to', 'Dates are between 2000-01-01 and 2099-12-31'],
      ['February 30', 'from=2021-02-30&to=2021-03-02', 'from', 'Not a calendar date'],
      ['year 0', 'from=0000-01-01&to=2021-03-02', 'from', 'Not a calendar date'],
      ['month 13', 'to=2021-13-01', 'to', 'Not a calendar date'],
      ['not a date', 'from=yesterday', 'from', 'Dates are YYYY-MM-DD'],
    ])('statistics for %s answer 400 naming the date, at once', async (_what, range, field, message) => {
      for (const path of [
        `/watch-tower/statistics/summary?${range}`,
        `/watch-tower/statistics/account?accountId=${t.account('acme').id}&${range}`,
      ]) {
        const res = await t.call('GET', path, { as: STAFF });
        expect(res.status, path).toBe(400);
        expect(await res.json()).toMatchObject({ code: 'VALIDATION_FAILED', fields: { [field]: message } });
      }
    });

    it('a range longer than three years answers 400', async () => {
      const res = await t.call('GET', '/watch-tower/statistics/summary?from=2001-01-01&to=2099-12-31', { as: STAFF });
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({
        code: 'VALIDATION_FAILED',
        fields: { from: 'A range covers at most three years' },
      });
    });

    it("another account does not count in an account's statistics", async () => {
      const a = await newAccount(t, 'Stats Three');
      const b = await newAccount(t, 'Stats Four');
      await record(t, a, 'passkeys', '2019-05-05T05:00:00Z', 2);
      await record(t, b, 'passkeys', '2019-05-05T06:00:00Z', 5);
      const body = v.parse(
        StatisticsSchema,
        await (
          await t.call('GET', `/watch-tower/statistics/account?accountId=${a}&from=2019-05-05&to=2019-05-05`, { as: STAFF })
        ).json(),
      );
      expect(body.tasks.daily).toEqual([{ date: '2019-05-05', count: 2 }]);
    });

    it('the summary adds up every account per day and per app', async () => {
      const a = await newAccount(t, 'Sum A');
      const b = await newAccount(t, 'Sum B');
      await record(t, a, 'passkeys', '2018-12-31T22:00:00Z', 2);
      await record(t, b, 'passkeys', '2018-12-31T09:00:00Z', 1);
      await record(t, b, 'payments', '2019-01-02T09:00:00Z', 4);
      const body = v.parse(
        SummarySchema,
        await (await t.call('GET', '/watch-tower/statistics/summary?from=2018-12-31&to=2019-01-02', { as: STAFF })).json(),
      );
      expect(body.tasks.daily).toEqual([
        { date: '2018-12-31', count: 3 },
        { date: '2019-01-01', count: 0 },
        { date: '2019-01-02', count: 4 },
      ]);
      expect(body.apps.passkeys!.daily.map((p) => p.count)).toEqual([3, 0, 0]);
      expect(body.tasks.average.map((p) => p.count)).toEqual([0.21, 0.21, 0.5]);
    });

    it('paid accounts are cumulative by the day each became paid, from what was paid before the range', async () => {
      const before = v.parse(
        SummarySchema,
        await (await t.call('GET', '/watch-tower/statistics/summary?from=2017-02-27&to=2017-03-02', { as: STAFF })).json(),
      );
      const base = before.paidAccounts[0]!.count;
      await newAccount(t, 'Paid Early', [{ app: 'passkeys', status: 'subscription', paidSince: '2017-01-10T10:00:00Z' }]);
      await newAccount(t, 'Paid Feb', [{ app: 'passkeys', status: 'subscription', paidSince: '2017-02-28T23:00:00Z' }]);
      await newAccount(t, 'Paid Mar', [
        { app: 'payments', status: 'enterprise', paidSince: '2017-03-01T01:00:00Z' },
        { app: 'passkeys', status: 'subscription', paidSince: '2017-03-02T01:00:00Z' },
      ]);
      await newAccount(t, 'Cancelled', [{ app: 'passkeys', status: 'cancelled', paidSince: '2017-02-28T01:00:00Z' }]);
      await newAccount(t, 'Trial', [{ app: 'passkeys', status: 'free-trial', paidSince: '2017-02-28T01:00:00Z' }]);
      const body = v.parse(
        SummarySchema,
        await (await t.call('GET', '/watch-tower/statistics/summary?from=2017-02-27&to=2017-03-02', { as: STAFF })).json(),
      );
      expect(body.paidAccounts).toEqual([
        { date: '2017-02-27', count: base + 1 },
        { date: '2017-02-28', count: base + 2 },
        { date: '2017-03-01', count: base + 3 },
        { date: '2017-03-02', count: base + 3 },
      ]);
    });

    it('an app becoming paid is dated by the database, and leaving paid clears it', async () => {
      const id = await newAccount(t, 'Trigger', [{ app: 'passkeys', status: 'free-trial' }]);
      const read = () =>
        t.db.tenant(id, (trx) =>
          trx.selectFrom('app_billing').select(['paid_since']).where('app', '=', 'passkeys').executeTakeFirstOrThrow(),
        );
      expect((await read()).paid_since).toBeNull();
      await t.call('PUT', `/watch-tower/accounts/${id}/apps/passkeys/status`, { as: STAFF, body: { status: 'enterprise' } });
      expect((await read()).paid_since).not.toBeNull();
      await t.db.tenant(id, (trx) =>
        trx.updateTable('app_billing').set({ status: 'cancelled' }).where('app', '=', 'passkeys').execute(),
      );
      expect((await read()).paid_since).toBeNull();
    });

    it('the default range is the last 180 days up to today, and the demo has results in it', async () => {
      const body = v.parse(SummarySchema, await (await t.call('GET', '/watch-tower/statistics/summary', { as: STAFF })).json());
      expect(body.tasks.daily).toHaveLength(180);
      expect(body.to).toBe(t.clock.now.toISOString().slice(0, 10));
      expect(body.tasks.daily.reduce((s, p) => s + p.count, 0)).toBeGreaterThan(1000);
      expect(body.paidAccounts.at(-1)!.count).toBeGreaterThanOrEqual(5);
    });

    it('bad ranges and ids answer 400; an unknown account 404', async () => {
      expect((await t.call('GET', '/watch-tower/statistics/summary?from=2020-02-30', { as: STAFF })).status).toBe(400);
      expect((await t.call('GET', '/watch-tower/statistics/summary?from=2020-03-02&to=2020-03-01', { as: STAFF })).status).toBe(
        400,
      );
      expect((await t.call('GET', '/watch-tower/statistics/summary?from=2000-01-01&to=2020-03-01', { as: STAFF })).status).toBe(
        400,
      );
      expect((await t.call('GET', '/watch-tower/statistics/account', { as: STAFF })).status).toBe(400);
      expect(
        (await t.call('GET', '/watch-tower/statistics/account?accountId=00000000-0000-4000-8000-000000000000', { as: STAFF }))
          .status,
      ).toBe(404);
    });
  });
});
