import http from 'node:http';
import { nodeListener } from './http/node-listener';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError, loadConfig } from './config';
import { DataDirBusy } from './db/lock';
import { createApp } from './app';
import { openRuntime } from './runtime';
import { DEMO_ACCOUNTS, demoAdmins, hasAnyAccount, seedDemo } from './seed';
import { findActiveAdminByEmail, issueSessionToken, signInLink } from './auth/sessions';
import { devIdpOptions, devSsoClient, lazyDevIdp } from './identity/dev-idp-config';
import { startLogShipper } from './integrations/log-queue';
import { startAppJobs } from './apps/platform/jobs';
import { seedOtpHistory } from './apps/one-time-passcode/seed';
import { seedIdvHistory } from './apps/identity-verification/seed';
import { seedPasskeyHistory } from './apps/passkeys/seed';
import { seedEformHistory } from './apps/e-form/seed';
import { seedSignatureHistory } from './apps/document-signature/seed';
import { refreshStatistics, startEmbeddedMaintenance } from './db/maintenance';
import { startJobRunner } from './jobs/runner';
import { JOBS } from './jobs/index';
import { runPrimary, speaksForAll } from './workers';
import { LiveHub } from './live/hub';
import { startListener } from './live/listener';
import cluster from 'node:cluster';
import { startLogging, stopLogging } from './observability/logger';
import { enableMetrics } from './observability/metrics';
import { startMetricsServer } from './observability/metrics-server';
import { MIGRATIONS } from './db/migrations/index';
import { readiness } from './observability/readiness';
import { startTracing, stopTracing } from './observability/tracing';

const distDir = path.dirname(fileURLToPath(import.meta.url));

