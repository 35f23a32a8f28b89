import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { DATABASE_KINDS, useTestContext, type TestContext } from './helpers';
import { runDueJobs, type Job } from '../../api/jobs/runner';
import { BILLING_JOBS } from '../../api/billing/jobs';
import { assertAppUsable } from '../../api/usage/credits';
import { TRIAL_DAYS } from '../../api/contract/plans';

const DAY = 86_400_000;

async function notificationKeys(t: TestContext, app: string): Promise<string[]> {
  const acme = t.account('acme').id;
  const rows = await t.db.tenant(acme, (trx) =>
    trx
      .selectFrom('notifications')
      .select('dedupe_key')
      .where('dedupe_key', 'like', `trial.%:${app}:%`)
      .orderBy('created_at')
      .execute(),
  );
  return rows.map((r) => r.dedupe_key!.split(':')[0]);
}

const passkeysStatus = async (t: TestContext) => {
  const acme = t.account('acme').id;
  return (
    await t.db.tenant(acme, (trx) =>
      trx
        .selectFrom('app_billing')
        .select('status')
        .where('account_id', '=', acme)
        .where('app', '=', 'passkeys')
        .executeTakeFirstOrThrow(),
    )
  ).status;
};

describe.each(DATABASE_KINDS)('trial end by the scheduled job (%s)', (kind) => {
  const t = useTestContext(kind);
  // The seed's passkeys trial ends 9 days after the clock's start.
  const start = () => t.clock.now;
  let begin: Date;

  it('a new free trial lasts 14 days', async () => {
    const res = await t.call('POST', '/payments/billing/free-trial', { as: 'admin@acme.test', body: {} });
    const body = (await res.json()) as { trialEndsAt: string };
    expect(TRIAL_DAYS).toBe(14);
    expect(new Date(body.trialEndsAt).getTime() - t.clock.now.getTime()).toBe(14 * DAY);
    begin = new Date(start());
  });

  it('7 days before the end the admins are told the trial is ending', async () => {
    t.clock.now = new Date(begin.getTime() + 3 * DAY);
    expect(await runDueJobs(t.deps, BILLING_JOBS)).toContain('billing.trials');
    expect(await notificationKeys(t, 'passkeys')).toEqual(['trial.ending']);
  });

  it('the reminder names the last day as people write it, in the account’s time zone (no ISO date)', async () => {
    const acme = t.account('acme').id;
    const zone = await t.db.tenant(acme, (trx) => trx.selectFrom('accounts').select('time_zone').executeTakeFirstOrThrow());
    const ends = await t.db.tenant(acme, (trx) =>
      trx.selectFrom('app_billing').select('trial_ends_at').where('app', '=', 'passkeys').executeTakeFirstOrThrow(),
    );
    const { body } = await t.db.tenant(acme, (trx) =>
      trx
        .selectFrom('notifications')
        .select('body')
        .where('dedupe_key', 'like', 'trial.ending:passkeys:%')
        .executeTakeFirstOrThrow(),
    );
    const day = new Intl.DateTimeFormat('en', { dateStyle: 'long', timeZone: zone.time_zone }).format(
      new Date(ends.trial_ends_at!),
    );
    expect(body).toBe(`The free trial ends on ${day}. Subscribe to keep using Passkeys.`);
    expect(body).not.toMatch(/\d{4}-\d{2}-\d{2}/);
  });

  it('the job does not run again before its interval has passed', async () => {
    t.clock.now = new Date(t.clock.now.getTime() + 60_000);
    expect(await runDueJobs(t.deps, BILLING_JOBS)).not.toContain('billing.trials');
  });

  it('1 day before the end they are told again, once', async () => {
    t.clock.now = new Date(begin.getTime() + 8.5 * DAY);
    await runDueJobs(t.deps, BILLING_JOBS);
    t.clock.now = new Date(t.clock.now.getTime() + 3_600_000);
    await runDueJobs(t.deps, BILLING_JOBS);
    expect(await notificationKeys(t, 'passkeys')).toEqual(['trial.ending', 'trial.ending.1']);
  });

  it('when the trial ends without a subscription the app becomes inactive and its tasks answer 403', async () => {
    t.clock.now = new Date(begin.getTime() + 9 * DAY + 60_000);
    await runDueJobs(t.deps, BILLING_JOBS);
    expect(await passkeysStatus(t)).toBe('inactive');
    const acme = t.account('acme').id;
    await expect(t.db.tenant(acme, (trx) => assertAppUsable(trx, acme, 'passkeys'))).rejects.toMatchObject({
      status: 403,
      code: 'APP_NOT_ACTIVE',
    });
    expect(await notificationKeys(t, 'passkeys')).toContain('trial.ended');
  });

  it("the end of the trial is in the audit log as the provider's doing", async () => {
    const acme = t.account('acme').id;
    const rows = await t.db.tenant(acme, (trx) =>
      trx.selectFrom('audit_log').select(['admin_id', 'namespace']).where('event', '=', 'billing.trial-ended').execute(),
    );
    expect(rows).toEqual([{ admin_id: null, namespace: 'passkeys' }]);
  });

  it('bootstrap says inactive with the ended trial, so the home card offers Subscribe', async () => {
    const boot = (await (await t.call('GET', '/admins/bootstrap', { as: 'admin@acme.test' })).json()) as {
      billing: Record<string, { status: string; trialEndsAt: string | null }>;
    };
    expect(boot.billing.passkeys.status).toBe('inactive');
    expect(boot.billing.passkeys.trialEndsAt).not.toBeNull();
  });

  it('a second free trial of the same app is refused with 409 TRIAL_NOT_AVAILABLE', async () => {
    const res = await t.call('POST', '/passkeys/billing/free-trial', { as: 'admin@acme.test', body: {} });
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({ code: 'TRIAL_NOT_AVAILABLE' });
    expect(await passkeysStatus(t)).toBe('inactive');
  });

  it('app start after the trial has ended opens the app without starting another trial', async () => {
    const res = await t.call('POST', '/apps/start', { as: 'admin@acme.test', body: { app: 'passkeys' } });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ started: false, billing: { status: 'inactive' } });
  });
});

