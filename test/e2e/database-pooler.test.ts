import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, ROOT, serverEnv, startProcess, type RunningServer } from './harness';
import { json, startPeer, type Peer } from '../api/peers';
import { startPgBouncer, type PgBouncer } from '../support/pgbouncer';
import { SEEDED_DATABASE, startSeededCluster, type SeededCluster } from './seeded-cluster';

// The server behind PgBouncer in transaction pooling mode (Debian's 1.18, which keeps no prepared
// statement from one transaction to the next), as most production PostgreSQL is reached:
// DATABASE_POOLER=transaction makes every statement unnamed, and migrations take the direct
// connection (DIRECT_DATABASE_URL). Then a second server process on another port, as a second
// machine would be, shares the database through the same pooler: sessions, sign-in rate limits
// and background jobs are the database's, so either process honours them, and each event is
// delivered once.

/** Signs in through the development identity provider (the Microsoft-type flow), as a browser would. */
async function signIn(base: string, email: string): Promise<string> {
  const cookies = new Map<string, string>();
  const send = async (url: string, init: RequestInit = {}) => {
    const res = await fetch(url, {
      ...init,
      redirect: 'manual',
      headers: { ...(init.headers as Record<string, string>), cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
    });
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
  let seeded: SeededCluster;
  let bouncer: PgBouncer;
  let server: RunningServer;
  let second: RunningServer | undefined;
  let env: Record<string, string>;
  let receiver: Peer;
  const deliveries = new Map<number, number>();

  beforeAll(async () => {
    // the log-shipping destination: counts every delivery by event id
    receiver = await startPeer(
      async (req, res) => {
        await new Promise((r) => setTimeout(r, 200)); // deliveries overlap, so both processes lease at once
        for (const line of req.body.split('\n').filter(Boolean)) {
          const id = (JSON.parse(line) as { id: number | string }).id;
          if (typeof id === 'number') deliveries.set(id, (deliveries.get(id) ?? 0) + 1);
        }
        json(res, 200, {});
      },
      { tls: true },
    );
    // a copy of the run's seeded cluster: the demo accounts are there at once
    seeded = await startSeededCluster();
    bouncer = await startPgBouncer({ port: seeded.cluster.port });
    env = await seeded.env({
      DATABASE_URL: bouncer.url(SEEDED_DATABASE),
      DIRECT_DATABASE_URL: seeded.cluster.url(SEEDED_DATABASE),
      DATABASE_POOLER: 'transaction',
      AUTO_SEED: 'false',
      OUTBOUND_ALLOW_HOSTS: receiver.host,
      OUTBOUND_CA_FILE: path.join(ROOT, 'test/fixtures/loopback-cert.pem'),
      JOB_LEASE_SECONDS: '3',
    });
    server = await startProcess(env);
  }, 300_000);

  afterAll(async () => {
    await server?.stop();
    await second?.stop();
    await bouncer?.stop();
    await receiver?.close();
    await seeded?.cluster.destroy();
  });

  const get = (token: string, path: string) =>
    fetch(`${server.url}/api${path}`, { headers: { authorization: `Bearer ${token}` } });

  it('an empty database is migrated through the direct connection, with the pooler as the database address', async () => {
    const admin = new pg.Client({ connectionString: seeded.cluster.url() });
    await admin.connect();
    try {
      await admin.query('create database sb_empty');
      const migrated = await cli(
        { ...env, DATABASE_URL: bouncer.url('sb_empty'), DIRECT_DATABASE_URL: seeded.cluster.url('sb_empty') },
        'migrate',
      );
      expect(migrated.stderr).toBe('');
      expect(migrated.stdout).toContain('Migrations are up to date.');
      const again = await cli(
        { ...env, DATABASE_URL: bouncer.url('sb_empty'), DIRECT_DATABASE_URL: seeded.cluster.url('sb_empty') },
        'migrate',
      );
      expect(again.code).toBe(0);
    } finally {
      await admin.query('drop database if exists sb_empty with (force)').catch(() => {});
      await admin.end();
    }
  });

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
    const created = await fetch(`${server.url}/api/invitations`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ email: 'pooled@acme.test', role: 'supervisor' }),
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const listed = (await (await get(token, '/invitations')).json()) as { email: string; role: string }[];
    expect(listed.find((i) => i.email === 'pooled@acme.test')?.role).toBe('supervisor');
    const changed = await fetch(`${server.url}/api/invitations/${id}/role`, {
      method: 'PUT',
      headers,
      body: JSON.stringify({ role: 'admin' }),
    });
    expect(changed.status).toBe(200);
    const revoked = await fetch(`${server.url}/api/invitations`, {
      method: 'DELETE',
      headers,
      body: JSON.stringify({ email: 'pooled@acme.test' }),
    });
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

  it('two server processes through the pooler share sessions, rate limits and jobs, and deliver each event once', async () => {
    // same database, secrets and settings; its own port
    const { PORT: _port, PUBLIC_URL: _url, ...shared } = env;
    second = await startProcess(await serverEnv(shared));
    const [a, b] = [server, second];
    const send = (p: RunningServer, token: string, method: string, url: string, body?: unknown) =>
      fetch(`${p.url}/api${url}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });

    // A session made on one process works on the other, and ending it on one ends it on both.
    const session = await signIn(a.url, 'supervisor@acme.test');
    expect((await send(b, session, 'GET', '/admins/bootstrap')).status).toBe(200);
    expect((await send(b, session, 'POST', '/sign-out')).status).toBeLessThan(300);
    expect((await send(a, session, 'GET', '/admins/bootstrap')).status).toBe(401);

    // Failed sign-ins count in the database: the processes share one limit per address.
    const probes: number[] = [];
    for (let i = 0; i < 24; i++)
      probes.push((await send(i % 2 ? b : a, '', 'POST', '/sso/oauth/authorize', { email: `probe${i}@no-sso.test` })).status);
    expect(probes.slice(0, 20).every((s) => s === 404)).toBe(true);
    expect(probes.slice(20)).toEqual([429, 429, 429, 429]);

    // Periodic jobs are leased in the database: a job not yet due is not run by the second
    // process when it starts, though each process runs every due job on its first tick.
    const direct = new pg.Client({ connectionString: env.DIRECT_DATABASE_URL });
    await direct.connect();
    try {
      const jobs = async () =>
        (await direct.query(`select name, runs, next_run_at > now() + interval '5 seconds' as later from jobs order by name`))
          .rows as { name: string; runs: number; later: boolean }[];
      const before = await jobs();
      expect(before.filter((j) => j.later).length).toBeGreaterThan(0);
      await new Promise((r) => setTimeout(r, 2_500)); // past the second process's first job tick
      const after = new Map((await jobs()).map((j) => [j.name, j.runs]));
      expect(before.filter((j) => j.later && after.get(j.name) !== j.runs)).toEqual([]);

      // Log shipping: changes made on both processes, each event delivered once.
      const token = new URL((await cli(env, 'link', 'admin@acme.test')).stdout.trim()).searchParams.get('token')!;
      const accountId = (await direct.query(`select account_id from admins where email = 'admin@acme.test'`)).rows[0]
        .account_id as string;
      const lastAudit = Number((await direct.query(`select coalesce(max(id), 0) as id from audit_log`)).rows[0].id);
      expect(
        (await send(a, token, 'POST', '/logging', { destination: 'rapid7', rapid7: { webhookUrl: `${receiver.url}/rapid7` } }))
          .status,
      ).toBe(200);
      for (let i = 0; i < 30; i++)
        expect(
          (await send(i % 2 ? b : a, token, 'POST', '/invitations', { email: `two-${i}@pooled.test`, role: 'supervisor' }))
            .status,
        ).toBe(201);
      const ids = (
        await direct.query(`select id from audit_log where account_id = $1 and id > $2 order by id`, [accountId, lastAudit])
      ).rows.map((r) => Number(r.id));
      expect(ids.length).toBe(31);
      for (const until = Date.now() + 60_000; !ids.every((id) => deliveries.has(id)) && Date.now() < until; )
        await new Promise((r) => setTimeout(r, 100));
      expect(ids.filter((id) => deliveries.get(id) !== 1)).toEqual([]);
    } finally {
      await direct.end();
    }
    for (const p of [a, b]) expect(p.output()).not.toMatch(/prepared statement|uncaught|unhandled/i);
  });
});