async function main() {
  const config = loadConfig();
  await startLogging(config.logLevel);
  if (config.workers > 1 && cluster.isPrimary) return runPrimary(config);
  if (config.tracing) await startTracing(config.tracing);
  // With WORKERS > 1 the primary serves the metrics, summed over the workers (api/workers.ts).
  const metrics = config.metrics ? await enableMetrics() : null;
  const metricsServer =
    metrics && !cluster.isWorker
      ? await startMetricsServer(config.metrics!, async () => ({
          contentType: metrics.registry.contentType,
          body: await metrics.registry.metrics(),
        }))
      : null;
  const runtime = await openRuntime(config);
  const { deps, db } = runtime;
  if (metrics && db.poolStats) metrics.addPool(db.poolStats);
  let seedHistory = false;
  if (config.autoSeed && !(await hasAnyAccount(db))) {
    await seedDemo(db, config.encryptionKey);
    seedHistory = true;
    console.log('Seeded the demo accounts (Acme Support, Globex Care, Switchboard staff).');
  }
  if (db.kind === 'pglite') await refreshStatistics(db, { onlyStale: true });
  const stopMaintenance = startEmbeddedMaintenance(db, deps.log);
  // Live updates: this process's streams, fed by its one listening connection (api/live).
  const live = new LiveHub(db, { log: deps.log, ...config.liveStreams });
  deps.live = live;
  const liveListener = await startListener(db, live, { url: config.directDatabaseUrl, log: deps.log });
  metrics?.addStreams(() => live.streamCount());
  const ready = readiness(
    db,
    () => liveListener.connected(),
    MIGRATIONS.map((m) => m.id),
  );
  deps.readiness = ready;
  const app = createApp(deps, { distDir });
  const listener = nodeListener(app.fetch);
  // The development identity provider shares our port under /dev-idp; config refuses it in production.
  const devIdp = config.devIdp && config.env !== 'production' ? lazyDevIdp(devIdpOptions(config, demoAdmins())) : null;
  const server = http.createServer((req, res) => (devIdp?.matches(req.url) ? devIdp.handle(req, res) : listener(req, res)));
  // The development Stripe stand-in (config refuses it in production): loaded only when used.
  const devStripe = config.devStripe ? await (await import('./dev-stripe/standin')).startDevStripe(config) : null;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve());
  });
  // Log shipping runs beside the API; the queue is in the database, so any number of
  // processes may run it (rows are leased with skip locked).
  const shipper = config.logShipping ? startLogShipper(deps, { leaseMs: config.jobLeaseSeconds * 1000 }) : null;
  // Periodic jobs (trials ending, overage reports): leased in the database, once across processes.
  const jobs = startJobRunner(deps, JOBS, config.jobPollMs);
  // webhook delivery and verification expiry: durable jobs in the database, like log shipping
  const appJobs = startAppJobs(deps);
  // The apps' demo history runs through the real service functions; it is made after the
  // server listens so a first start is not held up by it.
  if (seedHistory) {
    seedOtpHistory(deps)
      .then(async (n) =>
        console.log(
          `Demo history ready: ${n} one-time passcodes and ${await seedEformHistory(deps)} form requests (development outbox).`,
        ),
      )
      .catch((err) => deps.log('demo history failed', err));
    seedIdvHistory(deps).catch((err) => deps.log('identity verification demo history failed', err));
    seedPasskeyHistory(deps).then(
      (n) => console.log(`Demo history ready: ${n} passkey enrollments and verifications.`),
      (err) => deps.log('passkey demo history failed', err),
    );
    seedSignatureHistory(deps).then(
      (n) => console.log(`Demo history ready: ${n} signature requests.`),
      (err) => deps.log('signature demo history failed', err),
    );
  }
  // With WORKERS > 1 one worker prints the banner and the demo links, not each of them.
  if (speaksForAll()) {
    const address = server.address();
    const where = typeof address === 'object' && address ? `${address.address}:${address.port}` : String(address);
    console.log(
      `Switchboard console on ${config.publicUrl} (listening on ${where}, ${db.kind === 'pglite' ? `embedded database in ${config.dataDir}` : 'PostgreSQL'})`,
    );
    if (devIdp) {
      const sso = devSsoClient(config);
      console.log(
        `Development identity provider mounted at ${devIdp.issuer} (stands in for Google, Microsoft and SSO; never mounted in production).`,
      );
      console.log(
        `  To try SSO, connect "OpenID Connect" on Settings > Single Sign-On with Discovery URL ${sso.discoveryUrl}, Client ID ${sso.clientId}, Client Secret ${sso.clientSecret}. Then publish the TXT record the screen shows on a DNS server named in DNS_SERVERS and select Verify.`,
      );
    } else {
      const names = [
        config.signIn.google && `Google-type (${config.signIn.google.issuer})`,
        config.signIn.azure && `Microsoft-type (${config.signIn.azure.issuer})`,
      ].filter(Boolean);
      console.log(
        `Sign-in providers: ${names.length ? names.join(', ') : 'none configured (SSO only)'}. The development identity provider is not mounted.`,
      );
    }
    if (devStripe) {
      console.log(
        `Development Stripe stand-in on ${devStripe.url} (stands in for Stripe billing and Connect: test cards, no money moves; never in production). Set STRIPE_* to use Stripe itself.`,
      );
    }
    if (config.env !== 'production') {
      // The server is already serving: a database fault while the links are made (a restart, say)
      // costs the links, not the process.
      try {
        console.log('\nSign-in links for the demo users (development only):');
        for (const demo of DEMO_ACCOUNTS) {
          for (const a of demo.admins) {
            const admin = await findActiveAdminByEmail(db, a.email);
            if (admin)
              console.log(`  ${a.email.padEnd(22)} ${signInLink(config.publicUrl, await issueSessionToken(deps, admin))}`);
          }
        }
        console.log('');
      } catch (err) {
        deps.log('demo sign-in links failed', err);
      }
    }
  }
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    // Readiness answers 503 from now on; requests are still served while the balancer notices
    // (READY_DRAIN_SECONDS, longer than its check interval × fall count), so none reaches a
    // closed listener. A Ctrl-C in development does not wait.
    ready.draining = true;
    if (signal === 'SIGTERM' && config.readyDrainSeconds > 0) {
      console.log(`${signal}: not ready; serving for ${config.readyDrainSeconds} s more while the balancer notices.`);
      await new Promise((resolve) => setTimeout(resolve, config.readyDrainSeconds * 1000));
    }
    console.log(`${signal}: finishing requests in flight, then stopping.`);
    // A stop that cannot finish (a request stuck on a dead peer) must still end the process.
    const force = setTimeout(() => {
      console.error(`Requests still in flight after ${config.shutdownGraceSeconds} s; closing them.`);
      server.closeAllConnections();
    }, config.shutdownGraceSeconds * 1000);
    force.unref();
    // Stop accepting; keep-alive connections close as soon as their request is answered.
    const drained = new Promise<void>((resolve) => server.close(() => resolve()));
    // open streams would hold the stop for its whole grace period: their tabs reconnect elsewhere
    live.stop();
    server.closeIdleConnections();
    const idleSweep = setInterval(() => server.closeIdleConnections(), 100);
    stopMaintenance();
    // The workers hand their leased rows back at once so another process delivers them now.
    await Promise.all([drained, shipper?.stop(), jobs.stop(), appJobs.stop(), liveListener.stop(), devStripe?.close()]);
    clearInterval(idleSweep);
    clearTimeout(force);
    await runtime.close();
    metricsServer?.close();
    await stopTracing();
    await stopLogging();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((err) => {
  if (err instanceof ConfigError || err instanceof DataDirBusy) {
    console.error(err.message);
  } else {
    console.error('The server could not start:', err);
  }
  process.exit(1);
});
