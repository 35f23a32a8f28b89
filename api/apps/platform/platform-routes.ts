import { Hono } from 'hono';
import type { AppEnv } from '../../auth/context';
import { requireRead } from '../../auth/guards';
import { ApiError } from '../../http/errors';
import { APPS, visibleApps } from '../../contract/apps';
import { DEV_OUTBOX_MORE_HEADER, DEV_OUTBOX_PAGE_SIZE, DevSmsOutboxQuerySchema, type AgentAppsAnswer, type DevSmsMessage } from '../../contract/platform';
import { validate } from '../../http/validate';
import { appModule } from './registry';
import { accountTimeZone } from '../../branding/time-zone';

/** Account-wide routes of the apps platform (not under one app). */
export const platformRoutes = new Hono<AppEnv>()
  /** The apps an agent may use now: active (trial, subscription, enterprise) and with actions. */
  .get('/agent/apps', async (c) => {
    const { accountId } = c.var.session;
    const [billing, timeZone] = await c.var.deps.db.tenant(accountId, async (trx) => [
      await trx.selectFrom('app_billing').select(['app', 'status']).where('account_id', '=', accountId).execute(),
      await accountTimeZone(trx, accountId),
    ] as const);
    const active = new Set(billing.filter((b) => b.status === 'free-trial' || b.status === 'subscription' || b.status === 'enterprise').map((b) => b.app));
    const apps: AgentAppsAnswer['apps'] = [];
    const visible = new Set(visibleApps(c.var.session.email, c.var.deps.config.providerEmailDomain).map((a) => a.id));
    for (const app of APPS) {
      const module = appModule(app.id);
      // an app without billing (identity verification) is usable wherever it is visible
      if (module && visible.has(app.id) && (active.has(app.id) || !app.billable) && module.actions.length) {
        const unavailable = await module.unavailable?.(c.var.deps, accountId);
        apps.push({ id: app.id, title: app.title, color: app.color, actions: [...module.actions], ...(unavailable ? { unavailable } : {}) });
      }
    }
    return c.json({ apps, timeZone } satisfies AgentAppsAnswer);
  })

  /**
   * The development outbox (never in production): the account's newest messages, newest first,
   * and whether older ones exist. A longer look asks for a larger `limit` rather than the next
   * page: new messages keep arriving at the top, and one read of the newest N leaves no gap.
   */
  .get('/dev/sms-outbox', requireRead('outbox'), validate('query', DevSmsOutboxQuerySchema), async (c) => {
    if (c.var.deps.config.env === 'production') throw new ApiError(404, 'NOT_FOUND', 'There is nothing at this address.');
    const { accountId } = c.var.session;
    const { limit = DEV_OUTBOX_PAGE_SIZE } = c.req.valid('query');
    const rows = await c.var.deps.db.tenant(accountId, (trx) =>
      trx
        .selectFrom('dev_sms_outbox')
        .select(['id', 'to_number', 'body', 'created_at'])
        .where('account_id', '=', accountId)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit + 1)
        .execute(),
    );
    c.header(DEV_OUTBOX_MORE_HEADER, String(rows.length > limit));
    c.header('access-control-expose-headers', DEV_OUTBOX_MORE_HEADER);
    return c.json(rows.slice(0, limit).map((r): DevSmsMessage => ({ id: r.id, to: r.to_number, body: r.body, createdAt: new Date(r.created_at).toISOString() })));
  });
