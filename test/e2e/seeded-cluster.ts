import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { cli, injected, madeOncePerRun, serverEnv } from './harness';
import { startPrivateCluster, type PrivateCluster } from '../support/pg-cluster';

// The tests that run servers on PostgreSQL of their own (faults, a pooler, several processes) each
// used to seed their database: about 20 s of the serial group's time per file. The run seeds one
// private cluster once (test/e2e/global-setup.ts starts it while the parallel files run), stops
// it, and each such file starts a copy of its data directory: the demo data is there at once.

/** The database the seeded cluster holds the demo data in. */
export const SEEDED_DATABASE = 'sb';

export type SeededCluster = {
  cluster: PrivateCluster;
  /**
   * A server's environment on the copy: its own DATA_DIR holding the seed's (the development
   * signing certificate), and the seed's secrets, so every process of a test is one deployment.
   */
  env: (extra?: Record<string, string>) => Promise<Record<string, string>>;
};

/** The run's seeded cluster (a stopped cluster's data directory and the seed's DATA_DIR), made once. */
export async function seededClusterTemplate(dir: string | null = injected('e2eTemplateDir')): Promise<string | null> {
  const make = async (box: string) => {
    const cluster = await startPrivateCluster();
    try {
      const admin = new pg.Client({ connectionString: cluster.url() });
      await admin.connect();
      await admin.query(`create database ${SEEDED_DATABASE}`);
      await admin.end();
      const env = await serverEnv({ DATABASE_URL: cluster.url(SEEDED_DATABASE), AUTO_SEED: 'false' });
      const seeded = await cli(env, 'seed');
      if (seeded.code !== 0) throw new Error(`seed failed: ${seeded.stderr}`);
      await cluster.stop('fast');
      fs.mkdirSync(box);
      fs.renameSync(cluster.data, path.join(box, 'pgdata'));
      fs.renameSync(env.DATA_DIR!, path.join(box, 'datadir'));
    } finally {
      await cluster.destroy();
    }
  };
  if (dir) return madeOncePerRun(dir, 'cluster', make);
  // outside a run with the e2e setup (a file run by itself with another config): one for the caller
  const box = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'sb-seeded-cluster-')), 'cluster');
  await make(box);
  return box;
}

/** A private cluster started from a copy of the run's seeded one. */
export async function startSeededCluster(settings: { maxConnections?: number } = {}): Promise<SeededCluster> {
  const template = await seededClusterTemplate();
  if (!template) throw new Error("the run's seeded cluster could not be made (see its .failed file)");
  const cluster = await startPrivateCluster({ ...settings, from: path.join(template, 'pgdata') });
  const kept = path.join(template, 'datadir');
  const secret = (name: string) => fs.readFileSync(path.join(kept, name), 'utf8').trim();
  const secrets = { SESSION_SECRET: secret('session-secret'), ENCRYPTION_KEY: secret('encryption-key') };
  return {
    cluster,
    env: async (extra = {}) => {
      const env = await serverEnv({ DATABASE_URL: cluster.url(SEEDED_DATABASE), AUTO_SEED: 'false', ...secrets, ...extra });
      fs.cpSync(kept, env.DATA_DIR!, { recursive: true });
      return env;
    },
  };
}
