import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../api/helpers';
import { seedDemo } from '../../api/db/seed';
import { testConfig } from '../../api/config';
import { tokenSigner } from '../../api/auth/token';
import { createApp } from '../../api/app';
import { findActiveAdminByEmail, issueSessionToken } from '../../api/auth/sessions';
import type { Deps } from '../../api/deps';
import type { Database } from '../../api/db/index';

// The Submissions list at depth, on PostgreSQL: 1,000,000 form requests of one account (half of
// them submitted, with answers), generated with set-based SQL. Each page, however deep and with
// any one filter, should be an index range scan that stops at the page size. Reports; fails only
// on a broken setup. BENCH_EFORM_ROWS lowers the size for a quick look.

const ROWS = Number(process.env.BENCH_EFORM_ROWS ?? 1_000_000);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

describe('eForm Submissions list at depth (postgres)', () => {
  let db: Database;
  let drop: () => Promise<void>;
  let call: (path: string) => Promise<Response>;
  let formId: string;
  const figures: string[] = [];

  beforeAll(async () => {
    ({ db, drop } = await openTestDatabase('postgres'));
    const config = testConfig({});
    const deps: Deps = { config, db, tokens: tokenSigner(config.sessionSecret, () => Date.now()), now: () => new Date(), log: () => {} };
    const accounts = await seedDemo(db, config.encryptionKey);
    const acme = accounts.find((a) => a.account.key === 'acme')!.id;
    const app = createApp(deps);
    const token = await issueSessionToken(deps, (await findActiveAdminByEmail(db, 'owner@acme.test'))!);
    call = async (path) => app.request(`/api${path}`, { headers: { authorization: `Bearer ${token}` } });
    const started = performance.now();
    await db.tenant(acme, async (trx) => {
      const definition = JSON.stringify({ title: 'Bench', hiddenFields: [{ key: 'customerRef', label: 'Customer' }], fields: [{ id: 'name', type: 'short_text', label: 'Name', required: true }, { id: 'city', type: 'short_text', label: 'City', required: false }] });
      formId = (await sql<{ id: string }>`insert into eform_forms (account_id, status, draft, latest_version, created_at, updated_at) values (${acme}, 'published', ${definition}::jsonb, 1, now(), now()) returning id`.execute(trx)).rows[0]!.id;
      await sql`insert into eform_versions (account_id, form_id, version, definition, published_at, published_by) values (${acme}, ${formId}, 1, ${definition}::jsonb, now(), 'Bench')`.execute(trx);
      await sql`insert into eform_requests (account_id, form_id, version, status, phone_number, customer_ref, agent, created_at, expires_at, opened_at, submitted_at, ended_at)
        select ${acme}, ${formId}, 1, case when g % 2 = 0 then 'submitted' when g % 7 = 0 then 'expired' else 'opened' end,
               '+1555' || lpad(g::text, 7, '0'), 'CUST-' || (g % 1000), 'agent' || (g % 5) || '@acme.test',
               now() - make_interval(secs => g), now() - make_interval(secs => g) + interval '7 days', now() - make_interval(secs => g),
               case when g % 2 = 0 then now() - make_interval(secs => g) + interval '3 minutes' end, case when g % 2 = 0 then now() - make_interval(secs => g) + interval '3 minutes' end
        from generate_series(1, ${ROWS}) g`.execute(trx);
      await sql`insert into eform_submissions (request_id, account_id, form_id, version, answers, answers_text, submitted_at)
        select id, account_id, form_id, 1, jsonb_build_object('name', 'Person ' || customer_ref, 'city', 'City ' || right(phone_number, 3), 'customerRef', customer_ref),
               lower('Person ' || customer_ref || ' ' || 'City ' || right(phone_number, 3)), submitted_at
        from eform_requests where account_id = ${acme} and status = 'submitted'`.execute(trx);
    });
    // as the tables' owner (the app's role may not), as autovacuum would after such a load
    await sql.raw('vacuum analyze eform_requests').execute(db.kysely);
    await sql.raw('vacuum analyze eform_submissions').execute(db.kysely);
    console.log(`generated ${ROWS.toLocaleString('en-US')} form requests in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }, 1_800_000);
  afterAll(async () => {
    console.log(figures.join('\n'));
    await drop?.();
  });

  /** Walks to about `depth` rows in with keys, then times the next pages. */
  async function pageAt(label: string, query: string, depth: number) {
    // a key from about `depth` rows in, as the pager would hold after paging that far
    const acmeKey = await db.system((trx) =>
      sql<{ key: string }>`select to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') || '_' || id as key
        from eform_requests where form_id = ${formId} order by created_at desc, id desc offset ${depth} limit 1`.execute(trx),
    );
    const key = acmeKey.rows[0]!.key;
    const times: number[] = [];
    for (let i = 0; i < 7; i++) {
      const t = performance.now();
      const res = await call(`/e-form/submissions?limit=50&${query}${depth ? `&lastKey=${encodeURIComponent(key)}` : ''}`);
      expect(res.status).toBe(200);
      const body = (await res.json()) as { rows: unknown[] };
      expect(body.rows.length).toBeGreaterThan(0);
      times.push(performance.now() - t);
    }
    const line = `${label}: median ${median(times).toFixed(1)} ms (target 100 ms)`;
    figures.push(line);
    console.log(line);
  }

  it('first page, unfiltered and by form (columns included)', async () => {
    await pageAt('first page, unfiltered', '', 0);
    await pageAt('first page, one form', `formId=${formId}`, 0);
  });

  it('a page 900,000 rows deep, by form and by status', async () => {
    const depth = Math.floor(ROWS * 0.9);
    await pageAt(`page at depth ${depth.toLocaleString('en-US')}, one form`, `formId=${formId}`, depth);
    await pageAt(`page at depth ${depth.toLocaleString('en-US')}, status submitted`, 'status=submitted', depth);
    await pageAt(`page at depth ${depth.toLocaleString('en-US')}, one customer`, 'q=CUST-42', Math.min(depth, 100));
  });

  it('answer contains (a substring: scanned, capped count)', async () => {
    await pageAt('first page, answer contains "city 042"', `formId=${formId}&contains=${encodeURIComponent('city 042')}`, 0);
  });
});
