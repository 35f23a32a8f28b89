import path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import pg from 'pg';
import { Agent, fetch as freshFetch } from 'undici';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cli, ROOT, serverEnv } from './harness';
import { SEEDED_DATABASE, startSeededCluster } from './seeded-cluster';
import { json, startPeer, type Peer } from '../api/peers';
import type { PrivateCluster } from '../support/pg-cluster';

// Background jobs live in PostgreSQL, so they survive a killed process, are shared by several
// processes without running twice, and a stopping process hands its jobs on. The receiver on
// loopback counts every delivery by event id. Any durable queue the server runs is covered
// through the events it delivers; today that is the log-shipping outbox.

type Proc = { url: string; child: ChildProcess; output: () => string; exited: Promise<number | null> };

const LEASE_SECONDS = 3;

describe('background jobs across processes (private PostgreSQL)', () => {
  let cluster: PrivateCluster;
  let receiver: Peer;
  let db: pg.Client;
  let token: string;
  let accountId: string;
  let baseEnv: Record<string, string>;
  let mode: 'ok' | 'hang' | 'slow' = 'ok';
  const deliveries = new Map<number, number>();
  const procs: Proc[] = [];

  beforeAll(async () => {
    // a copy of the run's seeded cluster: the demo accounts are there at once
    const seeded = await startSeededCluster();
    cluster = seeded.cluster;
    receiver = await startPeer(
      async (req, res) => {
        if (mode === 'hang') return; // never answers: a delivery in flight
        if (mode === 'slow') await new Promise((r) => setTimeout(r, 1_500));
        if (req.path === '/rapid7') {
          for (const line of req.body.split('\n').filter(Boolean)) {
            const id = (JSON.parse(line) as { id: number | string }).id;
            if (typeof id === 'number') deliveries.set(id, (deliveries.get(id) ?? 0) + 1);
          }
        }
        json(res, 200, {});
      },
      { tls: true },
    );
    baseEnv = await seeded.env({
      OUTBOUND_ALLOW_HOSTS: receiver.host,
      OUTBOUND_CA_FILE: path.join(ROOT, 'test/fixtures/loopback-cert.pem'),
      JOB_LEASE_SECONDS: String(LEASE_SECONDS),
      SHUTDOWN_GRACE_SECONDS: '8',
    });
    token = new URL((await cli(baseEnv, 'link', 'admin@acme.test')).stdout.trim()).searchParams.get('token')!;
    db = new pg.Client({ connectionString: cluster.url(SEEDED_DATABASE) });
    await db.connect();
    accountId = (await db.query(`select account_id from admins where email = 'admin@acme.test'`)).rows[0].account_id;
  });
  afterAll(async () => {
    await db?.end();
    await receiver?.close();
    await cluster?.destroy();
  });
  beforeEach(async () => {
    mode = 'ok';
    deliveries.clear();
  });
  afterEach(async () => {
    for (const p of procs.splice(0)) if (p.child.exitCode === null) p.child.kill('SIGKILL'), await p.exited;
  });

  async function start(extra: Record<string, string> = {}): Promise<Proc> {
    // a port of its own, as another machine would have (baseEnv's would make the second process
    // fail to listen while the first one answers its health check)
    const { PORT: _port, PUBLIC_URL: _url, ...shared } = baseEnv;
    const env = await serverEnv({ ...shared, DATA_DIR: baseEnv.DATA_DIR!, AUTO_SEED: 'false', ...extra });
    let output = '';
    const child = spawn(process.execPath, [path.join(ROOT, 'dist/server.mjs')], {
      env,
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (d) => (output += d));
    child.stderr!.on('data', (d) => (output += d));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const proc = { url: env.PUBLIC_URL!, child, output: () => output, exited };
    procs.push(proc);
    for (const until = Date.now() + 60_000; ; ) {
      if (child.exitCode !== null) throw new Error(`server exited:\n${output}`);
      if (
        await fetch(`${proc.url}/api/health`).then(
          (r) => r.ok,
          () => false,
        )
      )
        return proc;
      if (Date.now() > until) throw new Error(`server did not start:\n${output}`);
      await new Promise((r) => setTimeout(r, 150));
    }
  }

  const call = (p: Proc, method: string, url: string, body?: unknown) =>
    fetch(`${p.url}/api${url}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  /** Connects the loopback receiver as the account's Rapid7 destination; returns the audit id before. */
  async function connect(p: Proc): Promise<number> {
    await call(p, 'DELETE', '/logging');
    const before = Number((await db.query(`select coalesce(max(id), 0) as id from audit_log`)).rows[0].id);
    const res = await call(p, 'POST', '/logging', { destination: 'rapid7', rapid7: { webhookUrl: `${receiver.url}/rapid7` } });
    expect(res.status).toBe(200);
    return before;
  }

  /** Makes n changes, each an audit entry and so a log event, spread over the given servers. */
  async function changes(servers: Proc[], n: number, tag: string) {
    for (let i = 0; i < n; i++) {
      const res = await call(servers[i % servers.length], 'POST', '/invitations', {
        email: `${tag}-${i}@jobs.test`,
        role: 'supervisor',
      });
      expect(res.status).toBe(201);
    }
  }

  const expectedIds = async (after: number) =>
    (await db.query(`select id from audit_log where account_id = $1 and id > $2 order by id`, [accountId, after])).rows.map((r) =>
      Number(r.id),
    );

  async function waitDelivered(ids: number[], withinMs: number) {
    for (const until = Date.now() + withinMs; ; ) {
      if (ids.every((id) => deliveries.has(id))) return;
      if (Date.now() > until)
        throw new Error(`${ids.filter((id) => !deliveries.has(id)).length} of ${ids.length} events never arrived`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  it('two server processes on one database: sessions work on either and each event is delivered once', async () => {
    const [a, b] = [await start(), await start()];
    expect((await call(b, 'GET', '/admins/bootstrap')).status).toBe(200);
    const after = await connect(a);
    mode = 'slow'; // deliveries overlap, so both workers lease at the same time
    await changes([a, b], 60, 'two');
    const ids = await expectedIds(after);
    expect(ids.length).toBe(61);
    await waitDelivered(ids, 60_000);
    expect(ids.filter((id) => deliveries.get(id) !== 1)).toEqual([]);
  });

  it('two processes polling for periodic jobs every 100 ms run each due job exactly once, round after round', async () => {
    const [a, b] = [
      await start({ JOB_POLL_MS: '100', LOG_SHIPPING: 'off' }),
      await start({ JOB_POLL_MS: '100', LOG_SHIPPING: 'off' }),
    ];
    type JobRow = { name: string; runs: number; last_run_by: string | null; next_run_at: Date };
    const jobs = async () =>
      new Map(
        ((await db.query(`select name, runs, last_run_by, next_run_at from jobs`)).rows as JobRow[]).map((j) => [j.name, j]),
      );
    const ranBy = new Set<string>();
    for (let round = 0; round < 12; round++) {
      const before = await jobs();
      // every job due at once: both processes find them on their next poll
      await db.query(
        `update jobs set next_run_at = now() - interval '1 second' where name in (select name from jobs order by name for update)`,
      );
      for (const until = Date.now() + 20_000; ; ) {
        const now = await jobs();
        if ([...before].every(([name, j]) => now.get(name)!.runs > j.runs)) break;
        if (Date.now() > until) throw new Error(`round ${round}: not every job ran within 20 s`);
        await new Promise((r) => setTimeout(r, 50));
      }
      // a few more polls of both processes: nothing due runs again
      await new Promise((r) => setTimeout(r, 400));
      const after = await jobs();
      expect(
        [...before].filter(([name, j]) => after.get(name)!.runs !== j.runs + 1).map(([name]) => name),
        `round ${round}`,
      ).toEqual([]);
      for (const j of after.values()) ranBy.add(j.last_run_by!.split('-')[0]!);
    }
    // both processes took part: the lease, not a lucky timer, kept each run single
    expect([...ranBy].sort()).toEqual([String(a.child.pid), String(b.child.pid)].sort());
  });

  it('a server killed with SIGKILL mid-delivery: after a restart every event arrives', async () => {
    const a = await start();
    const after = await connect(a);
    mode = 'hang';
    const seen = receiver.received.length;
    await changes([a], 30, 'kill');
    for (const until = Date.now() + 30_000; receiver.received.length === seen; ) {
      if (Date.now() > until) throw new Error('no delivery was ever in flight');
      await new Promise((r) => setTimeout(r, 50));
    }
    a.child.kill('SIGKILL');
    await a.exited;
    mode = 'ok';
    await start();
    const ids = await expectedIds(after);
    expect(ids.length).toBe(31);
    await waitDelivered(ids, 60_000);
  });

  it('SIGTERM: stops accepting, finishes the request in flight, hands its jobs on at once and exits 0', async () => {
    // The events are queued while no worker runs, so A's first round leases all of them.
    const quiet = await start({ LOG_SHIPPING: 'off' });
    const after = await connect(quiet);
    await changes([quiet], 20, 'term');
    quiet.child.kill('SIGTERM');
    expect(await quiet.exited).toBe(0);
    mode = 'hang';
    const seen = receiver.received.length;
    // A lease far longer than the wait below: only a handover makes the deadline.
    const a = await start({ JOB_LEASE_SECONDS: '120' });
    for (const until = Date.now() + 30_000; receiver.received.length === seen; ) {
      if (Date.now() > until) throw new Error('no delivery was ever in flight');
      await new Promise((r) => setTimeout(r, 50));
    }
    // B starts while A holds every row, so only a handover gives B anything to deliver.
    const b = await start({ JOB_LEASE_SECONDS: '120' });
    mode = 'slow';
    const sentFrom = receiver.received.length;
    // A request still being answered when the signal comes: a test send to the slow destination.
    // On a fresh connection: a reused keep-alive socket can meet the server's idle timeout.
    const inFlight = freshFetch(`${a.url}/api/logging/test`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ destination: 'rapid7', rapid7: { webhookUrl: `${receiver.url}/rapid7` } }),
      dispatcher: new Agent({ pipelining: 0 }),
    });
    // In flight for certain once the slow destination holds it: a fixed pause is not enough on a
    // loaded machine, where the request may not have reached A when the signal comes.
    const isTestSend = (r: { body: string }) => r.body.includes('logging.test');
    for (const until = Date.now() + 15_000; !receiver.received.slice(sentFrom).some(isTestSend); ) {
      if (Date.now() > until) throw new Error('the test send never reached the destination');
      await new Promise((r) => setTimeout(r, 20));
    }
    const stoppedAt = Date.now();
    a.child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 200));
    const refused = await fetch(`${a.url}/api/health`).then(
      () => false,
      () => true,
    );
    expect(refused).toBe(true);
    expect((await inFlight).status).toBe(200);
    expect(await a.exited).toBe(0);
    expect(Date.now() - stoppedAt).toBeLessThan(10_000);
    // The rows A held go to B now, not when A's lease would have run out.
    const ids = await expectedIds(after);
    await waitDelivered(ids, 8_000);
    expect(b.child.exitCode).toBe(null);
  });
});
