import { privacyRoutes } from './privacy/routes';
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { Deps } from './deps';
import { requireSession, timeZone, type AppEnv } from './auth/context';
import { ApiError, API_BODY_LIMIT, bodyTooLarge, errorResponse } from './http/errors';
import { refuseBadUrl } from './http/text-guard';
import { noStore } from './http/no-store';
import { compression } from './http/compression';
import { observeRequests } from './observability/http';
import { requestIdOf } from './observability/request-id';
import type { Trace } from './observability/tracing';
import { MIGRATIONS } from './db/migrations/index';
import { readiness } from './observability/readiness';
import { adminsRoutes } from './admins/routes';
import { billingRoutes, stripeWebhookRoutes } from './billing/routes';
import { fileRoutes } from './storage/routes';
import { storageRoutes } from './storage/settings-routes';
import { signInRoutes, signOutRoutes, webexRoutes, zoomRoutes } from './identity/routes';
import { ssoRoutes } from './identity/sso-routes';
import { accountTimeZoneRoutes, brandingRoutes } from './branding/routes';
import { customerLanguageRoutes } from './customer-pages/language-routes';
import { invitationsRoutes } from './invitations/routes';
import { auditLogRoutes } from './audit-log/routes';
import { developersRoutes } from './developers/routes';
import { smsRoutes } from './sms/routes';
import { customerLookupRoutes } from './customer-lookup/routes';
import { loggingRoutes } from './logging/routes';
import { uiRoutes } from './static';
import { termsRoutes } from './legal/terms';
import { resultsRoutes } from './results/routes';
import { notificationsRoutes } from './notifications/routes';
import { watchTowerRoutes } from './watch-tower/routes';
import { ghostModeRoutes } from './watch-tower/ghost-mode-routes';
import './apps/index';
import './journeys/v1';
import './privacy/v1';
import { journeyRoutes } from './journeys/routes';
import { v1Routes } from './apps/platform/v1-routes';
import { appModules } from './apps/platform/registry';
import { agentScope } from './agents/session';
import { appActionRoutes, appConsoleRoutes } from './apps/platform/console-routes';
import { platformRoutes } from './apps/platform/platform-routes';
import { eformRoutes } from './apps/e-form/routes';
import { paymentsConsoleRoutes, paymentsWebhookRoutes } from './apps/payments/routes';
import { customerPageRoutes } from './customer-pages/frame';
import { liveRoutes } from './live/routes';
import { idvConsoleRoutes } from './apps/identity-verification/routes';
import { idvCustomerRoutes } from './apps/identity-verification/customer-page';
import { signatureCustomerRoutes } from './apps/document-signature/customer-page';
import { SIG_OWN_BODY_LIMIT, sigConsoleRoutes } from './apps/document-signature/routes';

export type AppOptions = {
  /** where the built UI lives (dist/); absent in API tests */
  distDir?: string;
};

