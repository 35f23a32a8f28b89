import { serve } from '@hono/node-server';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError, loadConfig } from './config';
import { DataDirBusy } from './db/lock';
import { createApp } from './app';
import { openRuntime } from './runtime';
import { DEMO_ACCOUNTS, hasAnyAccount, seedDemo } from './db/seed';
import { findActiveAdminByEmail, issueSessionToken, signInLink } from './auth/sessions';
import { startLogShipper } from './integrations/log-queue';

const distDir = path.dirname(fileURLToPath(import.meta.url));

async function main() {
  const config = loadConfig();
  const runtime = await openRuntime(config);
  const { deps, db } = runtime;
  if (config.autoSeed && !(await hasAnyAccount(db))) {
    await seedDemo(db);
    console.log('Seeded the demo accounts (Acme Support, Globex Care, Switchboard staff).');
  }
  const app = createApp(deps, { distDir });
  // Log shipping runs beside the API; the queue is in the database, so any number of
  // processes may run it (rows are leased with skip locked).
  const shipper = config.logShipping ? startLogShipper(deps) : null;
  const server = serve({ fetch: app.fetch, port: config.port, hostname: config.host }, (info) => {
    console.log(`Switchboard console on ${config.publicUrl} (listening on ${info.address}:${info.port}, ${db.kind === 'pglite' ? `embedded database in ${config.dataDir}` : 'PostgreSQL'})`);
  });
  if (config.env !== 'production') {
    console.log('\nSign-in links for the demo users (development only):');
    for (const demo of DEMO_ACCOUNTS) {
      for (const a of demo.admins) {
        const admin = await findActiveAdminByEmail(db, a.email);
        if (admin) console.log(`  ${a.email.padEnd(22)} ${signInLink(config.publicUrl, await issueSessionToken(deps, admin))}`);
      }
    }
    console.log('');
  }
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    server.close();
    await shipper?.stop();
    await runtime.close();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((err) => {
  if (err instanceof ConfigError || err instanceof DataDirBusy) {
    console.error(err.message);
  } else {
    console.error('The server could not start:', err);
  }
  process.exit(1);
});
