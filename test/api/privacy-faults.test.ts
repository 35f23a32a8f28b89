import { spawn } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { BOTH_DATABASE_KINDS, useTestContext, type TestContext } from './helpers';
import { PG_ADMIN_URL, postgresUrl } from './templates';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy';
import { openPostgres, type Database } from '../../api/db/index';
import { requestErasure, requestExport, runOpenExports, runOpenPrivacyRequests, type Requester } from '../../api/privacy/service';
import type { Deps } from '../../api/deps';

// A database connection cut in the middle of an erasure or an export (a failover, a reaper, a
// dropped route): what was committed stays committed and counted once, the request stays open,
// and the next run (the `privacy.requests` job for erasures, `privacy.exports` for exports, once
// the dead run's lease is over) finishes it.
// PostgreSQL only: the cut is a TCP proxy between the server and the database.

const PHONE = '+14156663001';
const ROWS = 1000;
const BY: Requester = { actor: null, name: 'Fault test', via: 'api' };

const sum = (progress: Record<string, number>) => Object.values(progress).reduce((a, b) => a + b, 0);

async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean, ms = 60_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > until) throw new Error(`gave up waiting: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe.each(BOTH_DATABASE_KINDS.filter((k) => k === 'postgres'))('Privacy requests through a database cut (%s)', (kind) => {
  const t = useTestContext(kind);
  let proxy: TcpProxy | undefined;
  let cutDb: Database | undefined;
  afterAll(async () => {
    await cutDb?.close().catch(() => undefined);
    await proxy?.close();
  });
  const acme = () => t.account('acme').id;

  /** deps whose database connection goes through a proxy this test can cut */
  async function throughProxy(ctx: TestContext): Promise<Deps> {
    const name = (await ctx.db.system((trx) => sql<{ db: string }>`select current_database() as db`.execute(trx))).rows[0]!.db;
    const url = new URL(PG_ADMIN_URL);
    proxy = await startTcpProxy({ host: url.hostname, port: Number(url.port || 5432) });
    url.port = String(proxy.port);
    url.pathname = `/${name}`;
    cutDb = await openPostgres(url.toString(), 2);
    return { ...ctx.deps, db: cutDb };
  }

  it('an erasure cut off mid-batch is finished by the next run, each record counted once', async () => {
    await t.db.tenant(acme(), async (trx) => {
      await sql`insert into dev_sms_outbox (account_id, to_number, body, created_at) select ${acme()}, ${PHONE}, 'Your code is ' || g, now() from generate_series(1, ${ROWS}) g`.execute(
        trx,
      );
      await sql`insert into sms_guard_sends (account_id, prefix, phone_number, ts) select ${acme()}, '+1415', ${PHONE}, now() from generate_series(1, ${ROWS}) g`.execute(
        trx,
      );
    });
    const deps = await throughProxy(t);
    proxy!.delay(5);
    const running = requestErasure(deps, acme(), { phoneNumber: PHONE }, BY).then(
      (r) => r.request,
      (err: unknown) => err,
    );
    const progress = () =>
      t.db
        .tenant(acme(), (trx) =>
          sql<{
            state: string;
            progress: Record<string, number>;
          }>`select state, progress from privacy_requests where account_id = ${acme()} and kind = 'erasure'`.execute(trx),
        )
        .then((r) => r.rows[0]);
    await waitFor(progress, (p) => !!p && sum(p.progress) >= 200);
    proxy!.cut();
    proxy!.refuse(true);
    const outcome = await running;
    expect(outcome).not.toMatchObject({ state: 'done' });
    const cut = (await progress())!;
    expect(cut.state).toBe('running');
    expect(sum(cut.progress)).toBeGreaterThan(0);
    expect(sum(cut.progress)).toBeLessThan(2 * ROWS);
    const left = await t.db.tenant(acme(), (trx) =>
      sql<{
        n: number;
      }>`select (select count(*) from dev_sms_outbox where to_number = ${PHONE}) + (select count(*) from sms_guard_sends where phone_number = ${PHONE}) as n`.execute(
        trx,
      ),
    );
    // what was counted is exactly what is gone: each batch commits its records and its count together
    expect(Number(left.rows[0]!.n)).toBe(2 * ROWS - sum(cut.progress));

    // before the dead run's lease is over nobody takes it; after it, the job finishes it
    expect(await runOpenPrivacyRequests(t.deps)).toBe(0);
    t.clock.now = new Date(t.clock.now.getTime() + 3 * 60_000);
    expect(await runOpenPrivacyRequests(t.deps)).toBe(1);
    const done = (await progress())!;
    expect(done.state).toBe('done');
    expect(done.progress).toMatchObject({ 'sms.outbox': ROWS, 'sms.guard': ROWS });
    const after = await t.db.tenant(acme(), (trx) =>
      sql<{ n: number }>`select count(*)::int as n from dev_sms_outbox where to_number = ${PHONE}`.execute(trx),
    );
    expect(after.rows[0]!.n).toBe(0);
  });

  it('an export cut off by the database leaves no ZIP behind and is made whole by the next run', async () => {
    const phone = '+14156663002';
    await t.db.tenant(acme(), (trx) =>
      sql`insert into dev_sms_outbox (account_id, to_number, body, created_at) select ${acme()}, ${phone}, 'Message ' || g, now() from generate_series(1, 50) g`.execute(
        trx,
      ),
    );
    proxy!.refuse(false);
    proxy!.delay(0);
    // the request is answered at once, pending: the ZIP is the job's
    const asked = await requestExport(t.deps, acme(), { phoneNumber: phone }, BY);
    expect(asked.request.state).toBe('pending');
    const deps = { ...t.deps, db: cutDb! };
    // the database goes away while the job reads the export
    proxy!.stall(true);
    const running = runOpenExports(deps).then(
      (n) => n,
      (err: unknown) => err,
    );
    await new Promise((r) => setTimeout(r, 200));
    proxy!.stall(false);
    proxy!.cut();
    proxy!.refuse(true);
    expect(await running).not.toBe(1);
    const row = async () =>
      (
        await t.db.tenant(acme(), (trx) =>
          sql<{
            state: string;
            file_id: string | null;
            progress: Record<string, number>;
          }>`select state, file_id, progress from privacy_requests where account_id = ${acme()} and kind = 'export'`.execute(trx),
        )
      ).rows;
    const open = await row();
    // the request stays open without a file
    expect(open).toHaveLength(1);
    expect(open[0]).toMatchObject({ file_id: null });
    expect(open[0]!.state).not.toBe('done');
    // the next run of the job, once the dead run's lease is over, makes it whole
    t.clock.now = new Date(t.clock.now.getTime() + 3 * 60_000);
    expect(await runOpenExports(t.deps)).toBe(1);
    const [done] = await row();
    expect(done).toMatchObject({ state: 'done', progress: { 'sms.outbox': 50 }, file_id: expect.any(String) });
  });

  it('an erasure whose process is killed halfway is finished by the next run, each record counted once', async () => {
    const phone = '+14156663003';
    const rows = 20_000;
    await t.db.tenant(acme(), (trx) =>
      sql`insert into dev_sms_outbox (account_id, to_number, body, created_at) select ${acme()}, ${phone}, 'Message ' || g, now() from generate_series(1, ${rows}) g`.execute(
        trx,
      ),
    );
    const name = (await t.db.system((trx) => sql<{ db: string }>`select current_database() as db`.execute(trx))).rows[0]!.db;
    const child = spawn(
      process.execPath,
      ['test/support/privacy-eraser.mjs', postgresUrl(name), acme(), phone, t.config.encryptionKey],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const exited = new Promise<string | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
    const progress = () =>
      t.db
        .tenant(acme(), (trx) =>
          sql<{
            state: string;
            progress: Record<string, number>;
          }>`select state, progress from privacy_requests where account_id = ${acme()} and kind = 'erasure' and state <> 'done'`.execute(
            trx,
          ),
        )
        .then((r) => r.rows[0]);
    await waitFor(progress, (p) => !!p && (p.progress['sms.outbox'] ?? 0) > 0, 120_000);
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');
    const killed = (await progress())!;
    expect(killed.state).toBe('running');
    const left = async () =>
      Number(
        (
          await t.db.tenant(acme(), (trx) =>
            sql<{ n: number }>`select count(*)::int as n from dev_sms_outbox where to_number = ${phone}`.execute(trx),
          )
        ).rows[0]!.n,
      );
    const remaining = await left();
    expect(remaining).toBeGreaterThan(0);
    expect(remaining).toBe(rows - killed.progress['sms.outbox']!);
    // the dead process's lease runs out; the job takes the request and finishes it
    t.clock.now = new Date(Date.now() + 3 * 60_000);
    expect(await runOpenPrivacyRequests(t.deps)).toBeGreaterThanOrEqual(1);
    expect(await left()).toBe(0);
    const done = await t.db.tenant(acme(), (trx) =>
      sql<{
        state: string;
        progress: Record<string, number>;
      }>`select state, progress from privacy_requests where account_id = ${acme()} and kind = 'erasure' order by created_at desc limit 1`.execute(
        trx,
      ),
    );
    expect(done.rows[0]).toMatchObject({ state: 'done', progress: { 'sms.outbox': rows } });
  }, 180_000);
});
