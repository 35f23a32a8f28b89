import { describe, expect, it } from 'vitest';
import pg from 'pg';
import { sql } from 'kysely';
import { DATABASE_KINDS, PG_ADMIN_URL, useTestContext, type TestContext } from './helpers';
import { resolveVerifiedEmail } from '../../api/identity/resolve';
import { ApiError } from '../../api/http/errors';

// Two sign-ins of one e-mail at the same moment (invited by two accounts, the OAuth callback
// twice): both find no admin and both make one; the unique e-mail refuses the second. It answers
// 409 SIGN_IN_CONFLICT, never a 500, and signing in again lets it in.

async function directUrl(t: TestContext): Promise<string> {
  const name = (await sql<{ db: string }>`select current_database() as db`.execute(t.db.kysely)).rows[0]!.db;
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

describe.each(DATABASE_KINDS)('the sign-in race (%s)', (kind) => {
  const t = useTestContext(kind);

  it.runIf(kind === 'postgres')(
    'the second of two simultaneous sign-ins answers 409 SIGN_IN_CONFLICT, and its retry signs in',
    async () => {
      const email = 'race.person@example.org';
      for (const owner of ['owner@acme.test', 'owner@globex.test'])
        expect((await t.call('POST', '/invitations', { as: owner, body: { email, role: 'admin' } })).status).toBe(201);
      // Both transactions read (no admin yet) and then wait at their insert until this lock goes:
      // the interleaving a real race has, made certain.
      const holder = new pg.Client({ connectionString: await directUrl(t) });
      await holder.connect();
      try {
        await holder.query('begin');
        await holder.query('lock table admins in share row exclusive mode');
        const identity = { email, firstName: 'Race', lastName: 'Person', platform: 'google' as const };
        const both = [resolveVerifiedEmail(t.deps, identity), resolveVerifiedEmail(t.deps, identity)].map((p) =>
          p.then(
            (r) => ({ ok: r }),
            (err: unknown) => ({ err }),
          ),
        );
        // until both wait on the lock
        for (let i = 0; i < 100; i++) {
          const waiting = await holder.query(
            `select count(*)::int as n from pg_locks where relation = 'admins'::regclass and not granted`,
          );
          if (waiting.rows[0].n >= 2) break;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        await holder.query('commit');
        const results = await Promise.all(both);
        const failed = results.filter((r): r is { err: unknown } => 'err' in r);
        expect(failed).toHaveLength(1);
        expect(failed[0]!.err).toBeInstanceOf(ApiError);
        expect(failed[0]!.err).toMatchObject({ status: 409, code: 'SIGN_IN_CONFLICT' });
        const retried = await resolveVerifiedEmail(t.deps, identity);
        expect(retried.outcome).toBe('existing');
      } finally {
        await holder.end();
      }
    },
  );
});
