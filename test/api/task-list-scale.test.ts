import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { DATABASE_KINDS, useTestContext, type TestContext } from './helpers';

// The Authentications list at scale: the first page's total is the counter the triggers keep
// (never a count over every row), and each filter has an index in the list's order, so a page
// is an index range scan that stops at the limit, never a sort of every match.

const OTP = '/one-time-passcode';

async function insertVerifications(t: TestContext, account: 'acme' | 'globex', n: number) {
  const id = t.account(account).id;
  await t.db.tenant(id, (trx) =>
    sql`insert into otp_verifications (account_id, phone_number, customer_ref, agent, status, code_hmac, code_encrypted, max_checks, created_at, expires_at)
      select ${id}, '+1555' || lpad(g::text, 7, '0'), 'CUST-' || (g % 100), 'agent' || (g % 5) || '@acme.test', 'approved', 'x', 'x', 5,
             now() - make_interval(secs => g), now() - make_interval(secs => g) + interval '10 minutes'
      from generate_series(1, ${n}) g`.execute(trx),
  );
}

async function plan(t: TestContext, query: string): Promise<string> {
  const id = t.account('acme').id;
  return t.db.tenant(id, async (trx) => {
    // on a small table a sequential scan is cheaper: turn it off to see which index would serve
    await sql`set local enable_seqscan = off`.execute(trx);
    await sql`set local enable_bitmapscan = off`.execute(trx);
    const rows = (await sql<{ 'QUERY PLAN': string }>`explain ${sql.raw(query.replaceAll('$ACCOUNT', `'${id}'`))}`.execute(trx))
      .rows;
    return rows.map((r) => r['QUERY PLAN']).join('\n');
  });
}

const LIST = `select id, phone_number, customer_ref, status from otp_verifications where account_id = $ACCOUNT and`;
const ORDER = `order by created_at desc, id desc limit 51`;
const DEEP = `(created_at, id) < (now() - interval '1 hour', '00000000-0000-0000-0000-000000000000'::uuid)`;

describe.each(DATABASE_KINDS)('Authentications list at scale (%s)', (kind) => {
  const t = useTestContext(kind);
  beforeAll(async () => {
    await insertVerifications(t, 'acme', 12_345);
    await insertVerifications(t, 'globex', 7);
  });

  it('the first page answers the exact total past 10,000 from the counter, each account its own', async () => {
    const res = await t.call('GET', `${OTP}/tasks?limit=5`, { as: 'owner@acme.test' });
    expect(res.headers.get('x-count')).toBe('12345');
    expect((await t.call('GET', `${OTP}/tasks?limit=5`, { as: 'owner@globex.test' })).headers.get('x-count')).toBe('7');
  });

  it('a filtered first page counts its matches up to 1,000', async () => {
    const few = await t.call('GET', `${OTP}/tasks?limit=5&q=CUST-7`, { as: 'owner@acme.test' });
    expect(few.headers.get('x-count')).toBe('124');
    const many = await t.call('GET', `${OTP}/tasks?limit=5&agent=${encodeURIComponent('agent1@acme.test')}`, {
      as: 'owner@acme.test',
    });
    expect(many.headers.get('x-count')).toBe('1000');
  });

  it('a customer id with digits in it finds that customer, and a whole number finds that number', async () => {
    const byCustomer = (await (await t.call('GET', `${OTP}/tasks?q=CUST-42`, { as: 'owner@acme.test' })).json()) as {
      customerRef: string;
    }[];
    expect(byCustomer.length).toBeGreaterThan(0);
    expect(new Set(byCustomer.map((r) => r.customerRef))).toEqual(new Set(['CUST-42']));
    const byNumber = await t.call('GET', `${OTP}/tasks?q=${encodeURIComponent('+1 555 000 0042')}`, { as: 'owner@acme.test' });
    expect(((await byNumber.json()) as { phoneNumber: string }[]).map((r) => r.phoneNumber)).toEqual(['+1 •••• •• 0042']);
  });

  it.each([
    ['no filter', `account_id = $ACCOUNT`, 'otp_verifications_page'],
    ['status', `status = 'expired'`, 'otp_verifications_by_status'],
    ['agent', `agent = 'agent1@acme.test'`, 'otp_verifications_by_agent'],
    ['customer', `customer_ref = 'CUST-7'`, 'otp_verifications_by_customer'],
    ['whole phone number', `phone_number = '+15550000042'`, 'otp_verifications_by_phone'],
    [
      'status and dates',
      `status = 'approved' and created_at >= now() - interval '2 days' and created_at < now()`,
      'otp_verifications_by_status',
    ],
  ])('a page filtered by %s, first or deep, is an index scan in list order with no sort', async (_name, filter, index) => {
    for (const keyset of ['', `and ${DEEP}`]) {
      const text = await plan(t, `${LIST} ${filter} ${keyset} ${ORDER}`);
      expect(text).toContain(`Index Scan using ${index}`);
      expect(text).not.toMatch(/Sort/);
    }
  });
});
