import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { migrate } from '../../api/db/migrate';
import { MIGRATIONS } from '../../api/db/migrations/index';
import { openTestDatabase, BOTH_DATABASE_KINDS } from './helpers';

describe.each(BOTH_DATABASE_KINDS)('stored delivery errors from before cleaning (%s)', (kind) => {
  it('are replaced when the migration runs, so an old quoted key does not stay on the Logging screen', async () => {
    const { db, drop } = await openTestDatabase(kind);
    try {
      // undo the clean-up's mark, put back an old raw error, and run the clean-up again
      await sql`delete from schema_migrations where id = '0621_clear_stored_errors'`.execute(db.kysely);
      const account = await db.system((trx) =>
        trx
          .insertInto('accounts')
          .values({ name: 'Old', platform: 'zoom', email_domain: null })
          .returning('id')
          .executeTakeFirstOrThrow(),
      );
      await db.system((trx) =>
        sql`insert into logging_destinations (account_id, destination, settings_enc) values (${account.id}, 'datadog', 'x')`.execute(
          trx,
        ),
      );
      await db.system((trx) =>
        sql`insert into log_outbox (account_id, destination, payload, last_error) values (${account.id}, 'datadog', '{}'::jsonb, 'The destination answered 403: {"error":"invalid key dd-raw-secret"}')`.execute(
          trx,
        ),
      );
      await migrate(db, MIGRATIONS);
      const rows = await db.system((trx) => sql<{ last_error: string }>`select last_error from log_outbox`.execute(trx));
      expect(rows.rows.map((r) => r.last_error)).toEqual([
        'The details of this error were removed; the next attempt records them again.',
      ]);
    } finally {
      await drop();
    }
  }, 120_000);
});
