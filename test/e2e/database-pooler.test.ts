import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, serverEnv, startProcess, type RunningServer } from './harness';
import { startPgBouncer, type PgBouncer } from '../support/pgbouncer';

// The server behind PgBouncer in transaction pooling mode (Debian's 1.18, which keeps no prepared
// statement from one transaction to the next), as most production PostgreSQL is reached:
// DATABASE_POOLER=transaction makes every statement unnamed, and migrations take the direct
// connection (DIRECT_DATABASE_URL).

const PG_ADMIN_URL = process.env.PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** Signs in through the development identity provider (the Microsoft-type flow), as a browser would. */
async function signIn(base: string, email: string): Promise<string> {
  const cookies = new Map<string, string>();
  const send = async (url: string, init: RequestInit = {}) => {
    const res = await fetch(url, { ...init, redirect: 'manual', headers: { ...(init.headers as Record<string, string>), cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; ') } });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const at = pair!.indexOf('=');
      cookies.set(pair!.slice(0, at), pair!.slice(at + 1));
    }
    return res;
  };
  let res = await send(`${base}/api/auth/azure/start`);
  for (let hops = 0; hops < 20; hops++) {
    const location = res.headers.get('location');
    if (location) {
      const next = new URL(location, base);
      const token = next.searchParams.get('token');
      if (token) return token;
      if (next.searchParams.get('error')) throw new Error(`sign-in failed: ${next}`);
      res = await send(next.toString());
      continue;
    }
    const action = /action="([^"]*\/interaction\/[^"]*\/login)"/.exec(await res.text())?.[1];
    if (!action) throw new Error(`sign-in stopped at ${res.status} ${res.url}`);
    res = await send(new URL(action.replace(/&amp;/g, '&'), base).toString(), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ email }).toString(),
    });
  }
  throw new Error('sign-in did not finish');
}

describe('behind PgBouncer in transaction pooling mode', () => {
  const database = `sb_pooler_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  let admin: pg.Client;
  let bouncer: PgBouncer;
  let server: RunningServer;
  let env: Record<string, string>;

  beforeAll(async () => {
    admin = new pg.Client({ connectionString: PG_ADMIN_URL });
    await admin.connect();
    await admin.query(`create database ${database}`);
    const direct = new URL(PG_ADMIN_URL);
    direct.pathname = `/${database}`;
    bouncer = await startPgBouncer({ port: Number(direct.port || 5432) });
    env = await serverEnv({
      DATABASE_URL: bouncer.url(database),
      DIRECT_DATABASE_URL: direct.toString(),
      DATABASE_POOLER: 'transaction',
      AUTO_SEED: 'false',
    });
    const seeded = await cli(env, 'seed');
    if (seeded.code !== 0) throw new Error(`seed failed: ${seeded.stderr}`);
    server = await startProcess(env);
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
    await bouncer?.stop();
    await admin?.query(`drop database if exists ${database} with (force)`).catch(() => {});
    await admin?.end();
  });

  const get = (token: string, path: string) => fetch(`${server.url}/api${path}`, { headers: { authorization: `Bearer ${token}` } });

  it('starts, signs in through the identity provider and serves the console', async () => {
    const token = await signIn(server.url, 'owner@acme.test');
    const res = await get(token, '/admins/bootstrap');
    expect(res.status).toBe(200);
    expect(((await res.json()) as { branding: { name: string } }).branding.name).toBe('Acme Support');
    expect(server.output()).not.toMatch(/prepared statement/i);
  });

  it('an administrator is invited, sees the invitation, changes its role and revokes it', async () => {
    const token = await signIn(server.url, 'admin@acme.test');
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const created = await fetch(`${server.url}/api/invitations`, { method: 'POST', headers, body: JSON.stringify({ email: 'pooled@acme.test', role: 'supervisor' }) });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const listed = (await (await get(token, '/invitations')).json()) as { email: string; role: string }[];
    expect(listed.find((i) => i.email === 'pooled@acme.test')?.role).toBe('supervisor');
    const changed = await fetch(`${server.url}/api/invitations/${id}/role`, { method: 'PUT', headers, body: JSON.stringify({ role: 'admin' }) });
    expect(changed.status).toBe(200);
    const revoked = await fetch(`${server.url}/api/invitations`, { method: 'DELETE', headers, body: JSON.stringify({ email: 'pooled@acme.test' }) });
    expect(revoked.status).toBeLessThan(300);
    const after = (await (await get(token, '/invitations')).json()) as { email: string; status: string }[];
    expect(after.find((i) => i.email === 'pooled@acme.test')?.status ?? 'gone').not.toBe('pending');
  });

  it('2,000 reads of five users in three accounts, 50 in flight, are each answered as if alone', async () => {
    const emails = ['owner@acme.test', 'admin@acme.test', 'supervisor@acme.test', 'owner@globex.test', 'staff@provider.test'];
    const users = await Promise.all(
      emails.map(async (email) => {
        const token = new URL((await cli(env, 'link', email)).stdout.trim()).searchParams.get('token')!;
        return { email, token, alone: await (await get(token, '/admins/bootstrap')).text() };
      }),
    );
    expect(new Set(users.map((u) => u.alone)).size).toBe(5);
    const wrong: string[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: 50 }, async () => {
        while (next < 2_000) {
          const u = users[next++ % users.length]!;
          const res = await get(u.token, '/admins/bootstrap');
          const text = await res.text();
          if (res.status !== 200 || text !== u.alone) wrong.push(`${u.email}: ${res.status} ${text.slice(0, 120)}`);
        }
      }),
    );
    expect(wrong).toEqual([]);
    expect(server.output()).not.toMatch(/prepared statement/i);
  });
});
