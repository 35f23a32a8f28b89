import { Hono } from 'hono';
import * as v from 'valibot';
import { validator } from 'hono/validator';
import type { AppEnv, Session } from '../auth/context';
import { hasRole, requireRole } from '../auth/guards';
import { audit, actorOf } from '../audit';
import { APP_IDS, getApp, visibleApps, type AppId } from '../contract/apps';
import {
  AppStartBodySchema,
  BillingEmailBodySchema,
  CheckoutConfirmBodySchema,
  FreeTrialBodySchema,
  type AppBilling,
  type AppStartAnswer,
} from '../contract/billing';
import { TRIAL_DAYS, plansOf } from '../contract/plans';
import * as billing from '../billing/service';
import type { Trx } from '../db/index';
import type { Deps } from '../deps';
import { ApiError } from '../http/errors';
import { validate } from '../http/validate';
import { billingOf } from '../billing/data';


const AppParam = v.object({ app: v.picklist(APP_IDS) });
const appNotFound = () => new ApiError(404, 'APP_NOT_FOUND', 'There is no such app.');

/** An unknown app id is a missing resource (404), not a malformed request. */
function appParam() {
  return validator('param', (value) => {
    const result = v.safeParse(AppParam, value);
    if (!result.success) throw appNotFound();
    return result.output;
  });
}

/** Unreleased apps exist only for provider-domain users: for everyone else they are not there. */
function assertVisible(deps: Deps, session: Session, app: AppId) {
  if (!visibleApps(session.email, deps.config.providerEmailDomain).some((a) => a.id === app)) throw appNotFound();
}

function currentBilling(trx: Trx, accountId: string, app: AppId, lock = false) {
  let query = trx
    .selectFrom('app_billing')
    .select(['app', 'status', 'trial_ends_at', 'credits', 'free_tier'])
    .where('account_id', '=', accountId)
    .where('app', '=', app);
  if (lock) query = query.forUpdate();
  return query.executeTakeFirst();
}

/** Starts the free trial of an inactive app, audited in the caller's transaction. */
async function startTrial(trx: Trx, deps: Deps, session: Session, app: AppId): Promise<AppBilling> {
  const definition = getApp(app)!;
  if (!definition.billable) throw new ApiError(409, 'TRIAL_NOT_AVAILABLE', `${definition.title} has no free trial.`);
  const used = await trx.selectFrom('app_billing').select('trial_ends_at').where('account_id', '=', session.accountId).where('app', '=', app).executeTakeFirst();
  // One free trial per app: once it has ended, the way on is a subscription.
  if (used?.trial_ends_at) throw new ApiError(409, 'TRIAL_NOT_AVAILABLE', `The free trial of ${definition.title} has ended. Subscribe to keep using it.`);
  const now = deps.now();
  const trialEndsAt = new Date(now.getTime() + TRIAL_DAYS * 86_400_000);
  const freeTier = plansOf(app)!.trialCredits;
  // The trial is the app's first period: credits count from its start.
  const values = { status: 'free-trial' as const, trial_ends_at: trialEndsAt, credits: 0, free_tier: freeTier, period_start: now, period_end: trialEndsAt };
  const row = await trx
    .insertInto('app_billing')
    .values({ account_id: session.accountId, app, ...values })
    .onConflict((oc) => oc.columns(['account_id', 'app']).doUpdateSet({ ...values, updated_at: now }))
    .returning(['app', 'status', 'trial_ends_at', 'credits', 'free_tier'])
    .executeTakeFirstOrThrow();
  await audit(trx, session.accountId, actorOf(session), {
    namespace: app,
    description: `Started a ${TRIAL_DAYS}-day free trial of ${definition.title}`,
    event: 'billing.free-trial-started',
  });
  return billingOf(row);
}

