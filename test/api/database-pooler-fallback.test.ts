import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sql } from 'kysely';
import { DATABASE_KINDS, PG_ADMIN_URL, useTestContext } from './helpers';
import { openPostgres, type Database } from '../../api/db/index';
import { DEFAULT_DATABASE_SETTINGS } from '../../api/config';
import { pgbouncerAvailable, startPgBouncer, type PgBouncer } from '../support/pgbouncer';

// Behind PgBouncer in transaction mode without DATABASE_POOLER=transaction (an operator who read
// only the README's table): prepared statements meet server connections that are not theirs
// ("prepared statement "sb1" already exists", or does not exist). The first such error switches
// the process to unnamed statements, with one log line naming DATABASE_POOLER; the work goes on.

describe.each(DATABASE_KINDS)('a transaction pooler nobody told us of (%s)', (kind) => {
  const t = useTestContext(kind);
  let bouncer: PgBouncer | null = null;
  let db: Database | null = null;
  const runs = kind === 'postgres' && pgbouncerAvailable();
  beforeAll(async () => {
    if (!runs) return;
    const port = Number(new URL(PG_ADMIN_URL).port || 5432);
    bouncer = await startPgBouncer({ port }, { poolSize: 2 });
    const name = (await sql<{ db: string }>`select current_database() as db`.execute(t.db.kysely)).rows[0]!.db;
    db = await openPostgres(bouncer.url(name), 6, 2, { ...DEFAULT_DATABASE_SETTINGS, pooler: 'none' });
  });
  afterAll(async () => {
    await db?.close();
    await bouncer?.stop();
  });

  it.runIf(runs)(
    'the first prepared-statement error switches to unnamed statements with one line naming DATABASE_POOLER; then every transaction answers',
    async () => {
      const lines: string[] = [];
      const spy = vi
        .spyOn(console, 'error')
        .mockImplementation((...args: unknown[]) => void lines.push(args.map(String).join(' ')));
      try {
        const accountId = t.account('acme').id;
        const round = () =>
          Promise.allSettled(
            Array.from({ length: 12 }, (_, i) =>
              db!.system((trx) =>
                sql`select id from accounts where id = ${accountId} and ${i} >= 0`
                  .execute(trx)
                  .then(() => sql`select count(*) from admins where account_id = ${accountId}`.execute(trx)),
              ),
            ),
          );
        let failures = 0;
        for (let r = 0; r < 20 && !lines.some((l) => l.includes('DATABASE_POOLER')); r++)
          failures += (await round()).filter((x) => x.status === 'rejected').length;
        expect(lines.filter((l) => l.includes('DATABASE_POOLER'))).toHaveLength(1);
        // from then on nothing fails
        for (let r = 0; r < 5; r++) expect((await round()).filter((x) => x.status === 'rejected')).toEqual([]);
        expect(lines.filter((l) => l.includes('DATABASE_POOLER'))).toHaveLength(1);
        expect(failures).toBeGreaterThan(0);
      } finally {
        spy.mockRestore();
      }
    },
  );
});
