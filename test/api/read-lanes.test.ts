import { sql } from 'kysely';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { DATABASE_KINDS, useTestContext } from './helpers';

// Read requests' pipelines share a few connections, back to back (api/db/pg-read-lanes.ts).
// These tests hold the sharing to what a connection per request gave: each read sees its own
// account only, a failure stays with its own read, a slow read holds nobody up, and a cut
// connection fails only what was on it.

const PG_ADMIN_URL = process.env.TEST_POSTGRES_URL ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

describe.runIf(DATABASE_KINDS.includes('postgres'))('read lanes (PostgreSQL)', () => {
  const t = useTestContext('postgres');
  const reader = (accountId: string) =>
    t.db.withPrelude(
      { accountId: accountId.toLowerCase(), text: 'select 1 as ok', params: [], accept: () => {} },
      { reads: true },
    );

  it('reads of two accounts in flight together each see only their own account', async () => {
    const accounts = [t.account('acme').id, t.account('globex').id];
    const seen = await Promise.all(
      Array.from({ length: 60 }, async (_, i) => {
        const account = accounts[i % 2]!;
        const rows = await reader(account).tenant(account, (trx) => trx.selectFrom('admins').select('account_id').execute());
        return { account, owners: rows.map((r) => r.account_id) };
      }),
    );
    for (const { account, owners } of seen) {
      expect(owners.length).toBeGreaterThan(0);
      expect(new Set(owners)).toEqual(new Set([account]));
    }
  });

  it('statements a route sends together wait for the session check: an ended session gets no rows from any of them', async () => {
    const acme = t.account('acme').id;
    const ended = t.db.withPrelude(
      {
        accountId: acme.toLowerCase(),
        // slower than the reads beside it, so they answer first on the other lane
        text: 'select pg_sleep(0.2), false as live',
        params: [],
        accept: () => {
          throw new Error('session ended');
        },
      },
      { reads: true },
    );
    const outcomes = await ended.tenant(acme, (trx) =>
      Promise.allSettled(Array.from({ length: 4 }, () => trx.selectFrom('admins').select('email').execute())),
    );
    expect(outcomes.map((o) => (o.status === 'rejected' ? String(o.reason) : 'rows'))).toEqual(
      Array(4).fill('Error: session ended'),
    );
  });

  it('a statement run again reads its rows typed as the first time (its description is kept, not asked for again)', async () => {
    const acme = t.account('acme').id;
    const read = () =>
      reader(acme).tenant(
        acme,
        async (trx) =>
          (
            await sql<{
              at: unknown;
              n: unknown;
              nothing: unknown;
              flag: unknown;
            }>`select now() as at, 42::bigint as n, null::text as nothing, true as flag`.execute(trx)
          ).rows[0]!,
      );
    const runs = await Promise.all(Array.from({ length: 6 }, read));
    runs.push(await read());
    for (const row of runs) {
      expect(row.at).toBeInstanceOf(Date);
      expect(row).toMatchObject({ n: 42, nothing: null, flag: true });
    }
  });

  it('a read that fails fails alone: the reads travelling with it answer', async () => {
    const acme = t.account('acme').id;
    const outcomes = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) =>
        reader(acme).tenant(
          acme,
          async (trx) => (await sql<{ v: number }>`select ${i}::int / ${i % 5 === 0 ? 0 : 1} as v`.execute(trx)).rows[0]!.v,
        ),
      ),
    );
    outcomes.forEach((outcome, i) => {
      if (i % 5 === 0) expect(outcome.status === 'rejected' && String(outcome.reason)).toMatch(/division by zero/);
      else expect(outcome).toEqual({ status: 'fulfilled', value: i });
    });
  });

  it('slow reads on every lane do not hold up the reads that come after them', async () => {
    const acme = t.account('acme').id;
    const finished: string[] = [];
    const slow = [1, 2].map((n) =>
      reader(acme)
        .tenant(acme, (trx) => sql`select pg_sleep(0.6)`.execute(trx))
        .then(() => finished.push(`slow ${n}`)),
    );
    await new Promise((r) => setTimeout(r, 150)); // past STALL_MS (api/db/pg-read-lanes.ts)
    const fast = Array.from({ length: 5 }, (_, n) =>
      reader(acme)
        .tenant(acme, (trx) => trx.selectFrom('admins').select('id').execute())
        .then(() => finished.push(`fast ${n}`)),
    );
    await Promise.all([...slow, ...fast]);
    expect(finished.slice(0, 5).every((f) => f.startsWith('fast'))).toBe(true);
  });

  it('a read whose lane connection is cut runs once more on a new connection, and fails when that is cut too', async () => {
    const acme = t.account('acme').id;
    const admin = new pg.Client(PG_ADMIN_URL);
    await admin.connect();
    // terminates the backend running the marked read as soon as it shows
    const terminate = async (marker: string) => {
      for (let i = 0; i < 100; i++) {
        await new Promise((r) => setTimeout(r, 20));
        const res = await admin.query(
          `select pg_terminate_backend(pid) from pg_stat_activity where query like $1 and pid <> pg_backend_pid()`,
          [`%${marker}%`],
        );
        if (res.rowCount) return;
      }
      throw new Error(`no backend ran ${marker}`);
    };
    try {
      const once = `lane_cut_once_${Date.now()}`;
      const survived = reader(acme).tenant(acme, (trx) =>
        sql<{ marker: string }>`select pg_sleep(0.5), ${sql.lit(once)} as marker`.execute(trx),
      );
      await terminate(once);
      expect((await survived).rows[0]!.marker).toBe(once);

      const twice = `lane_cut_twice_${Date.now()}`;
      const failed = reader(acme).tenant(acme, (trx) => sql`select pg_sleep(5), ${sql.lit(twice)} as marker`.execute(trx));
      failed.catch(() => {});
      await terminate(twice);
      await terminate(twice);
      await expect(failed).rejects.toThrow();
    } finally {
      await admin.end();
    }
    const rows = await reader(acme).tenant(acme, (trx) => trx.selectFrom('admins').select('account_id').execute());
    expect(rows.length).toBeGreaterThan(0);
  });
});

