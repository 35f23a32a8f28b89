import type { Config } from './config';
import { openDatabase, openPostgres, type Database } from './db/index';
import { acquireDataDirLock } from './db/lock';
import { migrate } from './db/migrate';
import { tokenSigner } from './auth/token';
import { AGENT_TOKEN_HOURS } from './agents/session';
import type { Deps } from './deps';
import { logLine } from './http/error-text';

/** Opens the configured database (locking the embedded one) and brings its schema up to date. */
export async function openRuntime(config: Config): Promise<{ deps: Deps; db: Database; close: () => Promise<void> }> {
  const release = config.databaseUrl ? () => {} : acquireDataDirLock(config.dataDir);
  try {
    const db = await openDatabase({
      databaseUrl: config.databaseUrl,
      dataDir: config.databaseUrl ? undefined : `${config.dataDir}/pgdata`,
      settings: config.database,
    });
    if (config.directDatabaseUrl && config.directDatabaseUrl !== config.databaseUrl) {
      // Behind a pooler, migrations run on a direct connection of their own (their lock and DDL
      // want one server session from start to end).
      const direct = await openPostgres(config.directDatabaseUrl, 1, 1, { ...config.database, pooler: 'none' });
      try {
        await migrate(direct, undefined, { encryptionKey: config.encryptionKey });
      } finally {
        await direct.close();
      }
    } else await migrate(db, undefined, { encryptionKey: config.encryptionKey });
    const deps: Deps = {
      config,
      db,
      tokens: tokenSigner(config.sessionSecret, Date.now, Math.max(config.sessionHours, AGENT_TOKEN_HOURS) * 3600),
      now: () => new Date(),
      log: (msg, err) => console.error(logLine(msg, err)),
    };
    return {
      deps,
      db,
      close: async () => {
        await db.close();
        release();
      },
    };
  } catch (err) {
    release();
    throw err;
  }
}
