import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './free-port';

// Debian's PgBouncer (1.18) on loopback in transaction pooling mode, in front of a PostgreSQL
// server: the way most production PostgreSQL is reached. It keeps no prepared statement from one
// transaction to the next. It refuses to run as root, so under root it runs as `postgres`.

export type PgBouncer = {
  port: number;
  url: (database: string) => string;
  /** what PgBouncer wrote to its log */
  log: () => string;
  stop: () => Promise<void>;
};

export function pgbouncerAvailable(): boolean {
  try {
    execFileSync('pgbouncer', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

export async function startPgBouncer(
  target: { host?: string; port: number; user?: string },
  options: { poolSize?: number } = {},
): Promise<PgBouncer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-pgbouncer-'));
  const port = await freePort();
  const user = target.user ?? 'postgres';
  const ini = path.join(dir, 'pgbouncer.ini');
  const pidfile = path.join(dir, 'pgbouncer.pid');
  const logfile = path.join(dir, 'pgbouncer.log');
  fs.writeFileSync(
    ini,
    `[databases]
* = host=${target.host ?? '127.0.0.1'} port=${target.port} user=${user}

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = ${port}
unix_socket_dir =
auth_type = any
pool_mode = transaction
default_pool_size = ${options.poolSize ?? 20}
max_client_conn = 1000
server_reset_query =
pidfile = ${pidfile}
logfile = ${logfile}
`,
  );
  const asRoot = process.getuid?.() === 0;
  if (asRoot) execFileSync('chown', ['-R', 'postgres', dir]);
  if (asRoot) execFileSync('su', ['postgres', '-s', '/bin/sh', '-c', `pgbouncer -d ${ini}`]);
  else execFileSync('pgbouncer', ['-d', ini]);
  for (const until = Date.now() + 10_000; ; ) {
    const up = await new Promise<boolean>((resolve) => {
      const s = net.connect({ host: '127.0.0.1', port });
      s.once('connect', () => (s.destroy(), resolve(true)));
      s.once('error', () => resolve(false));
    });
    if (up) break;
    if (Date.now() > until)
      throw new Error(`pgbouncer did not start:\n${fs.existsSync(logfile) ? fs.readFileSync(logfile, 'utf8') : ''}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  const log = () => (fs.existsSync(logfile) ? fs.readFileSync(logfile, 'utf8') : '');
  return {
    port,
    url: (database) => `postgres://${user}@127.0.0.1:${port}/${database}`,
    log,
    stop: async () => {
      const pid = Number(fs.readFileSync(pidfile, 'utf8').trim());
      try {
        process.kill(pid, 'SIGINT');
      } catch {
        /* gone already */
      }
      for (const until = Date.now() + 5_000; Date.now() < until; ) {
        try {
          process.kill(pid, 0);
        } catch {
          break;
        }
        await new Promise((r) => setTimeout(r, 50));
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