describe.runIf(DATABASE_KINDS.includes('postgres'))(
  'a read lane whose new connection is terminated as it opens (PostgreSQL)',
  () => {
    it('opens another for the next read instead of keeping the dead one: reads answer, not fail at the deadline for good', async () => {
      const { readLanes } = await import('../../api/db/pg-read-lanes');
      const { prepareValue } = await import('pg/lib/utils.js');
      let opened = 0;
      const lanes = readLanes({
        lanes: 1,
        deadlineMs: 1_000,
        nameOf: () => undefined,
        prepareValue,
        getTypeParser: (oid) => pg.types.getTypeParser(oid, 'text'),
        client: () => {
          const client = new pg.Client(PG_ADMIN_URL);
          if (opened++ === 0) {
            // The first connection's backend is terminated as it starts: its FATAL comes in the same
            // packet as ReadyForQuery, so pg reports the error before the lane's `await connect()`
            // goes on (as a double pg_terminate_backend under load did in test/e2e/database-faults).
            const connect = client.connect.bind(client);
            client.connect = (() =>
              connect().then(() => {
                client.emit(
                  'error',
                  Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
                );
              })) as typeof client.connect;
          }
          return client as never;
        },
      });
      try {
        const read = () => lanes.pipeline([{ text: 'select 1 as ok', params: [] }])!;
        const first = await read();
        expect(first[0]!.rows).toEqual([{ ok: 1 }]);
        for (let i = 0; i < 3; i++) expect((await read())[0]!.rows).toEqual([{ ok: 1 }]);
        expect(opened).toBe(2);
      } finally {
        await lanes.close();
      }
    });
  },
);
