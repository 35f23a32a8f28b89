import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './free-port';

// A private PostgreSQL cluster for tests that stop and start the server: the shared one on 5432
// is never restarted. PostgreSQL refuses to run as root, so under root it runs as `postgres`.

const BIN = process.env.PG_BIN ?? '/usr/lib/postgresql/15/bin';

export type PrivateCluster = {
  url: (database?: string) => string;
  port: number;
  /** the cluster's data directory (a stopped cluster's can be the `from` of another) */
  data: string;
  /**
   * stops the server: fast (open connections are terminated, as in a restart or failover) unless
   * immediate (every process quits at once, as in a crash; recovery runs at the next start)
   */
  stop: (mode?: 'fast' | 'immediate') => Promise<void>;
  start: () => Promise<void>;
  /** stops the server and deletes its directory */
  destroy: () => Promise<void>;
};

export function privateClusterAvailable(): boolean {
  return fs.existsSync(path.join(BIN, 'initdb'));
}

const asRoot = process.getuid?.() === 0;
function command(bin: string, args: string[]): [string, string[]] {
  return asRoot ? ['runuser', ['-u', 'postgres', '--', path.join(BIN, bin), ...args]] : [path.join(BIN, bin), args];
}

async function ready(port: number, deadlineMs: number): Promise<void> {
  for (const until = Date.now() + deadlineMs; ; ) {
    const ok = await new Promise<boolean>((resolve) => {
      const s = net.connect({ host: '127.0.0.1', port });
      s.once('connect', () => (s.destroy(), resolve(true)));
      s.once('error', () => resolve(false));
    });
    if (ok) {
      try {
        const [cmd, args] = command('pg_isready', ['-h', '127.0.0.1', '-p', String(port), '-q']);
        execFileSync(cmd, args);
        return;
      } catch {
        // accepting sockets but still starting up
      }
    }
    if (Date.now() > until) throw new Error(`private PostgreSQL on ${port} did not come up`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Starts a private cluster on a free port: a new one (initdb), or a copy of a stopped cluster's
 * data directory (`from`: what it holds is there at once, as a restored backup would be).
 */
export async function startPrivateCluster(settings: { maxConnections?: number; from?: string } = {}): Promise<PrivateCluster> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-pgcluster-'));
  const data = path.join(dir, 'data');
  if (settings.from) fs.cpSync(settings.from, data, { recursive: true, preserveTimestamps: true });
  if (asRoot) execFileSync('chown', ['-R', 'postgres', dir]);
  if (settings.from) fs.chmodSync(data, 0o700);
  else {
    const [initCmd, initArgs] = command('initdb', [
      '-D',
      data,
      '-U',
      'postgres',
      '--auth=trust',
      '-E',
      'UTF8',
      '--no-sync',
      '--locale=C.UTF-8',
    ]);
    execFileSync(initCmd, initArgs, { stdio: 'ignore' });
  }
  const port = await freePort();
  // asynchronous: a test keeps its load running while PostgreSQL stops and starts
  const pgCtl = async (...args: string[]) => {
    const [cmd, argv] = command('pg_ctl', ['-D', data, ...args]);
    const code = await new Promise<number | null>((resolve, reject) => {
      const child = spawn(cmd, argv, { stdio: 'ignore' });
      child.once('error', reject);
      child.once('exit', resolve);
    });
    if (code !== 0) throw new Error(`pg_ctl ${args.join(' ')} exited with ${code}`);
  };
  const options = `-p ${port} -c listen_addresses=127.0.0.1 -c unix_socket_directories=${dir} -c fsync=off -c max_connections=${settings.maxConnections ?? 100}`;
  let running = false;
  const start = async () => {
    await pgCtl('start', '-w', '-t', '30', '-l', path.join(dir, 'server.log'), '-o', options);
    running = true;
    await ready(port, 30_000);
  };
  const stop = async (mode: 'fast' | 'immediate' = 'fast') => {
    if (!running) return;
    running = false;
    await pgCtl('stop', '-w', '-t', '30', '-m', mode);
  };
  await start();
  return {
    port,
    data,
    url: (database = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${database}`,
    start,
    stop,
    destroy: async () => {
      await stop('immediate');
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
