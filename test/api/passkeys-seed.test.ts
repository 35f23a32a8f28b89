import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { BOTH_DATABASE_KINDS, useTestContext } from './helpers';
import { seedPasskeyHistory } from '../../api/apps/passkeys/seed';
import type { PasskeyCredential } from '../../api/contract/apps/passkeys';

describe.each(BOTH_DATABASE_KINDS)('Passkeys demo history (%s)', (kind) => {
  const t = useTestContext(kind);

  it('is made by the service with real ceremonies, inside the demo trial, so Enrollments, Activity and the dashboard agree', async () => {
    const tiles = async () =>
      Object.fromEntries(
        (
          (await (await t.call('GET', '/passkeys/dashboard?days=30', { as: 'owner@acme.test' })).json()) as {
            tiles: { key: string; value: number }[];
          }
        ).tiles.map((x) => [x.key, x.value]),
      );
    // the demo trial's opening usage is in the ledger already; the history adds its own ten
    const before = (await tiles()).credits!;
    const made = await seedPasskeyHistory({ ...t.deps, log: () => {} }, { now: t.clock.now });
    expect(made).toBe(10);
    const acme = t.account('acme').id;
    const rows = await t.db.system((trx) =>
      sql<{ kind: string; status: string; failure_reason: string | null; n: number }>`
      select kind, status, failure_reason, count(*)::int as n from passkey_tasks where account_id = ${acme} group by 1, 2, 3 order by 1, 2, 3`.execute(
        trx,
      ),
    );
    expect(rows.rows).toEqual([
      { kind: 'enrollment', status: 'expired', failure_reason: 'expired', n: 1 },
      { kind: 'enrollment', status: 'succeeded', failure_reason: null, n: 4 },
      { kind: 'verification', status: 'expired', failure_reason: 'expired', n: 1 },
      { kind: 'verification', status: 'failed', failure_reason: 'wrong_origin', n: 1 },
      { kind: 'verification', status: 'succeeded', failure_reason: null, n: 3 },
    ]);
    const creds = (await (await t.call('GET', '/passkeys/credentials', { as: 'owner@acme.test' })).json()) as PasskeyCredential[];
    expect(creds.map((c) => [c.customerRef, c.authenticator, c.synced]).sort()).toEqual([
      ['CUST-100101', 'Apple Passwords', true],
      ['CUST-100102', 'Google Password Manager', true],
      ['CUST-100103', 'YubiKey 5 Series', false],
      ['CUST-100104', 'Unknown authenticator', false],
    ]);
    // three authentications on the device; the phished one was refused but the device counted it
    expect(creds.find((c) => c.customerRef === 'CUST-100101')!.signCount).toBe(3);
    // the rate is of verifications that ended: 3 verified of 5 (one refused, one expired)
    expect(await tiles()).toEqual({ registrations: 4, verified: 3, success: 60, credits: before + 10 });
  });
});
