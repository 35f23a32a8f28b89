import type { CompiledQuery } from 'kysely';
import { describe, expect, it } from 'vitest';
import { compiledOnce } from '../../api/db/compiled';

// A statement built and compiled once (api/db/compiled.ts) must run exactly as Kysely would have
// compiled it with the caller's values.

function recorder() {
  const sent: CompiledQuery[] = [];
  return { sent, executeQuery: async <R>(q: CompiledQuery<R>) => (sent.push(q), { rows: [] as R[] }) };
}

describe('compiledOnce', () => {
  it('sends the same SQL as Kysely, with each argument in its place among constant parameters', async () => {
    const read = compiledOnce(2, (db, accountId, email) =>
      db
        .selectFrom('admins')
        .select(['id', 'email'])
        .where('email', '=', email)
        .where('role', '=', 'owner')
        .where('account_id', '=', accountId),
    );
    const exec = recorder();
    await read.rows(exec, 'acc-1', 'a@b.test');
    await read.rows(exec, 'acc-2', "o'brien@b.test");
    expect(exec.sent[0]!.sql).toBe('select "id", "email" from "admins" where "email" = $1 and "role" = $2 and "account_id" = $3');
    expect(exec.sent[0]!.parameters).toEqual(['a@b.test', 'owner', 'acc-1']);
    expect(exec.sent[1]!.parameters).toEqual(["o'brien@b.test", 'owner', 'acc-2']);
  });

  it('refuses a statement that leaves an argument out', () => {
    expect(() =>
      compiledOnce(2, (db, accountId) => db.selectFrom('admins').select('id').where('account_id', '=', accountId)),
    ).toThrow(/argument 1 is not a parameter/);
  });

  it('refuses a call with the wrong number of arguments', async () => {
    const read = compiledOnce(1, (db, id) => db.selectFrom('accounts').select('name').where('id', '=', id));
    await expect(read.rows(recorder(), 'a', 'b')).rejects.toThrow(/1 arguments expected, 2 given/);
  });
});
