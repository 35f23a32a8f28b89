import { bench, describe } from 'vitest';
import { sql } from 'kysely';
import { openPglite } from '../../api/db/index';
import { migrate } from '../../api/db/migrate';
import { seedDemo } from '../../api/seed';
import { refreshStatistics } from '../../api/db/maintenance';
import { testConfig } from '../../api/config';
import { tokenSigner } from '../../api/auth/token';
import { createApp } from '../../api/app';
import { findActiveAdminByEmail, issueSessionToken } from '../../api/auth/sessions';

// Keyset paging at scale: with 100,000 audit entries, a page deep in the log should cost what
// the first page costs (an index range scan from the key, no offset to skip over).

const ENTRIES = 100_000;
const db = await openPglite();
await migrate(db);
const [acme] = await seedDemo(db, testConfig().encryptionKey);
await db.system((trx) =>
  sql`insert into audit_log (account_id, ts, namespace, description, event)
      select ${acme!.id}, now() - make_interval(secs => g), 'global', 'Bench entry ' || g, 'bench.entry'
      from generate_series(1, ${ENTRIES}) g`.execute(trx),
);
// what the server does at start and every ten minutes on the embedded database
await refreshStatistics(db);
const config = testConfig();
const deps = { config, db, tokens: tokenSigner(config.sessionSecret), now: () => new Date(), log: () => {} };
const app = createApp(deps);
const token = await issueSessionToken(deps, (await findActiveAdminByEmail(db, 'owner@acme.test'))!);
const headers = { authorization: `Bearer ${token}` };

// the key of the entry 90,000 rows in: read once, the way a client that paged there holds it
const deep = await db.tenant(
  acme!.id,
  async (trx) =>
    (
      await sql<{ key: string }>`select to_char(ts at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') || '_' || id as key
     from audit_log order by ts desc, id desc offset 90000 limit 1`.execute(trx)
    ).rows[0]!.key,
);

async function get(path: string) {
  const res = await app.request(path, { headers });
  if (res.status !== 200) throw new Error(`${res.status} ${await res.text()}`);
}

describe(`audit log paging, ${ENTRIES.toLocaleString('en')} entries (PGlite)`, () => {
  bench('first page', () => get('/api/audit-log'));
  bench('page 1,800 (90,000 entries in)', () => get(`/api/audit-log?lastKey=${encodeURIComponent(deep)}`));
});
