import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { BOTH_DATABASE_KINDS, useTestContext } from './helpers';
import { seedOtpHistory } from '../../api/apps/one-time-passcode/seed';

describe.each(BOTH_DATABASE_KINDS)('One-Time Passcode demo history (%s)', (kind) => {
  const t = useTestContext(kind);

  it('is made by the service, so dashboards, results and credits agree', async () => {
    const started = performance.now();
    const made = await seedOtpHistory({ ...t.deps, log: () => {} }, { perAccount: { 'acme.test': 40 }, now: t.clock.now });
    const ms = performance.now() - started;
    expect(made).toBe(40);
    const acme = t.account('acme').id;
    const rows = await t.db.system((trx) =>
      sql<{
        status: string;
        n: number;
      }>`select status, count(*)::int as n from otp_verifications where account_id = ${acme} group by 1`.execute(trx),
    );
    const by = Object.fromEntries(rows.rows.map((r) => [r.status, r.n]));
    expect(by.approved).toBeGreaterThan(20);
    expect(by.pending ?? 0).toBe(0);
    const results = await t.db.system((trx) =>
      sql<{
        n: number;
      }>`select count(*)::int as n from customer_results where account_id = ${acme} and app = 'one-time-passcode' and session_ref in (select id::text from otp_verifications)`.execute(
        trx,
      ),
    );
    expect(results.rows[0]!.n).toBe(40);
    const dashboard = (await (await t.call('GET', '/one-time-passcode/dashboard?days=30', { as: 'owner@acme.test' })).json()) as {
      tiles: { key: string; value: number }[];
    };
    expect(dashboard.tiles.find((k) => k.key === 'sent')!.value).toBe(40);
    console.log(`seeded 40 verifications in ${Math.round(ms)} ms on ${kind}`);
  });

  it("dates its audit entries when each passcode was sent or checked, so today's changes stay on the audit log's first page", async () => {
    const acme = t.account('acme').id;
    const now = t.clock.now;
    await seedOtpHistory({ ...t.deps, log: () => {} }, { perAccount: { 'acme.test': 40 }, now });
    const span = await t.db.system((trx) =>
      sql<{
        oldest: Date;
        newest: Date;
        n: number;
      }>`select min(ts) as oldest, max(ts) as newest, count(*)::int as n from audit_log where account_id = ${acme} and namespace = 'one-time-passcode'`.execute(
        trx,
      ),
    );
    const { oldest, newest, n } = span.rows[0]!;
    expect(n).toBeGreaterThanOrEqual(80);
    expect(new Date(newest).getTime()).toBeLessThanOrEqual(now.getTime());
    expect(now.getTime() - new Date(oldest).getTime()).toBeGreaterThan(7 * 86_400_000);
    const res = await t.call('GET', '/audit-log?limit=1', { as: 'owner@acme.test' });
    const [first] = (await res.json()) as { namespace: string; event: string }[];
    expect(first).toMatchObject({ namespace: 'global', event: 'account.created' });
  });
});
