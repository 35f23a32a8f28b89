import path from 'node:path';
import fs from 'node:fs';
import crypto from 'node:crypto';
import { spawn } from 'node:child_process';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, ROOT, serverEnv } from './harness';

// WORKERS=2: two server processes share the port (api/workers.ts). Each request may land on
// either, so a session made by one works on the other; a worker that dies is replaced; SIGTERM
// stops them all and the primary exits 0.

const ADMIN_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** The live child processes of a pid, from /proc. */
function childrenOf(pid: number): number[] {
  const out: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[1]) === pid && fields[0] !== 'Z') out.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return out.sort();
}

async function until<T>(what: string, fn: () => T | Promise<T>, ms = 30_000): Promise<NonNullable<T>> {
  for (const end = Date.now() + ms; ; ) {
    const value = await fn();
    if (value) return value as NonNullable<T>;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('WORKERS=2 on PostgreSQL', () => {
  const name = `sb_workers_${crypto.randomBytes(4).toString('hex')}`;
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  let env: Record<string, string>;
  let output = '';

  const admin = async (statement: string) => {
    const client = new pg.Client(ADMIN_URL);
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };

  beforeAll(async () => {
    await admin(`create database ${name}`);
    env = await serverEnv({ DATABASE_URL: url.toString(), DEV_IDP: 'false', LOG_SHIPPING: 'off', WORKERS: '2' });
  });
  afterAll(async () => {
    await admin(`drop database if exists ${name} with (force)`).catch(() => {});
  });

  it('two workers answer on one port, one that dies is replaced, and SIGTERM stops them all', async () => {
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
      );
      const workers = await until('two workers', () => (childrenOf(primary.pid!).length === 2 ? childrenOf(primary.pid!) : null));

      const link = (await cli(env, 'link', 'owner@acme.test')).stdout.trim().split('\n').pop()!;
      const token = new URL(link).searchParams.get('token')!;
      const bootstrap = () =>
        fetch(`${env.PUBLIC_URL}/api/admins/bootstrap`, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.status);
      // on separate connections, so both workers take some of them
      expect(new Set(await Promise.all(Array.from({ length: 40 }, bootstrap)))).toEqual(new Set([200]));
      // one banner, not one per worker: both have listened by now (each answered), and a worker
      // prints its banner as it starts listening; the pipe may bring it a moment later
      await until('the banner', () => output.includes('Switchboard console on'));
      expect(output.match(/Switchboard console on/g)).toHaveLength(1);

      process.kill(workers[0]!, 'SIGKILL');
      const replaced = await until('a replacement worker', () => {
        const now = childrenOf(primary.pid!);
        return now.length === 2 && !now.includes(workers[0]!) ? now : null;
      });
      expect(replaced).toContain(workers[1]);
      // a kept-alive connection the killed worker held fails once when reused: not serving yet
      await until('the new worker to serve', async () =>
        (await Promise.all(Array.from({ length: 10 }, () => bootstrap().catch(() => 0)))).every((s) => s === 200),
      );
      expect(output).toMatch(/ended \(SIGKILL\); starting another/);

      primary.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(childrenOf(primary.pid!)).toEqual([]);
    } finally {
      if (primary.exitCode === null) primary.kill('SIGKILL');
    }
  });

  it('refuses WORKERS above 1 on the embedded database, saying why', async () => {
    const embedded = await serverEnv({ WORKERS: '2', DEV_IDP: 'false' });
    const child = spawn(process.execPath, [path.join(ROOT, 'dist/server.mjs')], {
      env: embedded,
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let err = '';
    child.stderr!.on('data', (d) => (err += d));
    const code = await new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
    expect(code).toBe(1);
    expect(err).toMatch(/WORKERS above 1 needs DATABASE_URL/);
  });
});
