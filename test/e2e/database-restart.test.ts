import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, serverEnv, startProcess, type RunningServer } from './harness';
import { startPrivateCluster, type PrivateCluster } from '../support/pg-cluster';

// PostgreSQL restarts (an upgrade, a failover) while the console is busy. The shared server on
// 5432 is never touched: this test runs its own cluster on a free loopback port.

type Outcome = { email: string; status: number | 'hang' | 'network'; code?: string; retryAfter?: string | null };

describe('PostgreSQL restarted under load', () => {
  let cluster: PrivateCluster;
  let server: RunningServer;
  let token: string;
  beforeAll(async () => {
    cluster = await startPrivateCluster();
    const env = await serverEnv({ DATABASE_URL: cluster.url(), NODE_ENV: 'development' });
    const seeded = await cli(env, 'seed');
    if (seeded.code !== 0) throw new Error(`seed failed: ${seeded.stderr}`);
    const link = (await cli(env, 'link', 'admin@acme.test')).stdout.trim();
    token = new URL(link).searchParams.get('token')!;
    server = await startProcess(env);
  });
  afterAll(async () => {
    await server?.stop();
    await cluster?.destroy();
  });

  const invite = async (email: string): Promise<Outcome> => {
    try {
      const res = await fetch(`${server.url}/api/invitations`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ email, role: 'supervisor' }),
        // An answer later than this is a hang, which is what must not happen.
        signal: AbortSignal.timeout(15_000),
      });
      const body = (await res.json()) as { code?: string };
      return { email, status: res.status, code: body.code, retryAfter: res.headers.get('retry-after') };
    } catch (err) {
      return { email, status: (err as Error).name === 'TimeoutError' ? 'hang' : 'network' };
    }
  };

  it('requests in flight answer 503, the server recovers by itself and keeps every write it confirmed', async () => {
    const outcomes: Outcome[] = [];
    let n = 0;
    let loading = true;
    const workers = Array.from({ length: 8 }, async () => {
      while (loading) outcomes.push(await invite(`load-${n++}@restart.test`));
    });
    await new Promise((r) => setTimeout(r, 1_500));
    await cluster.stop();
    await new Promise((r) => setTimeout(r, 1_500));
    await cluster.start();
    const restartedAt = Date.now();
    // The first confirmed write after the restart shows recovery; no help from outside.
    let recoveredAt = 0;
    for (const until = Date.now() + 20_000; !recoveredAt && Date.now() < until; ) {
      const probe = await invite(`probe-${n++}@restart.test`);
      outcomes.push(probe);
      if (probe.status === 201) recoveredAt = Date.now();
      else await new Promise((r) => setTimeout(r, 100));
    }
    await new Promise((r) => setTimeout(r, 1_000));
    loading = false;
    await Promise.all(workers);

    expect(recoveredAt, 'the server never recovered').toBeGreaterThan(0);
    expect(recoveredAt - restartedAt).toBeLessThan(10_000);
    const statuses = new Set(outcomes.map((o) => o.status));
    expect([...statuses].sort()).toEqual([201, 503]);
    for (const o of outcomes.filter((x) => x.status === 503)) {
      expect(o.code).toBe('DATABASE_UNAVAILABLE');
      expect(Number(o.retryAfter)).toBeGreaterThan(0);
    }
    const health = await fetch(`${server.url}/api/health`);
    expect(health.status).toBe(200);
    expect(server.output()).not.toMatch(/uncaught|unhandled/i);

    const res = await fetch(`${server.url}/api/invitations`, { headers: { authorization: `Bearer ${token}` } });
    const stored = new Set(((await res.json()) as { email: string }[]).map((i) => i.email));
    const confirmed = outcomes.filter((o) => o.status === 201).map((o) => o.email);
    expect(confirmed.length).toBeGreaterThan(10);
    expect(confirmed.filter((e) => !stored.has(e))).toEqual([]);
  });
});
