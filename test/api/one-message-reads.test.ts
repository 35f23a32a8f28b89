import { CompiledQuery, sql } from 'kysely';
import { describe, expect, it, vi } from 'vitest';
import { inlineParameters } from '../../api/db/one-message';
import { BOTH_DATABASE_KINDS, useTestContext } from './helpers';

// A read request's statements each travel in one message with their scope (api/db/one-message.ts).
// These tests hold that to the guarantees it replaced BEGIN…COMMIT for: the session is judged
// first, row-level security binds every statement, a write still runs in one transaction, and a
// parameter written in as a literal means what the parameter meant.

// Each value with the type it is read back as (a parameter's text is typed by its context).
const HOSTILE: [unknown, string][] = [
  ["O'Brien", 'text'],
  ["'; drop table accounts; --", 'text'],
  ["back\\slash \\' quote", 'text'],
  ["E'\\x41'", 'text'],
  ['$1 $$ $tag$ inside', 'text'],
  ['/* not a comment */ -- nor this', 'text'],
  ['ünïcødé 🎉 — 𝒳', 'text'],
  ['', 'text'],
  [' leading and trailing ', 'text'],
  ['line\nbreak\r\ttab', 'text'],
  [null, 'text'],
  [42, 'int'],
  [-0.5, 'numeric'],
  [1e21, 'float8'],
  [Number.MAX_SAFE_INTEGER, 'bigint'],
  [true, 'boolean'],
  [false, 'boolean'],
  [new Date('2026-11-23T08:45:00.123Z'), 'timestamptz'],
  [{ nested: { quote: "it's", slash: '\\' }, list: [1, 'two'] }, 'jsonb'],
];

describe.each(BOTH_DATABASE_KINDS)('reads in one message (%s)', (kind) => {
  const t = useTestContext(kind);

  it('a value written into the statement reads back exactly as the same value bound as a parameter', async () => {
    for (const [value, type] of HOSTILE) {
      const text = `select $1::${type} as v, ($1::${type})::text as t`;
      const bound = await t.db.system((trx) => trx.executeQuery(CompiledQuery.raw(text, [value])));
      const inlined = await t.db.system((trx) => trx.executeQuery(CompiledQuery.raw(inlineParameters(text, [value]))));
      expect(inlined.rows, JSON.stringify(value)).toEqual(bound.rows);
    }
  });

  it('a signed-in page load reads its data and shows the right account', async () => {
    const res = await t.call('GET', '/admins/bootstrap', { as: 'owner@acme.test' });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { account: { id: string }; firstName: string };
    expect(body.account.id).toBe(t.account('acme').id);
    expect(body.firstName).not.toBe('');
  });

  it('a signed-out session gets 401 on a read, even one that reads nothing from the database', async () => {
    const token = await t.tokenFor('admin@acme.test');
    expect((await t.call('GET', '/admins/bootstrap', { token })).status).toBe(200);
    expect((await t.call('POST', '/sign-out', { token })).status).toBeLessThan(300);
    const res = await t.call('GET', '/admins/bootstrap', { token });
    expect(res.status).toBe(401);
    expect(((await res.json()) as { code: string }).code).toBe('SESSION_REVOKED');
  });

  it('every statement of a read request sees only its own account (row-level security)', async () => {
    const res = await t.call('GET', '/admins', { as: 'owner@acme.test' });
    expect(res.status).toBe(200);
    const emails = ((await res.json()) as { email: string }[]).map((a) => a.email);
    expect(emails.length).toBeGreaterThan(0);
    expect(emails.every((e) => e.endsWith('@acme.test'))).toBe(true);
  });

  it('a read request that writes keeps its writes in one transaction: a failure undoes all of them', async () => {
    const acme = t.account('acme');
    const before = await t.db.system(
      async (trx) => (await sql<{ n: number }>`select count(*)::int as n from invitations`.execute(trx)).rows[0]!.n,
    );
    const reader = t.db.withPrelude(
      { accountId: acme.id.toLowerCase(), text: 'select 1 as ok', params: [], accept: () => {} },
      { reads: true },
    );
    await expect(
      reader.tenant(acme.id, async (trx) => {
        await trx.selectFrom('admins').select('id').execute();
        await trx
          .insertInto('invitations')
          .values({
            account_id: acme.id,
            email: 'one-message@acme.test',
            role: 'admin',
            expires_at: new Date(),
            invited_by: null,
          })
          .execute();
        await sql`select 1/0`.execute(trx);
      }),
    ).rejects.toThrow(/division by zero/);
    const after = await t.db.system(
      async (trx) => (await sql<{ n: number }>`select count(*)::int as n from invitations`.execute(trx)).rows[0]!.n,
    );
    expect(after).toBe(before);
  });

  it('a session check that fails stops the read: the route never gets the rows', async () => {
    const acme = t.account('acme');
    const reader = t.db.withPrelude(
      {
        accountId: acme.id.toLowerCase(),
        text: 'select false as live',
        params: [],
        accept: () => {
          throw new Error('session ended');
        },
      },
      { reads: true },
    );
    const seen = vi.fn();
    await expect(
      reader.tenant(acme.id, async (trx) => seen(await trx.selectFrom('admins').select('email').execute())),
    ).rejects.toThrow('session ended');
    expect(seen).not.toHaveBeenCalled();
  });
});

describe.runIf(BOTH_DATABASE_KINDS.includes('postgres'))('round trips to PostgreSQL', () => {
  const t = useTestContext('postgres');

  it('a signed-in page load (bootstrap) costs one write to the database and no pooled connection', async () => {
    const token = await t.tokenFor('owner@acme.test');
    const pg = ((await import('pg')) as unknown as { default: { Client: { prototype: { query: () => unknown } } } }).default;
    const net = await import('node:net');
    const port = Number(
      new URL(process.env.TEST_POSTGRES_URL ?? process.env.DATABASE_URL ?? 'postgres://127.0.0.1:5432').port || 5432,
    );
    expect((await t.call('GET', '/admins/bootstrap', { token })).status).toBe(200); // lanes open, statements prepared
    const query = vi.spyOn(pg.Client.prototype, 'query');
    const write = vi.spyOn(net.Socket.prototype, 'write');
    try {
      expect((await t.call('GET', '/admins/bootstrap', { token })).status).toBe(200);
      const toDatabase = write.mock.contexts.filter((socket) => (socket as InstanceType<typeof net.Socket>).remotePort === port);
      expect(toDatabase).toHaveLength(1);
      expect(query).not.toHaveBeenCalled();
    } finally {
      query.mockRestore();
      write.mockRestore();
    }
  });
});
