import os from 'node:os';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../api/helpers';
import { seedDemo } from '../../api/seed';
import { testConfig } from '../../api/config';
import { tokenSigner } from '../../api/auth/token';
import { createApp } from '../../api/app';
import { findActiveAdminByEmail, issueSessionToken } from '../../api/auth/sessions';
import { TASK_LAST_KEY_HEADER } from '../../api/contract/platform';
import { appModule } from '../../api/apps/index';
import { parseKey } from '../../api/apps/platform/request';
import type { Database } from '../../api/db/index';
import { DEPTH, generateList, LISTS, OTHERS, ROWS } from './app-lists';

// Every app's activity list at depth, on PostgreSQL (issue 16): per list, 1,000,000 tasks of one
// account plus a quarter as many of each other account, interleaved in time (so row-level
// security and the account_id of each index matter), generated with set-based SQL in a database
// of its own. Timed through the real API in process, as the console pages: the first page, and a
// page about 900,000 rows in reached with the list's own lastKey (the key the API handed out).
// Prints MET/MISSED against ≤ 5 ms (median of CALLS calls); fails only on a broken setup.
// BENCH_APP_LIST_ROWS lowers the size for a quick look.

const CALLS = 25;
const TARGET_MS = 5;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const figures: string[] = [];
function report(what: string, ms: number, target = TARGET_MS) {
  const line = `${ms <= target ? 'MET   ' : 'MISSED'} ${what}: median ${ms.toFixed(2)} ms of ${CALLS} calls (target ≤ ${target} ms), load ${loadAverage()}`;
  figures.push(line);
  console.log(line);
}

const loadAverage = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');

afterAll(() => {
  console.log(
    `\nApp activity lists at depth (${ROWS.toLocaleString('en-US')} tasks of one account, load average ${loadAverage()}):\n${figures.join('\n')}\n`,
  );
});

// BENCH_APP_LIST_ONLY=<part of a name> measures only the lists it names
const ONLY = process.env.BENCH_APP_LIST_ONLY?.toLowerCase();
// BENCH_APP_LIST_CASE=<part of a label> times only the filtered cases it names (e.g. "answer contains")
const CASE = process.env.BENCH_APP_LIST_CASE?.toLowerCase();

for (const list of LISTS.filter((l) => !ONLY || l.name.toLowerCase().includes(ONLY))) {
  describe(`${list.name} at depth (postgres)`, () => {
    let db: Database;
    let drop: () => Promise<void>;
    let accountId: string;
    let call: (path: string) => Promise<Response>;

    beforeAll(async () => {
      ({ db, drop } = await openTestDatabase('postgres', undefined, { deadlineMs: 600_000 }));
      const config = testConfig({});
      const deps = {
        config,
        db,
        tokens: tokenSigner(config.sessionSecret, () => Date.now()),
        now: () => new Date(),
        log: () => {},
      };
      const accounts = await seedDemo(db, config.encryptionKey);
      const owner = list.account ?? { key: 'acme', email: 'owner@acme.test' };
      accountId = accounts.find((a) => a.account.key === owner.key)!.id;
      const app = createApp(deps);
      const token = await issueSessionToken(deps, (await findActiveAdminByEmail(db, owner.email))!);
      call = async (path) => app.request(`/api${path}`, { headers: { authorization: `Bearer ${token}` } });
      const started = performance.now();
      await generateList(db, list, accountId, accounts);
      console.log(
        `${list.name}: generated ${ROWS.toLocaleString('en-US')} + ${accounts.length - 1} × ${OTHERS.toLocaleString('en-US')} rows in ${((performance.now() - started) / 1000).toFixed(1)} s`,
      );
    }, 3_600_000);
    afterAll(async () => {
      await drop?.();
    });

    /** GET path?query, 200 with rows; its x-last-key, as the pager keeps it. */
    async function page(query: string, lastKey: string | null) {
      const res = await call(
        `${list.path}?${query}${lastKey ? `${query ? '&' : ''}lastKey=${encodeURIComponent(lastKey)}` : ''}`,
      );
      if (res.status !== 200) throw new Error(`${list.path}: ${res.status} ${await res.text()}`);
      const body = await res.json();
      const rows = list.rowsOf ? list.rowsOf(body) : (body as unknown[]);
      expect(rows.length).toBeGreaterThan(0);
      return res.headers.get(TASK_LAST_KEY_HEADER);
    }

    /** Times the page `depth` rows in: the key of the row before it, then the key the API gives for the page after. */
    async function timeAt(label: string, query: string, depth: number, target = TARGET_MS) {
      let key: string | null = null;
      if (depth > 0) {
        // the pager's key after about `depth` rows of the unfiltered order (the row's own key, as the API writes it)
        const row = await sql<{
          key: string;
        }>`select to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') || '_' || id as key
          from ${sql.table(list.table)} where account_id = ${accountId} order by created_at desc, id desc offset ${depth - 1} limit 1`.execute(
          db.kysely,
        );
        // then one page through the API, whose x-last-key is what the UI would send next (a
        // filtered list may end within that page: then the row's own key is the page timed)
        key = (await page(query, row.rows[0]!.key)) ?? row.rows[0]!.key;
      }
      for (let i = 0; i < 5; i++) await page(query, key);
      const times: number[] = [];
      for (let i = 0; i < CALLS; i++) {
        const t = performance.now();
        await page(query, key);
        times.push(performance.now() - t);
      }
      report(`${list.name}, ${label}`, median(times), target);
      if (depth > 0 && !query && list.module) {
        // the same page's own transaction without the request around it (session check, routing, JSON)
        const module = appModule(list.module)!;
        const after = parseKey(key!);
        const alone: number[] = [];
        for (let i = 0; i < CALLS; i++) {
          const t = performance.now();
          await db.tenant(accountId, (trx) => module.listTasks(trx, accountId, {}, after, 51));
          alone.push(performance.now() - t);
        }
        const line = `       ${list.name}, ${label}, its transaction alone (listTasks): median ${median(alone).toFixed(2)} ms`;
        figures.push(line);
        console.log(line);
      }
    }

    it('first page and a page 900,000 rows deep', async () => {
      // what any authenticated call costs here (the session check and one small read), so the
      // list's own share of its figure shows
      for (let i = 0; i < 5; i++) await call('/branding');
      const floor: number[] = [];
      for (let i = 0; i < CALLS; i++) {
        const t = performance.now();
        expect((await call('/branding')).status).toBe(200);
        floor.push(performance.now() - t);
      }
      const line = `       ${list.name}, request floor (GET /api/branding): median ${median(floor).toFixed(2)} ms`;
      figures.push(line);
      console.log(line);
      if (!CASE) {
        await timeAt('first page', '', 0);
        await timeAt(`page ${DEPTH.toLocaleString('en-US')} rows deep`, '', DEPTH);
      }
      for (const [label, query, depth, target] of (await list.extra?.(accountId, db)) ?? [])
        if (!CASE || label.toLowerCase().includes(CASE)) await timeAt(label, query, depth, target);
    });
  });
}
