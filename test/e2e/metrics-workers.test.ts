import path from 'node:path';
import { execFileSync, spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, freePort, ROOT } from './harness';
import { startSeededCluster, type SeededCluster } from './seeded-cluster';

// WORKERS=2 with METRICS_PORT: one scrape of the primary's metrics listener shows the whole server
// (prom-client's AggregatorRegistry sums the workers), never on the public port.

async function until<T>(what: string, fn: () => T | Promise<T>, ms = 30_000): Promise<NonNullable<T>> {
  for (const end = Date.now() + ms; ; ) {
    const value = await fn();
    if (value) return value as NonNullable<T>;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('metrics with WORKERS=2', () => {
  let seeded: SeededCluster;
  beforeAll(async () => {
    seeded = await startSeededCluster();
  });
  afterAll(async () => {
    await seeded?.cluster.destroy();
  });

  it('one scrape counts the requests both workers answered, and passes promtool check metrics', async () => {
    const metricsPort = await freePort();
    const env = await seeded.env({
      WORKERS: '2',
      DEV_IDP: 'false',
      LOG_SHIPPING: 'off',
      METRICS_PORT: String(metricsPort),
      LOG_LEVEL: 'warn',
    });
    let output = '';
    const primary = spawn(process.execPath, [path.join(ROOT, 'dist/server.mjs')], {
      env,
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    primary.stdout!.on('data', (d) => (output += d));
    primary.stderr!.on('data', (d) => (output += d));
    const exited = new Promise<number | null>((resolve) => primary.once('exit', (code) => resolve(code)));
    try {
      await until(
        'the server to answer',
        () =>
          fetch(`${env.PUBLIC_URL}/api/health`).then(
            (r) => r.ok,
            () => false,
          ),
        60_000,
      ).catch((err) => {
        throw new Error(`${(err as Error).message}\n${output}`);
      });
      const link = (await cli(env, 'link', 'owner@acme.test')).stdout.trim().split('\n').pop()!;
      const token = new URL(link).searchParams.get('token')!;
      const scrape = () => fetch(`http://127.0.0.1:${metricsPort}/metrics`).then((r) => r.text());
      const count = (text: string) =>
        Number(
          text.match(
            /^switchboard_http_request_duration_seconds_count\{route="\/api\/admins\/bootstrap",method="GET",status="200"\} (\d+)$/m,
          )?.[1] ?? 0,
        );
      // both workers must be up and counting before the load (each answers a first request)
      const before = count(await scrape());
      // on separate connections, so both workers take some of them
      const statuses = await Promise.all(
        Array.from({ length: 30 }, () =>
          fetch(`${env.PUBLIC_URL}/api/admins/bootstrap`, {
            headers: { authorization: `Bearer ${token}`, connection: 'close' },
          }).then((r) => r.status),
        ),
      );
      expect(new Set(statuses)).toEqual(new Set([200]));
      const text = await scrape();
      expect(count(text) - before).toBe(30);
      // both workers' pools are summed: each has at least one connection open
      expect(Number(text.match(/^switchboard_db_pool_connections\{state="total"\} (\d+)$/m)?.[1])).toBeGreaterThanOrEqual(2);
      expect(execFileSync('promtool', ['check', 'metrics'], { input: text, encoding: 'utf8' })).toBe('');
      // the public port does not serve them
      expect(await fetch(`${env.PUBLIC_URL}/metrics`).then((r) => r.text())).not.toContain(
        'switchboard_http_request_duration_seconds',
      );
      primary.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      if (primary.exitCode === null) primary.kill('SIGKILL');
    }
  });
});
