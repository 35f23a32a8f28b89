import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, freePort, ROOT } from './harness';
import { SEEDED_DATABASE, startSeededCluster, type SeededCluster } from './seeded-cluster';

// A rolling restart behind a real load balancer: Debian's HAProxy on loopback in front of two
// server processes, health-checking GET /api/ready. Under a steady load of reads (bootstrap),
// writes (One-Time Passcode sends, each to its own number) and open live streams, each process
// in turn gets SIGTERM (it answers 503 on /api/ready for READY_DRAIN_SECONDS while still serving,
// HAProxy takes it out, then it closes) and a new one takes its port. Not one request may fail,
// every write must be there exactly once, and every stream must come back (through the other
// process, with its Last-Event-ID) holding every change. The configuration is the one
// docs/operations.md gives.

const HAPROXY = fs.existsSync('/usr/sbin/haproxy') ? '/usr/sbin/haproxy' : 'haproxy';
const CHECK_INTERVAL_MS = 500;
const FALL = 2;
const RISE = 2;
// longer than the balancer's check interval × its fall count (1 s), with room for a loaded machine
const DRAIN_SECONDS = 3;

function haproxyConfig(o: { port: number; statsPort: number; servers: { name: string; port: number }[] }): string {
  return `global
  maxconn 2000

defaults
  mode http
  timeout connect 2s
  timeout client 60s
  timeout server 60s
  timeout http-request 10s
  # a request that never reached a server is tried again, on another server if need be;
  # one a server has started answering is never replayed
  retries 3
  option redispatch
  retry-on conn-failure empty-response

frontend switchboard
  bind 127.0.0.1:${o.port}
  default_backend servers

backend servers
  balance roundrobin
  option httpchk
  http-check send meth GET uri /api/ready ver HTTP/1.1 hdr Host 127.0.0.1
  http-check expect status 200
  default-server inter ${CHECK_INTERVAL_MS}ms fall ${FALL} rise ${RISE}
${o.servers.map((s) => `  server ${s.name} 127.0.0.1:${s.port} check`).join('\n')}

listen stats
  bind 127.0.0.1:${o.statsPort}
  stats enable
  stats uri /stats
`;
}