export const billingRoutes = new Hono<AppEnv>()
  .post('/:app/billing/free-trial', requireRole('admin'), appParam(), validate('json', FreeTrialBodySchema), async (c) => {
    const { app } = c.req.valid('param');
    const deps = c.var.deps;
    const session = c.var.session;
    assertVisible(deps, session, app);
    const billing = await deps.db.tenant(session.accountId, async (trx) => {
      const existing = await currentBilling(trx, session.accountId, app, true);
      if (existing && existing.status !== 'inactive') {
        throw new ApiError(409, 'TRIAL_NOT_AVAILABLE', `${getApp(app)!.title} is already active on this account.`);
      }
      return startTrial(trx, deps, session, app);
    });
    return c.json(billing, 201);
  })
  .post('/apps/start', validate('json', AppStartBodySchema), async (c) => {
    const { app } = c.req.valid('json');
    const deps = c.var.deps;
    const session = c.var.session;
    assertVisible(deps, session, app);
    const answer = await deps.db.tenant(session.accountId, async (trx): Promise<AppStartAnswer> => {
      const existing = await currentBilling(trx, session.accountId, app, true);
      // an active app, or one whose trial has ended (the app then offers to subscribe), opens as it is
      if (existing && (existing.status !== 'inactive' || existing.trial_ends_at)) return { app, billing: billingOf(existing), started: false };
      if (!hasRole(session.role, 'admin')) throw new ApiError(403, 'FORBIDDEN', 'Ask an administrator of your account to start this app.');
      return { app, billing: await startTrial(trx, deps, session, app), started: true };
    });
    return c.json(answer);
  })
  .get('/:app/billing/usage', appParam(), async (c) => {
    const { app } = c.req.valid('param');
    const session = c.var.session;
    const row = await c.var.deps.db.tenant(session.accountId, (trx) => currentBilling(trx, session.accountId, app));
    const billing = billingOf(row);
    return c.json(billing.usage ?? { status: 'ok' as const, credits: 0, freeTier: 0 });
  })
  .get('/billing', requireRole('admin'), async (c) => {
    const session = c.var.session;
    const apps = visibleApps(session.email, c.var.deps.config.providerEmailDomain).map((a) => a.id);
    return c.json(await billing.overview(c.var.deps, session, apps));
  })
  .get('/billing/invoices', requireRole('admin'), async (c) => c.json({ invoices: await billing.invoices(c.var.deps, c.var.session) }))
  .post('/billing/portal', requireRole('admin'), async (c) => c.json({ url: await billing.portalUrl(c.var.deps, c.var.session) }, 201))
  .put('/billing/email', requireRole('admin'), validate('json', BillingEmailBodySchema), async (c) => {
    const email = await billing.setBillingEmail(c.var.deps, c.var.session, c.req.valid('json').email);
    return c.json({ email });
  })
  .get('/:app/billing', requireRole('admin'), appParam(), async (c) => {
    const { app } = c.req.valid('param');
    assertVisible(c.var.deps, c.var.session, app);
    return c.json(await billing.detail(c.var.deps, c.var.session, app));
  })
  .post('/:app/billing/checkout', requireRole('admin'), appParam(), async (c) => {
    const { app } = c.req.valid('param');
    assertVisible(c.var.deps, c.var.session, app);
    return c.json({ url: await billing.startCheckout(c.var.deps, c.var.session, app) }, 201);
  })
  .post('/:app/billing/checkout/confirm', requireRole('admin'), appParam(), validate('json', CheckoutConfirmBodySchema), async (c) => {
    const { app } = c.req.valid('param');
    assertVisible(c.var.deps, c.var.session, app);
    return c.json(await billing.confirmCheckout(c.var.deps, c.var.session, app, c.req.valid('json').sessionId));
  })
  .post('/:app/billing/cancel', requireRole('admin'), appParam(), async (c) => {
    const { app } = c.req.valid('param');
    assertVisible(c.var.deps, c.var.session, app);
    return c.json(await billing.setCancelAtPeriodEnd(c.var.deps, c.var.session, app, true));
  })
  .post('/:app/billing/resume', requireRole('admin'), appParam(), async (c) => {
    const { app } = c.req.valid('param');
    assertVisible(c.var.deps, c.var.session, app);
    return c.json(await billing.setCancelAtPeriodEnd(c.var.deps, c.var.session, app, false));
  });

/** Stripe's webhook: public (Stripe signs it), read as the raw body the signature covers. */
export const stripeWebhookRoutes = new Hono<AppEnv>().post('/stripe/webhook', async (c) => {
  const result = await billing.handleStripeEvent(c.var.deps, await c.req.text(), c.req.header('stripe-signature'));
  return c.json({ received: true, result });
});
