import { Hono } from 'hono';
import type { AppEnv } from '../../auth/context';
import { requireRead } from '../../auth/guards';
import { ApiError } from '../../http/errors';
import { DEV_OUTBOX_MORE_HEADER, DEV_OUTBOX_PAGE_SIZE, DevSmsOutboxQuerySchema } from '../../contract/platform';
import { validate } from '../../http/validate';
import { devOutboxMessages } from '../../sms/service';
import { agentApps } from './service';

/** Account-wide routes of the apps platform (not under one app). */
export const platformRoutes = new Hono<AppEnv>()
  /** The apps an agent may use now: active (trial, subscription, enterprise) and with actions. */
  .get('/agent/apps', async (c) => c.json(await agentApps(c.var.deps, c.var.session)))

  /** The development outbox (never in production): the account's newest messages, newest first. */
  .get('/dev/sms-outbox', requireRead('outbox'), validate('query', DevSmsOutboxQuerySchema), async (c) => {
    if (c.var.deps.config.env === 'production') throw new ApiError(404, 'NOT_FOUND', 'There is nothing at this address.');
    const { limit = DEV_OUTBOX_PAGE_SIZE } = c.req.valid('query');
    const { messages, more } = await devOutboxMessages(c.var.deps, c.var.session.accountId, limit);
    c.header(DEV_OUTBOX_MORE_HEADER, String(more));
    c.header('access-control-expose-headers', DEV_OUTBOX_MORE_HEADER);
    return c.json(messages);
  });
