import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { DATABASE_KINDS, useTestContext } from './helpers';
import { readiness } from '../../api/observability/readiness';
import { MIGRATIONS } from '../../api/db/migrations/index';
import { createApp } from '../../api/app';

describe.each(DATABASE_KINDS)('liveness and readiness (%s)', (kind) => {
  const t = useTestContext(kind);

  it('GET /api/ready answers 200 once the database is reachable and migrated', async () => {
    const res = await t.call('GET', '/ready');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ready: true });
  });

  it('a draining process and a lost live listener answer 503 NOT_READY with the reasons; /api/health stays 200', async () => {
    let listening = false;
    const ready = readiness(
      t.db,
      () => listening,
      MIGRATIONS.map((m) => m.id),
    );
    const app = createApp({ ...t.deps, readiness: ready });
    ready.draining = true;
    const res = await app.request('/api/ready');
    expect(res.status).toBe(503);
    const body = (await res.json()) as { code: string; reasons: string[]; requestId: string };
    expect(body.code).toBe('NOT_READY');
    expect(body.reasons).toEqual(['draining', 'live-listener']);
    expect(body.requestId).toBe(res.headers.get('x-request-id'));
    expect((await app.request('/api/health')).status).toBe(200);
    ready.draining = false;
    listening = true;
    expect((await app.request('/api/ready')).status).toBe(200);
  });

  it('a database missing a migration this build knows answers 503 with "migrations"', async () => {
    const last = (
      await sql<{ id: string }>`select id from schema_migrations order by applied_at desc, id desc limit 1`.execute(t.db.kysely)
    ).rows[0]!.id;
    await sql`delete from schema_migrations where id = ${last}`.execute(t.db.kysely);
    try {
      const res = await t.call('GET', '/ready');
      expect(res.status).toBe(503);
      expect(((await res.json()) as { reasons: string[] }).reasons).toEqual(['migrations']);
    } finally {
      await sql`insert into schema_migrations (id) values (${last})`.execute(t.db.kysely);
    }
  });
});
