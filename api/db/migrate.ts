import { sql } from 'kysely';
import { APP_ROLE, type Database } from './index';
import { MIGRATIONS, type Migration, type MigrationContext } from './migrations/index';

// The application role is created once per cluster; concurrent test databases may race to
// create it, so a duplicate is not an error.
const ROLE_SQL = `
do $$ begin
  create role ${APP_ROLE} nologin;
exception when duplicate_object or unique_violation then null;
end $$;
do $$ begin
  execute format('grant ${APP_ROLE} to %I', current_user);
exception when others then null;
end $$;`;

const GRANTS_SQL = `
grant usage on schema public to ${APP_ROLE};
grant select, insert, update, delete on all tables in schema public to ${APP_ROLE};
grant usage, select on all sequences in schema public to ${APP_ROLE};
revoke all on schema_migrations from ${APP_ROLE};`;

/** Applies every migration not yet applied, in one transaction, under an advisory lock. */
export async function migrate(
  db: Database,
  migrations: Migration[] = MIGRATIONS,
  context: MigrationContext = {},
): Promise<string[]> {
  return db.kysely.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(727001)`.execute(trx);
    // An up-to-date database (every start after the first) skips the role and grant statements:
    // the role's DO blocks load PL/pgSQL and the grants rewrite every table's ACL, about a tenth
    // of a second of each embedded start.
    const member = await sql<{
      ok: boolean;
    }>`select pg_has_role(current_user, oid, 'member') as ok from pg_roles where rolname = ${APP_ROLE}`.execute(trx);
    const roleReady = member.rows[0]?.ok === true;
    if (!roleReady) await sql.raw(ROLE_SQL).execute(trx);
    await sql
      .raw(`create table if not exists schema_migrations (id text primary key, applied_at timestamptz not null default now())`)
      .execute(trx);
    const done = new Set((await sql<{ id: string }>`select id from schema_migrations`.execute(trx)).rows.map((r) => r.id));
    const applied: string[] = [];
    for (const m of migrations) {
      if (done.has(m.id)) continue;
      if (m.sql.trim()) await sql.raw(m.sql).execute(trx);
      if (m.run) {
        // code steps read and write across accounts: the explicit system scope, only for the step
        await sql`select set_config('app.scope', 'system', true)`.execute(trx);
        await m.run(trx, context);
        await sql`select set_config('app.scope', '', true)`.execute(trx);
      }
      await sql`insert into schema_migrations (id) values (${m.id})`.execute(trx);
      applied.push(m.id);
    }
    if (applied.length || !roleReady) await sql.raw(GRANTS_SQL).execute(trx);
    return applied;
  });
}