async function until<T>(what: string, fn: () => T | Promise<T>, ms = 30_000): Promise<NonNullable<T>> {
  for (const end = Date.now() + ms; ; ) {
    const value = await fn();
    if (value) return value as NonNullable<T>;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

type Proc = { child: ChildProcess; output: () => string; exited: Promise<number | null> };

function startServer(env: Record<string, string>): Proc {
  let output = '';
  const child = spawn(process.execPath, [path.join(ROOT, 'dist/server.mjs')], {
    env,
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

const readyAt = (port: number) =>
  fetch(`http://127.0.0.1:${port}/api/ready`).then(
    (r) => r.status === 200,
    () => false,
  );

/** A live stream that reconnects (with its Last-Event-ID) whenever it ends, as the console's does. */
function liveStream(url: string, token: string) {
  const refs = new Set<string>();
  let lastEventId: string | null = null;
  let stopped = false;
  let connects = 0;
  let readies = 0;
  const problems: string[] = [];
  const log: string[] = [];
  let abort: AbortController | null = null;
  const run = async () => {
    while (!stopped) {
      abort = new AbortController();
      try {
        const res = await fetch(`${url}/api/live`, {
          headers: { authorization: `Bearer ${token}`, ...(lastEventId ? { 'last-event-id': lastEventId } : {}) },
          signal: abort.signal,
        });
        if (res.status !== 200) {
          problems.push(`stream answered ${res.status}`);
          await new Promise((r) => setTimeout(r, 200));
          continue;
        }
        connects++;
        log.push(`${Date.now()} connect ${connects} last=${lastEventId} via ${res.headers.get('x-request-id')}`);
        const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
        let buffer = '';
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += value;
          let cut;
          while ((cut = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, cut);
            buffer = buffer.slice(cut + 2);
            let event = 'message';
            let data = '';
            for (const line of block.split('\n')) {
              if (line.startsWith('id: ')) lastEventId = line.slice(4);
              else if (line.startsWith('event: ')) event = line.slice(7);
              else if (line.startsWith('data: ')) data += line.slice(6);
            }
            if (event === 'change') {
              const change = JSON.parse(data) as { kind: string; ref: string | null };
              if (change.kind === 'task' && change.ref) refs.add(change.ref);
              log.push(`${Date.now()} change ${change.kind} ${change.ref} id=${lastEventId}`);
            } else if (event === 'ready') readies++;
            else if (event === 'reset') problems.push('reset: the stream missed more than it could replay');
            else if (event === 'end' && JSON.parse(data).code !== 'RESTARTING') problems.push(`ended ${data}`);
          }
        }
      } catch (err) {
        if (!stopped) problems.push(`stream failed: ${(err as Error).message}`);
      }
    }
  };
  const done = run();
  return {
    refs,
    problems,
    log,
    connects: () => connects,
    /** how many times the stream has said it is live (replay done) */
    readies: () => readies,
    async stop() {
      stopped = true;
      abort?.abort();
      await done;
    },
  };
}

describe('rolling restart behind HAProxy', () => {
  let seeded: SeededCluster;
  let haproxy: ChildProcess | null = null;
  const servers: Proc[] = [];
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-haproxy-'));

  beforeAll(async () => {
    seeded = await startSeededCluster();
  });
  afterAll(async () => {
    haproxy?.kill('SIGKILL');
    for (const s of servers) if (s.child.exitCode === null) s.child.kill('SIGKILL');
    await seeded?.cluster.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('each process restarted in turn under load: 0 failed requests, every write once, every stream back with what it missed', async () => {
    const front = await freePort();
    const statsPort = await freePort();
    const ports = [await freePort(), await freePort()];
    const envs = await Promise.all(
      ports.map(() =>
        seeded.env({ DEV_IDP: 'false', LOG_SHIPPING: 'off', READY_DRAIN_SECONDS: String(DRAIN_SECONDS), LOG_LEVEL: 'warn' }),
      ),
    );
    // the same deployment: one public address, each process its own port
    envs.forEach((env, i) => Object.assign(env, { PORT: String(ports[i]), PUBLIC_URL: `http://127.0.0.1:${front}` }));
    for (const env of envs) servers.push(startServer(env));
    await until('both servers ready', async () => (await Promise.all(ports.map(readyAt))).every(Boolean), 60_000);

    const cfg = path.join(dir, 'haproxy.cfg');
    fs.writeFileSync(cfg, haproxyConfig({ port: front, statsPort, servers: ports.map((port, i) => ({ name: `s${i}`, port })) }));
    let haproxyOutput = '';
    haproxy = spawn(HAPROXY, ['-f', cfg, '-db'], { stdio: ['ignore', 'pipe', 'pipe'] });
    haproxy.stdout!.on('data', (d) => (haproxyOutput += d));
    haproxy.stderr!.on('data', (d) => (haproxyOutput += d));
    const url = `http://127.0.0.1:${front}`;
    /** the servers HAProxy counts as up, from its stats CSV */
    const upInBalancer = async (): Promise<string[]> => {
      const csv = await fetch(`http://127.0.0.1:${statsPort}/stats;csv`).then(
        (r) => r.text(),
        () => '',
      );
      return csv
        .split('\n')
        .map((l) => l.split(','))
        .filter((f) => f[0] === 'servers' && f[1]?.startsWith('s') && f[17] === 'UP')
        .map((f) => f[1]!);
    };
    await until('HAProxy to see both servers up', async () => (await upInBalancer()).length === 2 || null, 30_000).catch(
      (err) => {
        throw new Error(`${(err as Error).message}\n${haproxyOutput}`);
      },
    );

    const link = (await cli(envs[0]!, 'link', 'owner@acme.test')).stdout.trim().split('\n').pop()!;
    const token = new URL(link).searchParams.get('token')!;
    const auth = { authorization: `Bearer ${token}` };
    expect(
      (
        await fetch(`${url}/api/sms`, {
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/json' },
          body: JSON.stringify({ provider: 'dev-outbox' }),
        })
      ).status,
    ).toBe(200);

    // the load: reads, writes and streams, each loop one request at a time until told to stop
    const failures: string[] = [];
    let reads = 0;
    const sent = new Map<string, string>(); // phone -> task id
    let phoneSeq = 0;
    let loading = true;
    const writeLog: string[] = [];
    const streams = Array.from({ length: 3 }, () => liveStream(url, token));
    const reader = async () => {
      while (loading) {
        try {
          const res = await fetch(`${url}/api/admins/bootstrap`, { headers: auth });
          if (res.status !== 200) failures.push(`read ${res.status} ${await res.text()}`);
          else await res.arrayBuffer();
          reads++;
        } catch (err) {
          failures.push(`read failed: ${(err as Error).message}`);
        }
        await new Promise((r) => setTimeout(r, 20));
      }
    };
    const writer = async (lane: number) => {
      while (loading) {
        const phone = `+1415555${String(2000 + lane * 1000 + phoneSeq++).padStart(4, '0')}`;
        try {
          const res = await fetch(`${url}/api/one-time-passcode/actions/send`, {
            method: 'POST',
            headers: { ...auth, 'content-type': 'application/json' },
            body: JSON.stringify({ input: { phoneNumber: phone } }),
          });
          const body = await res.text();
          if (res.status !== 201) failures.push(`write ${res.status} ${body}`);
          else {
            sent.set(phone, (JSON.parse(body) as { taskId: string }).taskId);
            writeLog.push(`${Date.now()} wrote ${(JSON.parse(body) as { taskId: string }).taskId}`);
          }
        } catch (err) {
          failures.push(`write failed: ${(err as Error).message}`);
        }
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    // a stream opened without a resume point starts from now: the writes begin once all are live
    await until('the streams to be live', () => streams.every((s) => s.readies() > 0) || null, 20_000);
    const started = new Date();
    const load = Promise.all([reader(), reader(), reader(), writer(0), writer(1)]);

    // restart each process in turn; the next one goes only once the balancer has the new one back
    await new Promise((r) => setTimeout(r, 1000));
    for (let i = 0; i < servers.length; i++) {
      const old = servers[i]!;
      old.child.kill('SIGTERM');
      // draining: not ready, yet still serving whatever the balancer sends before it notices
      await until(
        'the draining server to say it is not ready',
        async () =>
          (await fetch(`http://127.0.0.1:${ports[i]}/api/ready`).then(
            (r) => r.status,
            () => 0,
          )) === 503,
        5_000,
      );
      expect(await fetch(`http://127.0.0.1:${ports[i]}/api/health`).then((r) => r.status)).toBe(200);
      expect(await old.exited).toBe(0);
      servers[i] = startServer(envs[i]!);
      await until(`server ${i} back in the balancer`, async () => (await upInBalancer()).length === 2 || null, 60_000);
    }
    await new Promise((r) => setTimeout(r, 1000));
    loading = false;
    await load;

    // every stream ends up with every task the writes made (the changes it missed come with its resume)
    const taskIds = [...sent.values()];
    await until(
      'every stream to hold every change',
      () => streams.every((s) => taskIds.every((id) => s.refs.has(id))) || null,
      20_000,
    ).catch(() => {});
    for (const s of streams) await s.stop();

    expect(failures).toEqual([]);
    expect(reads).toBeGreaterThan(20);
    expect(sent.size).toBeGreaterThan(10);
    // each stream was cut at least once (its process stopped) and came back
    for (const s of streams) {
      const missing = taskIds.filter((id) => !s.refs.has(id));
      if (missing.length)
        console.log([...s.log, ...writeLog.filter((l) => missing.some((m) => l.includes(m)))].sort().join('\n'));
      expect(s.problems).toEqual([]);
      expect(s.connects()).toBeGreaterThanOrEqual(2);
      expect(taskIds.filter((id) => !s.refs.has(id))).toEqual([]);
    }
    // every write is there exactly once: one verification and one outbox message per number
    const db = new pg.Client({ connectionString: seeded.cluster.url(SEEDED_DATABASE) });
    await db.connect();
    try {
      const phones = [...sent.keys()];
      const rows = (
        await db.query<{ phone_number: string; n: number }>(
          'select phone_number, count(*)::int as n from otp_verifications where phone_number = any($1) group by phone_number',
          [phones],
        )
      ).rows;
      expect(rows.filter((r) => r.n !== 1)).toEqual([]);
      expect(rows.length).toBe(phones.length);
      const outbox = (
        await db.query<{ n: number }>('select count(*)::int as n from dev_sms_outbox where to_number = any($1)', [phones])
      ).rows[0]!.n;
      expect(outbox).toBe(phones.length);
      // the writes that failed (none, above) would be the only numbers with a send not in `sent`
      const strays = (
        await db.query<{ n: number }>(
          'select count(*)::int as n from otp_verifications where not (phone_number = any($1)) and created_at >= $2',
          [phones, started],
        )
      ).rows[0]!.n;
      expect(strays).toBe(0);
    } finally {
      await db.end();
    }
    console.log(
      `rolling restart: ${reads} reads, ${sent.size} writes, ${streams.map((s) => s.connects()).join('/')} stream connections, 0 failed`,
    );
    await Promise.all(servers.map((s) => (s.child.kill('SIGTERM'), s.exited)));
    haproxy.kill('SIGTERM');
  });
});
