import { Hono } from 'hono';
import * as v from 'valibot';
import { validator } from 'hono/validator';
import type { AppEnv, Session } from '../auth/context';
import { requireRole } from '../auth/guards';
import { APP_IDS, visibleApps, type AppId } from '../contract/apps';
import {
  AppStartBodySchema,
  BillingEmailBodySchema,
  CheckoutBodySchema,
  CheckoutConfirmBodySchema,
  FreeTrialBodySchema,
} from '../contract/billing';
import * as billing from './service';
import { appUsage, startApp, startFreeTrial } from './trials';
import type { Deps } from '../deps';
import { ApiError } from '../http/errors';
import { validate } from '../http/validate';

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

export const billingRoutes = new Hono<AppEnv>()
  .post('/:app/billing/free-trial', requireRole('admin'), appParam(), validate('json', FreeTrialBodySchema), async (c) => {
    const { app } = c.req.valid('param');
    assertVisible(c.var.deps, c.var.session, app);
    return c.json(await startFreeTrial(c.var.deps, c.var.session, app), 201);
  })
  .post('/apps/start', validate('json', AppStartBodySchema), async (c) => {
    const { app } = c.req.valid('json');
    assertVisible(c.var.deps, c.var.session, app);
    return c.json(await startApp(c.var.deps, c.var.session, app));
  })
  .get('/:app/billing/usage', appParam(), async (c) =>
    c.json(await appUsage(c.var.deps, c.var.session, c.req.valid('param').app)),
  )
  .get('/billing', requireRole('admin'), async (c) => {
    const session = c.var.session;
    const apps = visibleApps(session.email, c.var.deps.config.providerEmailDomain).map((a) => a.id);
    return c.json(await billing.overview(c.var.deps, session, apps));
  })
  .get('/billing/invoices', requireRole('admin'), async (c) =>
    c.json({ invoices: await billing.invoices(c.var.deps, c.var.session) }),
  )
  .post('/billing/portal', requireRole('admin'), async (c) =>
    c.json({ url: await billing.portalUrl(c.var.deps, c.var.session) }, 201),
  )
  .put('/billing/email', requireRole('admin'), validate('json', BillingEmailBodySchema), async (c) => {
    const email = await billing.setBillingEmail(c.var.deps, c.var.session, c.req.valid('json').email);
    return c.json({ email });
  })
  .get('/:app/billing', requireRole('admin'), appParam(), async (c) => {
    const { app } = c.req.valid('param');
    assertVisible(c.var.deps, c.var.session, app);
    return c.json(await billing.detail(c.var.deps, c.var.session, app));
  })
  .get('/billing/prices', requireRole('admin'), async (c) => c.json({ prices: await billing.subscriptionPrices(c.var.deps) }))
  .post('/:app/billing/checkout', requireRole('admin'), appParam(), validate('json', CheckoutBodySchema), async (c) => {
    const { app } = c.req.valid('param');
    assertVisible(c.var.deps, c.var.session, app);
    return c.json({ url: await billing.startCheckout(c.var.deps, c.var.session, app, c.req.valid('json').returnTo) }, 201);
  })
  .post(
    '/:app/billing/checkout/confirm',
    requireRole('admin'),
    appParam(),
    validate('json', CheckoutConfirmBodySchema),
    async (c) => {
      const { app } = c.req.valid('param');
      assertVisible(c.var.deps, c.var.session, app);
      return c.json(await billing.confirmCheckout(c.var.deps, c.var.session, app, c.req.valid('json').sessionId));
    },
  )
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