/** The /api app: public routes first, then everything that needs a session. */
export function createApi(deps: Deps) {
  const api = new Hono<AppEnv>();
  api.use('*', noStore());
  api.use('*', async (c, next) => {
    // a traced request's work finds its trace on the database it is given (api/observability/tracing.ts)
    const trace = c.get('trace' as never) as Trace | undefined;
    c.set('deps', trace ? { ...deps, db: deps.db.traced(trace) } : deps);
    await next();
  });
  api.use('*', timeZone());
  api.use('*', refuseBadUrl());
  // Logos are the largest bodies we take (an SVG up to 512 KB, base64-encoded).
  const limit = bodyLimit({
    maxSize: API_BODY_LIMIT,
    onError: () => {
      throw bodyTooLarge();
    },
  });
  // Only where a body can be: asking a GET for its body makes the Node adapter build a full
  // Request object, a cost every read would pay for nothing.
  // Routes that take files (a PDF upload) set their own, larger limit; /api/v1 sets it after its
  // key and rate limit, so its 413 carries the RateLimit headers like every answer past the key.
  api.use('*', (c, next) =>
    c.req.method === 'GET' || c.req.method === 'HEAD' || SIG_OWN_BODY_LIMIT.test(c.req.path) || c.req.path.startsWith('/api/v1/')
      ? next()
      : limit(c, next),
  );

  // Public: no session needed.
  // Liveness: the process answers, nothing more (no database, so a database fault never gets a
  // healthy process restarted).
  api.get('/health', (c) => c.json({ ok: true }));
  // Readiness: whether a balancer should send requests here now (api/observability/readiness.ts).
  const ready =
    deps.readiness ??
    readiness(
      deps.db,
      () => true,
      MIGRATIONS.map((m) => m.id),
    );
  api.get('/ready', async (c) => {
    const reasons = await ready.check();
    if (!reasons.length) return c.json({ ready: true });
    return c.json({ code: 'NOT_READY', message: `Not ready: ${reasons.join(', ')}.`, requestId: requestIdOf(c), reasons }, 503);
  });
  api.route('/', signInRoutes);
  api.route('/', zoomRoutes);
  api.route('/', webexRoutes);
  api.route('/', stripeWebhookRoutes);
  api.route('/', paymentsWebhookRoutes);
  api.route('/', fileRoutes);
  // the apps platform API for customers' systems: the secret key, never a console session
  api.route('/v1', v1Routes());
  for (const m of appModules()) if (m.customerRoutes) api.route('/', m.customerRoutes);

  // Everything below needs a valid session.
  const authed = new Hono<AppEnv>();
  authed.use('*', requireSession());
  authed.use('*', agentScope());
  authed.route('/', signOutRoutes);
  authed.route('/', liveRoutes());
  authed.route('/', adminsRoutes);
  authed.route('/', billingRoutes);
  authed.route('/', ssoRoutes);
  authed.route('/', brandingRoutes);
  authed.route('/', customerLanguageRoutes);
  authed.route('/', accountTimeZoneRoutes);
  authed.route('/', invitationsRoutes);
  authed.route('/', auditLogRoutes);
  authed.route('/', developersRoutes);
  authed.route('/', resultsRoutes);
  authed.route('/', notificationsRoutes);
  authed.route('/', watchTowerRoutes);
  authed.route('/', ghostModeRoutes);
  authed.route('/', smsRoutes);
  authed.route('/', customerLookupRoutes);
  authed.route('/', loggingRoutes);
  authed.route('/', storageRoutes);
  authed.route('/', privacyRoutes);
  // before the apps' /:app routes: journeys are no app
  authed.route('/', journeyRoutes);
  authed.route('/', platformRoutes);
  for (const m of appModules()) if (m.consoleRoutes) authed.route('/', m.consoleRoutes);
  authed.route('/', idvConsoleRoutes);
  authed.route('/', paymentsConsoleRoutes);
  authed.route('/', sigConsoleRoutes);
  authed.route('/', appActionRoutes);
  authed.route('/', eformRoutes);
  authed.route('/', appConsoleRoutes);
  api.route('/', authed);

  api.notFound(() => {
    throw new ApiError(404, 'NOT_FOUND', 'There is nothing at this address.');
  });
  api.onError((err, c) => errorResponse(err, c, deps.log));
  return api;
}

export function createApp(deps: Deps, options: AppOptions = {}) {
  const app = new Hono();
  // first of all: the request id, the log line and the metrics cover every answer
  app.use('*', observeRequests());
  // next, so it sees every answer as it leaves (built files come precompressed and pass through)
  app.use('*', compression());
  app.route('/api', createApi(deps));
  app.use('/c/*', refuseBadUrl());
  // customer pages: server-rendered, no console code, no session
  app.route('/', idvCustomerRoutes(deps));
  app.route('/', signatureCustomerRoutes(deps));
  app.route('/', customerPageRoutes(deps, options.distDir));
  app.route('/', termsRoutes(deps.config.raw.TERMS_URL?.trim() || undefined));
  if (options.distDir) app.route('/', uiRoutes(options.distDir));
  app.notFound((c) =>
    c.json({ code: 'NOT_FOUND', message: 'There is nothing at this address.', requestId: requestIdOf(c) }, 404),
  );
  app.onError((err, c) => errorResponse(err, c, deps.log));
  return app;
}
