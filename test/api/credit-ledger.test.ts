import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { BOTH_DATABASE_KINDS, useTestContext } from './helpers';
import { assertAppUsable, chargeCredits } from '../../api/apps/platform/credits';

describe.each(BOTH_DATABASE_KINDS)('credit ledger (%s)', (kind) => {
  const t = useTestContext(kind);

  it('an app that was never started is refused with 403 APP_NOT_ACTIVE', async () => {
    const globex = t.account('globex');
    await sql`delete from app_billing where account_id = ${globex.id} and app = 'e-form'`.execute(t.db.kysely);
    await expect(t.db.tenant(globex.id, (trx) => assertAppUsable(trx, globex.id, 'e-form'))).rejects.toMatchObject({ status: 403, code: 'APP_NOT_ACTIVE' });
  });

  it('charging a task raises the credits the console shows, once per task and kind', async () => {
    const acme = t.account('acme');
    const before = (await t.call('GET', '/one-time-passcode/billing/usage', { as: 'admin@acme.test' }).then((r) => r.json())) as { credits: number };
    const charged = await t.db.tenant(acme.id, async (trx) => [
      await chargeCredits(trx, { accountId: acme.id, app: 'one-time-passcode', taskId: 'task-1', kind: 'sms' }),
      await chargeCredits(trx, { accountId: acme.id, app: 'one-time-passcode', taskId: 'task-1', kind: 'sms' }),
    ]);
    expect(charged).toEqual([true, false]);
    const after = (await t.call('GET', '/one-time-passcode/billing/usage', { as: 'admin@acme.test' }).then((r) => r.json())) as { credits: number };
    expect(after.credits - before.credits).toBe(1);
  });

  it('a free trial whose free tier is used up answers 402 FREE_TIER_EXHAUSTED', async () => {
    const acme = t.account('acme');
    await sql`update app_billing set status = 'free-trial', credits = free_tier where account_id = ${acme.id} and app = 'passkeys'`.execute(t.db.kysely);
    await expect(t.db.tenant(acme.id, (trx) => assertAppUsable(trx, acme.id, 'passkeys'))).rejects.toMatchObject({ status: 402, code: 'FREE_TIER_EXHAUSTED' });
  });

  it('ledger rows cannot be changed or deleted', async () => {
    const acme = t.account('acme');
    await expect(t.db.tenant(acme.id, (trx) => sql`delete from credit_ledger`.execute(trx))).rejects.toThrow(/append-only/);
  });
});
