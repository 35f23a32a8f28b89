import { Hono } from 'hono';
import * as v from 'valibot';
import type { AppEnv } from '../auth/context';
import { requireRole } from '../auth/guards';
import { audit, actorOf } from '../audit';
import { APP_IDS, getApp } from '../contract/apps';
import { FreeTrialBodySchema } from '../contract/billing';
import { ApiError } from '../http/errors';
import { validate } from '../http/validate';
import { validator } from 'hono/validator';
import { billingOf } from './billing-data';

/** Length of a free trial and the credits it includes. */
export const TRIAL_DAYS = 30;
export const TRIAL_FREE_TIER = 100;

const AppParam = v.object({ app: v.picklist(APP_IDS) });

/** An unknown app id is a missing resource (404), not a malformed request. */
function appParam() {
  return validator('param', (value) => {
    const result = v.safeParse(AppParam, value);
    if (!result.success) throw new ApiError(404, 'APP_NOT_FOUND', 'There is no such app.');
    return result.output;
  });
}

export const billingRoutes = new Hono<AppEnv>()
  .post('/:app/billing/free-trial', requireRole('admin'), appParam(), validate('json', FreeTrialBodySchema), async (c) => {
    const { app } = c.req.valid('param');
    const { db, now } = c.var.deps;
    const session = c.var.session;
    const definition = getApp(app)!;
    if (!definition.billable) throw new ApiError(409, 'TRIAL_NOT_AVAILABLE', `${definition.title} has no free trial.`);
    const billing = await db.tenant(session.accountId, async (trx) => {
      const existing = await trx
        .selectFrom('app_billing')
        .select(['status'])
        .where('account_id', '=', session.accountId)
        .where('app', '=', app)
        .forUpdate()
        .executeTakeFirst();
      if (existing && existing.status !== 'inactive') {
        throw new ApiError(409, 'TRIAL_NOT_AVAILABLE', `${definition.title} is already active on this account.`);
      }
      const trialEndsAt = new Date(now().getTime() + TRIAL_DAYS * 86_400_000);
      const row = await trx
        .insertInto('app_billing')
        .values({ account_id: session.accountId, app, status: 'free-trial', trial_ends_at: trialEndsAt, credits: 0, free_tier: TRIAL_FREE_TIER })
        .onConflict((oc) =>
          oc.columns(['account_id', 'app']).doUpdateSet({ status: 'free-trial', trial_ends_at: trialEndsAt, credits: 0, free_tier: TRIAL_FREE_TIER, updated_at: now() }),
        )
        .returning(['app', 'status', 'trial_ends_at', 'credits', 'free_tier'])
        .executeTakeFirstOrThrow();
      await audit(trx, session.accountId, actorOf(session), {
        namespace: app,
        description: `Started a ${TRIAL_DAYS}-day free trial of ${definition.title}`,
        event: 'billing.free-trial-started',
      });
      return billingOf(row);
    });
    return c.json(billing, 201);
  })
  .get('/:app/billing/usage', appParam(), async (c) => {
    const { app } = c.req.valid('param');
    const session = c.var.session;
    const row = await c.var.deps.db.tenant(session.accountId, (trx) =>
      trx
        .selectFrom('app_billing')
        .select(['app', 'status', 'trial_ends_at', 'credits', 'free_tier'])
        .where('account_id', '=', session.accountId)
        .where('app', '=', app)
        .executeTakeFirst(),
    );
    const billing = billingOf(row);
    return c.json(billing.usage ?? { status: 'ok' as const, credits: 0, freeTier: 0 });
  });
