import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { PROVIDER_ACTOR } from '../../api/audit-log/service';
import { zonedFormatter } from '../../api/http/zoned-time';
import { DATABASE_KINDS, useTestContext, type TestContext } from './helpers';

type Entry = {
  id: number;
  timestamp: string;
  admin?: { firstName: string; lastName: string };
  namespace: string;
  description: string;
  event: string;
};

const BULK = 3000;

/** Inserts n entries in one statement, many sharing a timestamp so the id must break ties. */
async function insertBulk(t: TestContext, key: 'acme' | 'globex', n: number) {
  const accountId = t.account(key).id;
  await t.db.tenant(accountId, async (trx) => {
    await sql`
      insert into audit_log (account_id, ts, admin_id, admin_first_name, admin_last_name, namespace, description, event)
      select ${accountId}::uuid,
             timestamptz '2024-01-01 00:00:00+00' + make_interval(secs => (i / 7) * 1.000001),
             null, case when i % 3 = 0 then null else 'Bulk' end, case when i % 3 = 0 then null else 'Writer' end,
             'global', 'Bulk entry ' || i, 'bulk.entry'
      from generate_series(1, ${n}) as i`.execute(trx);
    await sql`update audit_counts set count = count + ${n} where account_id = ${accountId}`.execute(trx);
  });
}

async function pageThrough(t: TestContext, as: string, limit?: number) {
  const seen: Entry[] = [];
  let lastKey: string | null = null;
  let pages = 0;
  let count = -1;
  do {
    const q = new URLSearchParams();
    if (lastKey) q.set('lastKey', lastKey);
    if (limit) q.set('limit', String(limit));
    const res = await t.call('GET', `/audit-log?${q}`, { as });
    expect(res.status).toBe(200);
    count = Number(res.headers.get('x-count'));
    seen.push(...((await res.json()) as Entry[]));
    lastKey = res.headers.get('x-last-key');
    pages++;
  } while (lastKey && pages < 1000);
  return { seen, pages, count };
}

describe.each(DATABASE_KINDS)('audit log (%s)', (kind) => {
  const t = useTestContext(kind);

  it('the first page lists the newest entries with the total in x-count', async () => {
    await t.call('POST', '/invitations', { as: 'admin@acme.test', body: { email: 'first@acme.test' } });
    const res = await t.call('GET', '/audit-log', { as: 'admin@acme.test' });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-count')).toBe('2');
    expect(res.headers.get('x-last-key')).toBeNull();
    expect(res.headers.get('access-control-expose-headers')).toMatch(/x-count.*x-last-key/);
    const entries = (await res.json()) as Entry[];
    expect(entries[0]).toMatchObject({
      admin: { firstName: 'Adam', lastName: 'Adeyemi' },
      namespace: 'global',
      description: 'Invited first@acme.test as admin',
      event: 'invitation.created',
    });
  });

  it('an entry the provider made has no admin', async () => {
    const entries = (await (await t.call('GET', '/audit-log', { as: 'admin@acme.test' })).json()) as Entry[];
    const created = entries.find((e) => e.event === 'account.created')!;
    expect(created.admin).toBeUndefined();
  });

  it('paging by key through thousands of entries returns each exactly once, newest first', async () => {
    await insertBulk(t, 'acme', BULK);
    const { seen, pages, count } = await pageThrough(t, 'admin@acme.test', 200);
    expect(count).toBe(BULK + 2);
    expect(seen).toHaveLength(BULK + 2);
    expect(new Set(seen.map((e) => e.id)).size).toBe(BULK + 2);
    expect(pages).toBe(Math.ceil((BULK + 2) / 200));
    for (let i = 1; i < seen.length; i++) {
      const [a, b] = [seen[i - 1]!, seen[i]!];
      const order = Date.parse(a.timestamp) - Date.parse(b.timestamp) || a.id - b.id;
      expect(order).toBeGreaterThan(0);
    }
  });

  it('entries written while paging do not shift later pages', async () => {
    const first = await t.call('GET', '/audit-log?limit=100', { as: 'admin@acme.test' });
    const page1 = (await first.json()) as Entry[];
    for (let i = 0; i < 5; i++)
      await t.call('POST', '/invitations', { as: 'admin@acme.test', body: { email: `during${i}@acme.test` } });
    const second = await t.call('GET', `/audit-log?limit=100&lastKey=${encodeURIComponent(first.headers.get('x-last-key')!)}`, {
      as: 'admin@acme.test',
    });
    const page2 = (await second.json()) as Entry[];
    expect(page2[0]!.id).not.toBe(page1[99]!.id);
    const ids = new Set(page1.map((e) => e.id));
    expect(page2.some((e) => ids.has(e.id))).toBe(false);
    // the next entry after page 1 is exactly the 101st entry of the unchanged log
    expect(Date.parse(page2[0]!.timestamp)).toBeLessThanOrEqual(Date.parse(page1[99]!.timestamp));
  });

  it("the log shows only the caller's account", async () => {
    const { seen, count } = await pageThrough(t, 'owner@globex.test');
    expect(count).toBe(1);
    expect(seen.map((e) => e.event)).toEqual(['account.created']);
  });

  it('a key this API did not give out is refused with 400', async () => {
    for (const key of ['abc', "2024-01-01T00:00:00.000000Z_1' or 1=1", '2024-01-01T00:00:00Z_1']) {
      const res = await t.call('GET', `/audit-log?lastKey=${encodeURIComponent(key)}`, { as: 'admin@acme.test' });
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
    }
  });

  it('a supervisor may not read the audit log (403)', async () => {
    expect((await t.call('GET', '/audit-log', { as: 'supervisor@acme.test' })).status).toBe(403);
    expect((await t.call('GET', '/audit-log/export', { as: 'supervisor@acme.test' })).status).toBe(403);
  });
});

