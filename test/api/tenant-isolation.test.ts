import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { APP_ROLE } from '../../api/db/index';
import { BOTH_DATABASE_KINDS, useTestContext } from './helpers';

describe.each(BOTH_DATABASE_KINDS)('tenant isolation in the database (%s)', (kind) => {
  const t = useTestContext(kind);

  it('a query as the app role without an account setting sees no tenant rows', async () => {
    const counts = await t.db.kysely.transaction().execute(async (trx) => {
      await sql`select set_config('role', ${APP_ROLE}, true)`.execute(trx);
      const tables = ['accounts', 'admins', 'app_billing', 'branding', 'invitations', 'audit_log', 'audit_counts'];
      const out: Record<string, number> = {};
      for (const table of tables) {
        out[table] = (await sql<{ n: number }>`select count(*)::int as n from ${sql.table(table)}`.execute(trx)).rows[0].n;
      }
      return out;
    });
    expect(Object.values(counts).every((n) => n === 0)).toBe(true);
  });

  it('the same query in the system scope sees every account', async () => {
    const ids = await t.db.system(async (trx) =>
      (await sql<{ id: string }>`select id from accounts`.execute(trx)).rows.map((r) => r.id),
    );
    expect(ids).toEqual(expect.arrayContaining(t.accounts.map((a) => a.id)));
  });

  it('an account sees only its own admins', async () => {
    const acme = t.account('acme');
    const emails = await t.db.tenant(acme.id, (trx) => trx.selectFrom('admins').select('email').execute());
    expect(emails.map((e) => e.email).sort()).toEqual(['admin@acme.test', 'owner@acme.test', 'supervisor@acme.test']);
  });

  it('an account cannot write a row into another account', async () => {
    const acme = t.account('acme');
    const globex = t.account('globex');
    await expect(
      t.db.tenant(acme.id, (trx) =>
        trx
          .insertInto('invitations')
          .values({ account_id: globex.id, email: 'x@globex.test', role: 'admin', expires_at: new Date(), invited_by: null })
          .execute(),
      ),
    ).rejects.toThrow(/row-level security/);
  });

  it("an account cannot update another account's rows", async () => {
    const acme = t.account('acme');
    const globex = t.account('globex');
    const result = await t.db.tenant(acme.id, (trx) =>
      trx.updateTable('branding').set({ name: 'Hijacked' }).where('account_id', '=', globex.id).executeTakeFirst(),
    );
    expect(Number(result.numUpdatedRows)).toBe(0);
  });

  it('the app role is not a superuser, so the policies bind it', async () => {
    const row = await t.db.tenant(
      t.account('acme').id,
      async (trx) =>
        (
          await sql<{
            su: boolean;
            u: string;
          }>`select rolsuper as su, current_user as u from pg_roles where rolname = current_user`.execute(trx)
        ).rows[0],
    );
    expect(row).toEqual({ su: false, u: APP_ROLE });
  });
});

describe.each(BOTH_DATABASE_KINDS)('value types (%s)', (kind) => {
  const t = useTestContext(kind);

  it('a date column comes back as YYYY-MM-DD text and a bigint as a number, on both databases', async () => {
    const row = await t.db.system(
      async (trx) => (await sql<{ d: unknown; n: unknown }>`select date '2026-03-01' as d, 42::int8 as n`.execute(trx)).rows[0],
    );
    expect(row).toEqual({ d: '2026-03-01', n: 42 });
  });
});
