import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { sql } from 'kysely';
import { CustomerSearchAnswerSchema } from '../../api/contract/results';
import { recordResult } from '../../api/results/record';
import { DATABASE_KINDS, useTestContext, type TestContext } from './helpers';

async function record(
  t: TestContext,
  key: 'acme' | 'globex',
  r: { customerRef?: string; phoneNumber?: string; ts: string; sessionRef: string; app?: 'passkeys' | 'payments' },
) {
  const id = t.account(key).id;
  return t.db.tenant(id, (trx) =>
    recordResult(trx, id, {
      app: r.app ?? 'passkeys',
      status: 'success',
      ts: new Date(r.ts),
      sessionRef: r.sessionRef,
      customerRef: r.customerRef,
      phoneNumber: r.phoneNumber,
    }),
  );
}

async function search(t: TestContext, q: string, as = 'admin@acme.test') {
  const res = await t.call('GET', `/results/customer?customerRef=${encodeURIComponent(q)}`, { as });
  expect(res.status).toBe(200);
  return v.parse(CustomerSearchAnswerSchema, await res.json()).results;
}

describe.each(DATABASE_KINDS)('global customer search (%s)', (kind) => {
  const t = useTestContext(kind);

  it("answers the account's results for the customer, newest first", async () => {
    await record(t, 'acme', { customerRef: 'ZED-1', ts: '2024-01-01T10:00:00Z', sessionRef: 'ses_old' });
    await record(t, 'acme', {
      customerRef: 'ZED-1',
      ts: '2024-03-01T10:00:00Z',
      sessionRef: 'ses_new',
      app: 'payments',
      phoneNumber: '+15550001111',
    });
    const results = await search(t, '  ZED-1 ');
    expect(results.map((r) => r.sessionRef)).toEqual(['ses_new', 'ses_old']);
    expect(results[0]).toMatchObject({
      app: 'payments',
      status: 'success',
      timestamp: '2024-03-01T10:00:00.000Z',
      phoneNumber: '+15550001111',
      customerRef: 'ZED-1',
    });
  });

  it('the same customer reference in another account does not appear', async () => {
    await record(t, 'globex', { customerRef: 'SHARED-9', ts: '2024-02-01T10:00:00Z', sessionRef: 'ses_globex' });
    await record(t, 'acme', { customerRef: 'SHARED-9', ts: '2024-02-02T10:00:00Z', sessionRef: 'ses_acme' });
    expect((await search(t, 'SHARED-9')).map((r) => r.sessionRef)).toEqual(['ses_acme']);
    expect((await search(t, 'SHARED-9', 'owner@globex.test')).map((r) => r.sessionRef)).toEqual(['ses_globex']);
  });

  it('a query that looks like a phone number also finds results by phone', async () => {
    await record(t, 'acme', { phoneNumber: '+447700900123', ts: '2024-04-01T10:00:00Z', sessionRef: 'ses_phone' });
    await record(t, 'acme', { customerRef: '+447700900123', ts: '2024-04-02T10:00:00Z', sessionRef: 'ses_ref' });
    await record(t, 'globex', { phoneNumber: '+447700900123', ts: '2024-04-03T10:00:00Z', sessionRef: 'ses_other_account' });
    expect((await search(t, '+44 7700 900123')).map((r) => r.sessionRef)).toEqual(['ses_phone']);
    expect((await search(t, '+447700900123')).map((r) => r.sessionRef)).toEqual(['ses_ref', 'ses_phone']);
  });

  it('an unknown customer answers an empty list', async () => {
    expect(await search(t, 'NOBODY-HERE')).toEqual([]);
  });

  it('answers at most 50 results', async () => {
    const id = t.account('acme').id;
    await t.db.tenant(id, async (trx) => {
      for (let i = 0; i < 55; i++)
        await recordResult(trx, id, {
          app: 'passkeys',
          status: 'timeout',
          ts: new Date(Date.UTC(2023, 0, 1, 0, i)),
          sessionRef: `ses_${i}`,
          customerRef: 'MANY',
        });
    });
    const results = await search(t, 'MANY');
    expect(results).toHaveLength(50);
    expect(results[0]!.sessionRef).toBe('ses_54');
  });

  it('finds the seeded demo customer', async () => {
    const results = await search(t, 'CUST-100042');
    expect(results.length).toBeGreaterThan(3);
    expect(results[0]!.sessionRef).toBe('ses_demo0001a1b2c3d4e5f6');
  });

  it('an empty or whitespace query answers 400; a supervisor 403', async () => {
    for (const q of ['', '   ']) {
      const res = await t.call('GET', `/results/customer?customerRef=${encodeURIComponent(q)}`, { as: 'admin@acme.test' });
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
    }
    expect((await t.call('GET', '/results/customer', { as: 'admin@acme.test' })).status).toBe(400);
    expect((await t.call('GET', '/results/customer?customerRef=x', { as: 'supervisor@acme.test' })).status).toBe(403);
  });

  it('the search reads the customer and phone indexes, not the whole table', async () => {
    const id = t.account('acme').id;
    const plan = await t.db.tenant(id, async (trx) => {
      await sql`set local enable_seqscan = off`.execute(trx);
      const ref = await sql<{
        'QUERY PLAN': string;
      }>`explain select id from customer_results where account_id = ${id} and customer_ref = 'X' order by ts desc limit 50`.execute(
        trx,
      );
      const phone = await sql<{
        'QUERY PLAN': string;
      }>`explain select id from customer_results where account_id = ${id} and phone_number = '+1555' order by ts desc limit 50`.execute(
        trx,
      );
      return [...ref.rows, ...phone.rows].map((r) => r['QUERY PLAN']).join('\n');
    });
    expect(plan).toContain('customer_results_by_ref');
    expect(plan).toContain('customer_results_by_phone');
    expect(plan).not.toMatch(/Sort\b/);
  });

  it('recording a result counts it in the daily rollup in the same transaction', async () => {
    const id = t.account('globex').id;
    const read = () =>
      t.db.tenant(
        id,
        async (trx) =>
          (
            await sql<{
              n: number;
            }>`select coalesce(sum(count), 0)::int as n from result_daily where day = '2022-06-15' and app = 'payments'`.execute(
              trx,
            )
          ).rows[0]!.n,
      );
    expect(await read()).toBe(0);
    await record(t, 'globex', { customerRef: 'R', ts: '2022-06-15T00:00:00Z', sessionRef: 'a', app: 'payments' });
    await record(t, 'globex', { customerRef: 'R', ts: '2022-06-15T23:59:59Z', sessionRef: 'b', app: 'payments' });
    expect(await read()).toBe(2);
    // a failing transaction leaves neither the result nor the count behind
    await expect(
      t.db.tenant(id, async (trx) => {
        await recordResult(trx, id, {
          app: 'payments',
          status: 'success',
          ts: new Date('2022-06-15T12:00:00Z'),
          sessionRef: 'c',
        });
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await read()).toBe(2);
  });
});
