import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { recordResults } from '../../api/results/record';
import { BOTH_DATABASE_KINDS, useTestContext } from './helpers';

// Watch Tower's product-wide series read totals a trigger keeps beside the per-account rollup;
// they must always equal the sum of every account's rows, whatever wrote or removed them.

describe.each(BOTH_DATABASE_KINDS)('product-wide result totals (%s)', (kind) => {
  const t = useTestContext(kind);

  const mismatches = async () =>
    (
      await sql<{ app: string; day: string }>`
        select coalesce(d.app, t.app) as app, coalesce(d.day, t.day)::text as day from
          (select app, day, sum(count) as n from result_daily group by app, day) d
          full join result_daily_totals t on t.app = d.app and t.day = d.day
        where coalesce(d.n, 0) <> coalesce(t.count, 0)`.execute(t.db.kysely)
    ).rows;

  it('the summary totals equal every account summed after results are recorded and an account is deleted', async () => {
    expect(await mismatches()).toEqual([]);
    const acme = t.account('acme').id;
    const globex = t.account('globex').id;
    const ts = new Date('2026-03-01T12:00:00Z');
    await t.db.tenant(acme, (trx) =>
      recordResults(trx, acme, [
        { app: 'passkeys', status: 'success', ts, sessionRef: 's1' },
        { app: 'passkeys', status: 'failure', ts, sessionRef: 's2' },
      ]),
    );
    await t.db.tenant(globex, (trx) =>
      recordResults(trx, globex, [{ app: 'passkeys', status: 'success', ts, sessionRef: 's3' }]),
    );
    const day = await sql<{
      count: number;
    }>`select count::int from result_daily_totals where app = 'passkeys' and day = '2026-03-01'`.execute(t.db.kysely);
    expect(day.rows[0]?.count).toBeGreaterThanOrEqual(3);
    expect(await mismatches()).toEqual([]);
    await sql`delete from accounts where id = ${globex}`.execute(t.db.kysely);
    expect(await mismatches()).toEqual([]);
  });
});
