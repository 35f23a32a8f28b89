import net from 'node:net';
import { sql } from 'kysely';
import { describe, expect, it, vi } from 'vitest';
import { later, together } from '../../api/db/batch';
import { audit } from '../../api/audit';
import { BOTH_DATABASE_KINDS, useTestContext, type TestContext } from './helpers';

// A write transaction's statements travel together (api/db/batch.ts): independent statements in
// one message, statements nobody reads the answer of with the next one or the COMMIT, a
// transaction's BEGIN with its first statement. These tests hold that to what awaiting each
// statement gave: every statement in the transaction, under its account's scope, in order, and a
// failure of any of them rolls all of it back.

const auditCount = (t: TestContext, accountId: string) =>
  t.db.tenant(
    accountId,
    async (trx) =>
      (await sql<{ n: number }>`select count(*)::int as n from audit_log where account_id = ${accountId}`.execute(trx)).rows[0]!
        .n,
  );

describe.each(BOTH_DATABASE_KINDS)('statements sent together (%s)', (kind) => {
  const t = useTestContext(kind);

  it('statements sent together each answer their own rows, in order, and see only their own account', async () => {
    const acme = t.account('acme').id;
    const [admins, counted, seven] = await t.db.tenant(acme, (trx) =>
      together(
        trx,
        trx.selectFrom('admins').select('email'),
        sql<{ n: number }>`select count(*)::int as n from admins`,
        sql<{ seven: number }>`select 7 as seven`,
      ),
    );
    expect(admins.length).toBeGreaterThan(0);
    expect(admins.every((a) => a.email.endsWith('@acme.test'))).toBe(true);
    expect(counted[0]!.n).toBe(admins.length);
    expect(seven[0]!.seven).toBe(7);
  });

  it('an audit entry left for later is stored with the commit, and the next statement of the transaction already sees it', async () => {
    const acme = t.account('acme').id;
    const before = await auditCount(t, acme);
    const seenInside = await t.db.tenant(acme, async (trx) => {
      await audit(trx, acme, null, { namespace: 'global', description: 'Batched entry', event: 'test.batched' });
      return (await sql<{ n: number }>`select count(*)::int as n from audit_log where account_id = ${acme}`.execute(trx)).rows[0]!
        .n;
    });
    expect(seenInside).toBe(before + 1);
    expect(await auditCount(t, acme)).toBe(before + 1);
  });

  it('a statement left for later that fails fails its transaction: nothing of it is stored, and the next transaction runs as usual', async () => {
    const acme = t.account('acme').id;
    const before = await auditCount(t, acme);
    await expect(
      t.db.tenant(acme, async (trx) => {
        await sql`insert into audit_log (account_id, namespace, description, event) values (${acme}, 'global', 'Awaited entry', 'test.awaited')`.execute(
          trx,
        );
        await audit(trx, acme, null, { namespace: 'global', description: 'Queued entry', event: 'test.queued' });
        await later(trx, sql`select 1 / 0`);
      }),
    ).rejects.toThrow(/division by zero/);
    expect(await auditCount(t, acme)).toBe(before);
    // the connection was left outside any transaction: the next one commits
    await t.db.tenant(acme, (trx) =>
      audit(trx, acme, null, { namespace: 'global', description: 'After the failure', event: 'test.after' }),
    );
    expect(await auditCount(t, acme)).toBe(before + 1);
  });

  it('a transaction that throws before anything reached the database stores nothing and leaves the connection usable', async () => {
    const acme = t.account('acme').id;
    const before = await auditCount(t, acme);
    await expect(
      t.db.tenant(acme, async (trx) => {
        await audit(trx, acme, null, { namespace: 'global', description: 'Never stored', event: 'test.never' });
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect(await auditCount(t, acme)).toBe(before);
  });

  it('one statement as its own transaction sees only its account and its write is committed', async () => {
    const acme = t.account('acme').id;
    const globex = t.account('globex').id;
    const [mine] = await t.db.tenantStatement(
      acme,
      sql<{
        n: number;
        others: number;
      }>`select count(*)::int as n, count(*) filter (where account_id <> ${acme})::int as others from admins`,
    );
    expect(mine!.n).toBeGreaterThan(0);
    expect(mine!.others).toBe(0);
    const [written] = await t.db.tenantStatement(
      globex,
      sql<{ count: number }>`insert into audit_counts as c (account_id, count) values (${globex}, 1)
      on conflict (account_id) do update set count = c.count + 0 returning count`,
    );
    expect(written!.count).toBeGreaterThan(0);
    // another account's row is out of reach of a statement scoped to acme
    const [none] = await t.db.tenantStatement(
      acme,
      sql<{ n: number }>`select count(*)::int as n from audit_counts where account_id = ${globex}`,
    );
    expect(none!.n).toBe(0);
  });
});

describe.runIf(BOTH_DATABASE_KINDS.includes('postgres'))('round trips of the busiest write (PostgreSQL)', () => {
  const t = useTestContext('postgres');

  it('a passcode sent through /api/v1 to the development outbox asks PostgreSQL in five round trips', async () => {
    expect((await t.call('POST', '/sms', { as: 'owner@acme.test', body: { provider: 'dev-outbox' } })).status).toBe(200);
    const key = ((await (await t.call('GET', '/accounts/developer', { as: 'owner@acme.test' })).json()) as { secretKey: string })
      .secretKey;
    const send = (phoneNumber: string) =>
      t.call('POST', '/v1/otp/send', { body: { phoneNumber }, headers: { authorization: `Bearer ${key}` } });
    expect((await send('+14155550100')).status).toBe(201); // statements prepared, lanes open
    const port = Number(
      new URL(process.env.TEST_POSTGRES_URL ?? process.env.DATABASE_URL ?? 'postgres://127.0.0.1:5432').port || 5432,
    );
    // what reaches the socket: one `_write` or `_writev` per message (a corked message's parts go together)
    const sockets = net.Socket.prototype as unknown as Record<'_write' | '_writev', (...args: unknown[]) => unknown>;
    const write = vi.spyOn(sockets, '_write');
    const writev = vi.spyOn(sockets, '_writev');
    let res;
    let toDatabase;
    try {
      res = await send('+14155550101');
      toDatabase = [...write.mock.contexts, ...writev.mock.contexts].filter(
        (socket) => (socket as net.Socket).remotePort === port,
      );
    } finally {
      write.mockRestore();
      writev.mockRestore();
    }
    expect(res.status).toBe(201);
    // the key (one read), the rate limit (one statement), the send (one transaction of three
    // messages: its reads, its writes, the rest with the COMMIT); each message one write
    expect(toDatabase).toHaveLength(5);
    // and it did everything it did before: the outbox message, the credit, the audit entry
    const acme = t.account('acme').id;
    const { id } = (await res.json()) as { id: string };
    const stored = await t.db.tenant(acme, async (trx) => {
      const [outbox, credit, audited, events] = await together(
        trx,
        sql<{
          n: number;
        }>`select count(*)::int as n from dev_sms_outbox where account_id = ${acme} and to_number = '+14155550101'`,
        sql<{
          n: number;
        }>`select count(*)::int as n from credit_ledger where account_id = ${acme} and app = 'one-time-passcode' and task_id = ${id}`,
        sql<{
          n: number;
        }>`select count(*)::int as n from audit_log where account_id = ${acme} and event = 'otp.sent' and description like '%0101'`,
        sql<{
          n: number;
        }>`select count(*)::int as n from task_events where account_id = ${acme} and app = 'one-time-passcode' and description like 'Passcode sent to %0101'`,
      );
      return [outbox[0]!.n, credit[0]!.n, audited[0]!.n, events[0]!.n];
    });
    expect(stored).toEqual([1, 1, 1, 1]);
  });
});
