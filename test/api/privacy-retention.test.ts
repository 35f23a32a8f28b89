import { afterAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { BOTH_DATABASE_KINDS, useTestContext } from './helpers';
import { PG_ADMIN_URL } from './templates';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy';
import { openPostgres, type Database } from '../../api/db/index';
import { runRetention } from '../../api/privacy/retention';
import { runDueJobs } from '../../api/jobs/runner';
import { JOBS } from '../../api/jobs/index';
import type { RetentionRule } from '../../api/contract/privacy';

// Retention for every kind of caller data (issue 42): defaults a privacy officer would accept,
// shown with a dry run, never applied to existing data before 30 days unless an admin confirms;
// one redaction job in batches, one audit entry per run, and another account left alone. On both
// databases: batches lock rows with skip locked and every statement runs under row-level security.

const ADMIN = 'owner@acme.test';
const DAY = 24 * 60 * 60 * 1000;
const OLD_PHONE = '+14156664001';

describe.each(BOTH_DATABASE_KINDS)('Retention of caller data (%s)', (kind) => {
  const t = useTestContext(kind);
  const acme = () => t.account('acme').id;
  const globex = () => t.account('globex').id;
  const rules = async (as = ADMIN) => (await (await t.call('GET', '/privacy/retention', { as })).json()) as RetentionRule[];

  /** `count` passcode verifications and outbox messages to OLD_PHONE, made `age` days ago, in an account */
  async function oldRecords(accountId: string, count: number, ageDays: number) {
    const at = new Date(t.clock.now.getTime() - ageDays * DAY);
    await t.db.tenant(accountId, async (trx) => {
      await sql`insert into otp_verifications (account_id, phone_number, customer_ref, status, code_hmac, code_encrypted, max_checks, created_at, expires_at, ended_at)
        select ${accountId}, ${OLD_PHONE}, 'CUST-OLD', 'approved', 'x', 'x', 5, ${at}, ${at}, ${at} from generate_series(1, ${count})`.execute(
        trx,
      );
      await sql`insert into dev_sms_outbox (account_id, to_number, body, created_at) select ${accountId}, ${OLD_PHONE}, 'Your code is 1234', ${at} from generate_series(1, ${count})`.execute(
        trx,
      );
    });
  }
  const unredacted = async (accountId: string) =>
    Number(
      (
        await t.db.tenant(accountId, (trx) =>
          sql<{
            n: number;
          }>`select count(*)::int as n from otp_verifications where account_id = ${accountId} and phone_number = ${OLD_PHONE}`.execute(
            trx,
          ),
        )
      ).rows[0]!.n,
    );

  it('every kind has its default and what it covers, with a dry run, and starts 30 days after the account has it', async () => {
    // the demo accounts are dated months back (their defaults would be in force): as if made today
    await t.db.system((trx) =>
      sql`update accounts set created_at = ${t.clock.now} where id in (${acme()}, ${globex()})`.execute(trx),
    );
    await oldRecords(acme(), 30, 200);
    await oldRecords(globex(), 30, 200);
    const list = await rules();
    const otp = list.find((r) => r.kind === 'otp.tasks')!;
    expect(otp).toMatchObject({ days: 90, defaultDays: 90, wouldRedact: expect.any(Number), setOnStorage: false });
    expect(otp.wouldRedact).toBeGreaterThanOrEqual(30);
    expect(new Date(otp.startsAt).getTime()).toBeGreaterThan(t.clock.now.getTime() + 29 * DAY);
    expect(list.find((r) => r.kind === 'eform.answers')!.days).toBe(365);
    expect(list.find((r) => r.kind === 'payments.records')!.days).toBe(180);
    expect(list.find((r) => r.kind === 'idv.images')).toMatchObject({ setOnStorage: true });
    expect(list.every((r) => r.covers.length > 10)).toBe(true);
    // the job runs, but no rule is in force yet: nothing is redacted by surprise
    await runRetention(t.deps);
    expect(await unredacted(acme())).toBe(30);
  });

  it('supervisors cannot see or change retention', async () => {
    expect((await t.call('GET', '/privacy/retention', { as: 'supervisor@acme.test' })).status).toBe(403);
    expect(
      (await t.call('PUT', '/privacy/retention', { as: 'supervisor@acme.test', body: { kind: 'otp.tasks', days: 1 } })).status,
    ).toBe(403);
    const bad = await t.call('PUT', '/privacy/retention', { as: ADMIN, body: { kind: 'otp.tasks', days: 0 } });
    expect(bad.status).toBe(400);
  });

  it('an admin confirms a rule sooner; one job run redacts in batches, writes one audit entry with counts, and leaves the other account alone', async () => {
    const confirmed = await t.call('POST', '/privacy/retention/otp.tasks/confirm', { as: ADMIN });
    expect(confirmed.status).toBe(200);
    expect(((await confirmed.json()) as RetentionRule[]).find((r) => r.kind === 'otp.tasks')).toMatchObject({
      confirmedBy: 'Olivia Owens',
    });
    await t.call('POST', '/privacy/retention/sms.messages/confirm', { as: ADMIN });
    await t.call('POST', '/privacy/retention/payments.records/confirm', { as: ADMIN });
    // a payment paid 200 days ago, and one refunded 10 days ago (its period runs from the refund)
    const long = new Date(t.clock.now.getTime() - 200 * DAY);
    const recent = new Date(t.clock.now.getTime() - 10 * DAY);
    await t.db.tenant(acme(), (trx) =>
      sql`insert into payments (id, account_id, stripe_account_id, phone_number, status, amount, currency, description, created_at, expires_at, paid_at, ended_at)
        values ('7d3c2a41-5b6e-4f70-8a91-0c2d3e4f5a01', ${acme()}, 'acct_1', ${OLD_PHONE}, 'succeeded', 500, 'usd', 'Old', ${long}, ${long}, ${long}, ${long}),
               ('7d3c2a41-5b6e-4f70-8a91-0c2d3e4f5a02', ${acme()}, 'acct_1', ${OLD_PHONE}, 'refunded', 500, 'usd', 'Refunded', ${long}, ${long}, ${long}, ${recent})`.execute(
        trx,
      ),
    );
    const counts = await runRetention(t.deps, { batch: 7 });
    const payments = await t.db.tenant(acme(), (trx) =>
      sql<{
        description: string;
        phone_number: string;
      }>`select description, phone_number from payments where description in ('Old', 'Refunded') order by description`.execute(
        trx,
      ),
    );
    expect(payments.rows).toEqual([
      { description: 'Old', phone_number: '[erased]' },
      { description: 'Refunded', phone_number: OLD_PHONE },
    ]);
    expect(counts.get(acme())).toMatchObject({ 'otp.tasks': expect.any(Number), 'sms.messages': expect.any(Number) });
    expect(counts.get(acme())!['otp.tasks']).toBeGreaterThanOrEqual(30);
    expect(await unredacted(acme())).toBe(0);
    expect(await unredacted(globex())).toBe(30);
    const log = await t.db.tenant(acme(), (trx) =>
      sql<{
        description: string;
      }>`select description from audit_log where account_id = ${acme()} and event = 'privacy.retention-run'`.execute(trx),
    );
    expect(log.rows.length).toBe(1);
    expect(log.rows[0]!.description).toContain('otp.tasks');
    expect(log.rows[0]!.description).not.toContain(OLD_PHONE);
    // a second run finds nothing left to do and writes nothing
    expect((await runRetention(t.deps)).get(acme())).toBeUndefined();
    expect((await rules()).find((r) => r.kind === 'otp.tasks')!.wouldRedact).toBe(0);
  });

  it('identity verification data past Storage days set before the grace came is redacted by the same run, counted in its one audit entry, not one per session', async () => {
    const old = new Date(t.clock.now.getTime() - 100 * DAY);
    await t.db.tenant(acme(), (trx) =>
      sql`insert into idv_sessions (account_id, phone_number, customer_ref, status, created_at, ended_at, extracted, document_number, expected_name)
        select ${acme()}, ${OLD_PHONE}, 'CUST-IDV-OLD', 'approved', ${old}, ${old}, '{"surname":"Lovelace"}'::jsonb, 'X123', 'Ada Lovelace' from generate_series(1, 3)`.execute(
        trx,
      ),
    );
    await t.db.system((trx) =>
      sql`insert into storage_settings (account_id, retention) values (${acme()}, '{"idv.data": 30}') on conflict (account_id) do update set retention = excluded.retention`.execute(
        trx,
      ),
    );
    const entries = async (event: string) =>
      (
        await t.db.tenant(acme(), (trx) =>
          sql<{
            description: string;
          }>`select description from audit_log where account_id = ${acme()} and event = ${event} order by id`.execute(trx),
        )
      ).rows;
    const runsBefore = (await entries('privacy.retention-run')).length;
    const counts = await runRetention(t.deps);
    expect(counts.get(acme())).toMatchObject({ 'idv.data': 3 });
    const left = await t.db.tenant(acme(), (trx) =>
      sql<{
        n: number;
      }>`select count(*)::int as n from idv_sessions where customer_ref = 'CUST-IDV-OLD' and (extracted is not null or document_number is not null or data_redacted_at is null)`.execute(
        trx,
      ),
    );
    expect(left.rows[0]!.n).toBe(0);
    expect(await entries('idv.redacted')).toEqual([]);
    const runs = await entries('privacy.retention-run');
    expect(runs.length).toBe(runsBefore + 1);
    expect(runs.at(-1)!.description).toContain('idv.data 3');
    expect(runs.at(-1)!.description).not.toContain('CUST-IDV-OLD');
    await t.db.system((trx) => sql`delete from storage_settings where account_id = ${acme()}`.execute(trx));
  });

  it('an admin sets identity verification and signed document retention on Customer data, and Storage shows the same days', async () => {
    const put = await t.call('PUT', '/privacy/retention', {
      as: ADMIN,
      body: { kind: 'document-signature.completed', days: 45 },
    });
    expect(put.status).toBe(200);
    expect(((await put.json()) as RetentionRule[]).find((r) => r.kind === 'document-signature.completed')).toMatchObject({
      days: 45,
      setOnStorage: true,
    });
    const storage = (await (await t.call('GET', '/storage', { as: ADMIN })).json()) as {
      retention: Record<string, number | null>;
    };
    expect(storage.retention['document-signature.completed']).toBe(45);
    await t.call('PUT', '/privacy/retention', { as: ADMIN, body: { kind: 'document-signature.completed', days: null } });
    expect((await rules()).find((r) => r.kind === 'document-signature.completed')!.days).toBeNull();
    const log = await t.db.tenant(acme(), (trx) =>
      sql<{
        description: string;
      }>`select description from audit_log where account_id = ${acme()} and event = 'privacy.retention-set' order by id desc limit 2`.execute(
        trx,
      ),
    );
    expect(log.rows.map((r) => r.description)).toEqual([
      'Set retention of Completed signed documents to keep',
      expect.stringMatching(/^Set retention of Completed signed documents to 45 days; first run from \d{4}-\d{2}-\d{2}$/),
    ]);
  });

  /** `count` finished identity verifications with their extracted data, made `ageDays` ago */
  async function oldSessions(ref: string, count: number, ageDays: number) {
    const at = new Date(t.clock.now.getTime() - ageDays * DAY);
    await t.db.tenant(acme(), (trx) =>
      sql`insert into idv_sessions (account_id, phone_number, customer_ref, status, created_at, ended_at, extracted, document_number, expected_name)
        select ${acme()}, ${OLD_PHONE}, ${ref}, 'approved', ${at}, ${at}, '{"surname":"Lovelace"}'::jsonb, 'X123', 'Ada Lovelace' from generate_series(1, ${count})`.execute(
        trx,
      ),
    );
  }
  const keptData = async (ref: string) =>
    Number(
      (
        await t.db.tenant(acme(), (trx) =>
          sql<{
            n: number;
          }>`select count(*)::int as n from idv_sessions where customer_ref = ${ref} and data_redacted_at is null`.execute(trx),
        )
      ).rows[0]!.n,
    );
  const forget = async () =>
    t.db.system(async (trx) => {
      await sql`delete from storage_settings where account_id = ${acme()}`.execute(trx);
      await sql`delete from retention_rules where account_id = ${acme()} and kind in ('idv.images', 'idv.data', 'document-signature.completed')`.execute(
        trx,
      );
    });

  it('enabling identity verification retention on Customer data shows a dry run and runs first 30 days later', async () => {
    await oldSessions('CUST-IDV-GRACE', 4, 100);
    const res = await t.call('PUT', '/privacy/retention', { as: ADMIN, body: { kind: 'idv.data', days: 30 } });
    const rule = ((await res.json()) as RetentionRule[]).find((r) => r.kind === 'idv.data')!;
    expect(rule).toMatchObject({ days: 30, setOnStorage: true, confirmedBy: null });
    expect(rule.wouldRedact).toBeGreaterThanOrEqual(4);
    expect(new Date(rule.startsAt).getTime()).toBeGreaterThan(t.clock.now.getTime() + 29 * DAY);
    expect((await runRetention(t.deps)).get(acme())?.['idv.data']).toBeUndefined();
    expect(await keptData('CUST-IDV-GRACE')).toBe(4);
    // 31 days on, the first run comes by itself
    const start = t.clock.now;
    t.clock.now = new Date(start.getTime() + 31 * DAY);
    try {
      expect((await runRetention(t.deps)).get(acme())?.['idv.data']).toBeGreaterThanOrEqual(4);
      expect(await keptData('CUST-IDV-GRACE')).toBe(0);
    } finally {
      t.clock.now = start;
      await forget();
    }
  });

  it('an admin starts identity verification retention now after the dry run, and it is audited with their name', async () => {
    await oldSessions('CUST-IDV-NOW', 2, 100);
    await t.call('PUT', '/privacy/retention', { as: ADMIN, body: { kind: 'idv.data', days: 30 } });
    expect((await runRetention(t.deps)).get(acme())?.['idv.data']).toBeUndefined();
    const confirmed = await t.call('POST', '/privacy/retention/idv.data/confirm', { as: ADMIN });
    expect(confirmed.status).toBe(200);
    expect(((await confirmed.json()) as RetentionRule[]).find((r) => r.kind === 'idv.data')).toMatchObject({
      confirmedBy: 'Olivia Owens',
      wouldRedact: expect.any(Number),
    });
    expect((await runRetention(t.deps)).get(acme())?.['idv.data']).toBeGreaterThanOrEqual(2);
    expect(await keptData('CUST-IDV-NOW')).toBe(0);
    const log = await t.db.tenant(acme(), (trx) =>
      sql<{
        description: string;
      }>`select description from audit_log where account_id = ${acme()} and event = 'privacy.retention-confirmed' order by id desc limit 1`.execute(
        trx,
      ),
    );
    expect(log.rows[0]!.description).toBe('Confirmed retention of Identity Verification extracted data (30 days) to start now');
    await forget();
  });

  it('tightening identity verification retention on the Storage page waits 30 days too, with the dry run on Customer data', async () => {
    await oldSessions('CUST-IDV-STORAGE', 3, 100);
    const keep = { 'idv.images': null, 'document-signature.completed': null };
    expect(
      (await t.call('PUT', '/storage', { as: ADMIN, body: { backend: 'database', retention: { ...keep, 'idv.data': 60 } } }))
        .status,
    ).toBe(200);
    const rule = (await rules()).find((r) => r.kind === 'idv.data')!;
    expect(rule.days).toBe(60);
    expect(rule.wouldRedact).toBeGreaterThanOrEqual(3);
    expect(new Date(rule.startsAt).getTime()).toBeGreaterThan(t.clock.now.getTime() + 29 * DAY);
    expect((await runRetention(t.deps)).get(acme())?.['idv.data']).toBeUndefined();
    expect(await keptData('CUST-IDV-STORAGE')).toBe(3);
    // a longer period is no surprise: it keeps the first run it had
    await t.call('PUT', '/storage', { as: ADMIN, body: { backend: 'database', retention: { ...keep, 'idv.data': 90 } } });
    expect((await rules()).find((r) => r.kind === 'idv.data')!.startsAt).toBe(rule.startsAt);
    await forget();
  });

  it('a signed-document rule made stricter shows its dry run and does not delete before its first run', async () => {
    await t.call('PUT', '/privacy/retention', { as: ADMIN, body: { kind: 'document-signature.completed', days: 1 } });
    const rule = (await rules()).find((r) => r.kind === 'document-signature.completed')!;
    expect(rule).toMatchObject({ days: 1, wouldRedact: expect.any(Number), confirmedBy: null });
    expect(new Date(rule.startsAt).getTime()).toBeGreaterThan(t.clock.now.getTime() + 29 * DAY);
    expect((await runRetention(t.deps)).get(acme())?.['document-signature.completed']).toBeUndefined();
    await forget();
  });

  it('a shorter period starts 30 days later again; the job runs once across processes through its lease', async () => {
    const res = await t.call('PUT', '/privacy/retention', { as: ADMIN, body: { kind: 'passkeys.tasks', days: 30 } });
    const rule = ((await res.json()) as RetentionRule[]).find((r) => r.kind === 'passkeys.tasks')!;
    expect(rule).toMatchObject({ days: 30, confirmedBy: null });
    expect(new Date(rule.startsAt).getTime()).toBeGreaterThan(t.clock.now.getTime() + 29 * DAY);
    const retention = JOBS.filter((j) => j.name === 'privacy.retention');
    expect(JOBS.map((j) => j.name)).not.toContain('idv.redact-sessions');
    expect(JOBS.map((j) => j.name)).not.toContain('document-signature.retention');
    const [a, b] = await Promise.all([
      runDueJobs(t.deps, retention, { workerId: 'one' }),
      runDueJobs(t.deps, retention, { workerId: 'two' }),
    ]);
    expect([...a, ...b]).toEqual(['privacy.retention']);
  });
});

describe.each(BOTH_DATABASE_KINDS.filter((k) => k === 'postgres'))('Retention through a database cut (%s)', (kind) => {
  const t = useTestContext(kind);
  let proxy: TcpProxy | undefined;
  let cutDb: Database | undefined;
  afterAll(async () => {
    await cutDb?.close().catch(() => undefined);
    await proxy?.close();
  });

  it('a run cut off mid-batch keeps what it committed, and the next run finishes', async () => {
    const acme = t.account('acme').id;
    const at = new Date(t.clock.now.getTime() - 200 * DAY);
    await t.db.tenant(acme, (trx) =>
      sql`insert into otp_verifications (account_id, phone_number, status, code_hmac, code_encrypted, max_checks, created_at, expires_at)
        select ${acme}, '+14156664100', 'expired', 'x', 'x', 5, ${at}, ${at} from generate_series(1, 2000)`.execute(trx),
    );
    await t.call('POST', '/privacy/retention/otp.tasks/confirm', { as: ADMIN });
    const name = (await t.db.system((trx) => sql<{ db: string }>`select current_database() as db`.execute(trx))).rows[0]!.db;
    const url = new URL(PG_ADMIN_URL);
    proxy = await startTcpProxy({ host: url.hostname, port: Number(url.port || 5432) });
    url.port = String(proxy.port);
    url.pathname = `/${name}`;
    cutDb = await openPostgres(url.toString(), 2);
    proxy.delay(5);
    const left = async () =>
      Number(
        (
          await t.db.tenant(acme, (trx) =>
            sql<{ n: number }>`select count(*)::int as n from otp_verifications where phone_number = '+14156664100'`.execute(trx),
          )
        ).rows[0]!.n,
      );
    const running = runRetention({ ...t.deps, db: cutDb }, { batch: 100 }).then(
      () => 'finished',
      () => 'cut',
    );
    for (let i = 0; i < 3000 && (await left()) > 1800; i++) await new Promise((r) => setTimeout(r, 20));
    proxy.cut();
    proxy.refuse(true);
    expect(await running).toBe('cut');
    const after = await left();
    expect(after).toBeGreaterThan(0);
    expect(after).toBeLessThan(2000);
    // committed batches are whole: every row is either fully redacted or untouched
    const half = await t.db.tenant(acme, (trx) =>
      sql<{
        n: number;
      }>`select count(*)::int as n from otp_verifications where phone_number = ${'[erased]'} and customer_ref is not null`.execute(
        trx,
      ),
    );
    expect(half.rows[0]!.n).toBe(0);
    await runRetention(t.deps);
    expect(await left()).toBe(0);
  });
});