describe.each(DATABASE_KINDS)('periodic jobs across processes (%s)', (kind) => {
  const t = useTestContext(kind);

  it('a due job runs once when two workers ask at the same time', async () => {
    let runs = 0;
    const job: Job = { name: 'test.counter', intervalSeconds: 3600, run: async () => void runs++ };
    const [a, b] = await Promise.all([
      runDueJobs(t.deps, [job], { workerId: 'one' }),
      runDueJobs(t.deps, [job], { workerId: 'two' }),
    ]);
    expect(runs).toBe(1);
    expect([...a, ...b]).toEqual(['test.counter']);
  });

  it('a job whose worker died is taken again after its lease expires', async () => {
    let runs = 0;
    const job: Job = { name: 'test.crashy', intervalSeconds: 3600, run: async () => void runs++ };
    await runDueJobs(t.deps, [{ ...job, run: async () => void 0 }]);
    // a worker leased it and vanished: the row stays locked until its lease ends
    await sql`update jobs set next_run_at = ${t.clock.now}, locked_until = ${new Date(t.clock.now.getTime() + 60_000)}, locked_by = 'gone' where name = 'test.crashy'`.execute(
      t.db.kysely,
    );
    expect(await runDueJobs(t.deps, [job])).toEqual([]);
    t.clock.now = new Date(t.clock.now.getTime() + 61_000);
    expect(await runDueJobs(t.deps, [job])).toEqual(['test.crashy']);
    expect(runs).toBe(1);
  });

  it('a failing job is tried again later and its error is kept', async () => {
    const job: Job = {
      name: 'test.failing',
      intervalSeconds: 3600,
      run: async () => {
        throw new Error('destination down');
      },
    };
    expect(await runDueJobs(t.deps, [job])).toEqual([]);
    const row = await t.db.system((trx) =>
      trx
        .selectFrom('jobs')
        .select(['last_error', 'next_run_at', 'locked_until'])
        .where('name', '=', 'test.failing')
        .executeTakeFirstOrThrow(),
    );
    expect(row.last_error).toBe('destination down');
    expect(row.locked_until).toBeNull();
    expect(new Date(row.next_run_at).getTime()).toBeGreaterThan(t.clock.now.getTime());
  });
});
