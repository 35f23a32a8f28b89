import cluster from 'node:cluster';
import type { Config } from './config';
import { openRuntime } from './runtime';
import { hasAnyAccount, seedDemo } from './seed';
import { startMetricsServer } from './observability/metrics-server';

// WORKERS > 1: several server processes share the port through node:cluster, so one API uses
// every core. Each worker is a whole server (api/server.ts). Everything they share lives in
// PostgreSQL: sessions, rate limits, the jobs (leased with skip locked, so each runs once) and
// the webhook and log queues; nothing a request needs is kept in one process's memory. The
// embedded database and the development identity provider belong to one process, so config
// refuses WORKERS > 1 with either.

/** The primary: migrates once, starts the workers, replaces one that dies, stops them all. */
export async function runPrimary(config: Config): Promise<void> {
  // Before any worker opens the database, so they find it migrated (and seeded on a first start).
  const runtime = await openRuntime(config);
  try {
    if (config.autoSeed && !(await hasAnyAccount(runtime.db))) {
      await seedDemo(runtime.db, config.encryptionKey);
      console.log('Seeded the demo accounts (Acme Support, Globex Care, Switchboard staff).');
    }
  } finally {
    await runtime.close();
  }

  let stopping = false;
  let alive = 0;
  const started = new Map<number, number>();
  const fork = () => {
    const worker = cluster.fork();
    alive++;
    started.set(worker.id, Date.now());
  };
  cluster.on('exit', (worker, code, signal) => {
    alive--;
    if (stopping) {
      if (alive === 0) process.exit(0);
      return;
    }
    const lived = Date.now() - (started.get(worker.id) ?? 0);
    started.delete(worker.id);
    console.error(`Worker ${worker.process.pid} ended (${signal ?? `exit code ${code}`}); starting another.`);
    // A worker that cannot start at all would otherwise be restarted in a tight loop.
    setTimeout(fork, lived < 5_000 ? 1_000 : 0);
  });
  for (let i = 0; i < config.workers; i++) fork();
  // One scrape shows the whole server: the primary asks every worker for its figures and sums them.
  if (config.metrics) {
    const { AggregatorRegistry } = (await import('prom-client')).default;
    const aggregator = new AggregatorRegistry();
    await startMetricsServer(config.metrics, async () => ({
      contentType: aggregator.contentType,
      body: await aggregator.clusterMetrics(),
    }));
  }

  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: stopping ${alive} workers (each finishes its requests in flight).`);
    if (alive === 0) process.exit(0);
    // Each worker stops as a lone server does; the grace period is theirs.
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM');
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

/** True in the process that prints the start banner and the demo links (one of the workers). */
export const speaksForAll = (): boolean => !cluster.isWorker || cluster.worker?.id === 1;