describe.each(DATABASE_KINDS)('audit log export (%s)', (kind) => {
  const t = useTestContext(kind);

  async function addEntry(description: string, ts: string, admin: [string, string] | null = ['Adam', 'Adeyemi']) {
    const accountId = t.account('acme').id;
    await t.db.tenant(accountId, (trx) =>
      sql`insert into audit_log (account_id, ts, admin_first_name, admin_last_name, namespace, description, event)
          values (${accountId}, ${ts}::timestamptz, ${admin?.[0] ?? null}, ${admin?.[1] ?? null}, 'global', ${description}, 'test.entry')`.execute(
        trx,
      ),
    );
  }

  it('exports the whole log as CSV with dates in the requested time zone', async () => {
    await addEntry('Summer change', '2024-07-01 12:00:00+00');
    await addEntry('Winter change', '2024-01-15 23:30:00+00', null);
    t.clock.now = new Date('2024-07-01T23:30:00Z');
    const res = await t.call('GET', `/audit-log/export?timezone=${encodeURIComponent('Asia/Tokyo')}`, { as: 'admin@acme.test' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    // 23:30 UTC is already the next day in Tokyo
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="audit-log-2024-07-02.csv"');
    const rows = parse(await res.text(), { columns: true }) as Record<string, string>[];
    expect(Object.keys(rows[0]!)).toEqual(['Date (Asia/Tokyo)', 'Admin', 'Description', 'Event', 'Namespace']);
    expect(rows.find((r) => r.Description === 'Summer change')).toMatchObject({
      'Date (Asia/Tokyo)': '2024-07-01 21:00:00 +09:00',
      Admin: 'Adam Adeyemi',
    });
    expect(rows.find((r) => r.Description === 'Winter change')).toMatchObject({
      'Date (Asia/Tokyo)': '2024-01-16 08:30:00 +09:00',
      Admin: 'Provider',
    });
  });

  it("without a timezone parameter the dates follow the caller's time zone header", async () => {
    const res = await t.call('GET', '/audit-log/export', {
      as: 'admin@acme.test',
      headers: { 'x-time-zone': 'America/New_York' },
    });
    const rows = parse(await res.text(), { columns: true }) as Record<string, string>[];
    expect(rows.find((r) => r.Description === 'Summer change')).toMatchObject({
      'Date (America/New_York)': '2024-07-01 08:00:00 -04:00',
    });
    expect(rows.find((r) => r.Description === 'Winter change')).toMatchObject({
      'Date (America/New_York)': '2024-01-15 18:30:00 -05:00',
    });
  });

  it('cells that begin with = + - @ are neutralised against formula injection', async () => {
    await addEntry('=HYPERLINK("https://evil.test","click")', '2024-07-02 00:00:00+00');
    await addEntry('+1+2', '2024-07-02 00:00:01+00');
    await addEntry('-2+3', '2024-07-02 00:00:02+00');
    await addEntry('@SUM(A1)', '2024-07-02 00:00:03+00', ['=cmd', 'x']);
    const res = await t.call('GET', '/audit-log/export?timezone=UTC', { as: 'admin@acme.test' });
    const rows = parse(await res.text(), { columns: true }) as Record<string, string>[];
    const descriptions = rows.map((r) => r.Description);
    expect(descriptions).toContain(`'=HYPERLINK("https://evil.test","click")`);
    expect(descriptions).toContain("'+1+2");
    expect(descriptions).toContain("'-2+3");
    expect(descriptions).toContain("'@SUM(A1)");
    expect(rows.find((r) => r.Description === "'@SUM(A1)")!.Admin).toBe("'=cmd x");
  });

  it('exports thousands of entries, all of them, newest first', async () => {
    const accountId = t.account('acme').id;
    await t.db.tenant(accountId, (trx) =>
      sql`insert into audit_log (account_id, ts, namespace, description, event)
          select ${accountId}::uuid, timestamptz '2023-01-01 00:00:00+00' + make_interval(secs => i / 3), 'global', 'Row ' || i, 'bulk'
          from generate_series(1, 5200) as i`.execute(trx),
    );
    const res = await t.call('GET', '/audit-log/export?timezone=UTC', { as: 'admin@acme.test' });
    const rows = parse(await res.text(), { columns: true }) as Record<string, string>[];
    const total = await t.db.tenant(
      accountId,
      async (trx) => (await sql<{ n: number }>`select count(*)::int as n from audit_log`.execute(trx)).rows[0]!.n,
    );
    expect(rows).toHaveLength(total);
    const bulk = rows.filter((r) => r.Event === 'bulk').map((r) => Number(r.Description.slice(4)));
    // more than one batch of the export (5,000), with timestamps shared across the boundary
    expect(bulk).toHaveLength(5200);
    expect(bulk[0]).toBe(5200);
    expect(bulk.at(-1)).toBe(1);
  });

  it('every cell is escaped exactly as csv-stringify escapes it, across batches', async () => {
    const tricky = [
      'a, b',
      'say "hi"',
      'two\nlines',
      'cr\rhere',
      '\tTabbed',
      '\uFF1Dwide equals',
      '\uFF0D1',
      "'quoted'",
      'naïve – ünïcödé 🚀',
      '-',
      ' lead space',
      '',
    ];
    for (const [i, text] of tricky.entries())
      await addEntry(
        text,
        `2024-08-01 00:00:${String(i).padStart(2, '0')}+00`,
        i % 3 === 0 ? ['', 'Solo'] : i % 3 === 1 ? ['+Ann', 'O"Neil, Jr'] : null,
      );
    const res = await t.call('GET', '/audit-log/export?timezone=Europe%2FLondon', { as: 'admin@acme.test' });
    const accountId = t.account('acme').id;
    const rows = await t.db.tenant(
      accountId,
      async (trx) =>
        (
          await sql<{
            ts: Date;
            admin_first_name: string | null;
            admin_last_name: string | null;
            description: string;
            event: string;
            namespace: string;
          }>`
        select ts, admin_first_name, admin_last_name, description, event, namespace from audit_log order by ts desc, id desc`.execute(
            trx,
          )
        ).rows,
    );
    const format = zonedFormatter('Europe/London');
    const expected = stringify(
      rows.map((r) => [
        format(new Date(r.ts)),
        r.admin_first_name !== null || r.admin_last_name !== null
          ? [r.admin_first_name, r.admin_last_name].filter(Boolean).join(' ')
          : PROVIDER_ACTOR,
        r.description,
        r.event,
        r.namespace,
      ]),
      { header: true, columns: ['Date (Europe/London)', 'Admin', 'Description', 'Event', 'Namespace'], escape_formulas: true },
    );
    expect(await res.text()).toBe(expected);
  });

  it('an unknown time zone is refused with 400', async () => {
    const res = await t.call('GET', '/audit-log/export?timezone=Mars%2FOlympus', { as: 'admin@acme.test' });
    expect(res.status).toBe(400);
  });
});
