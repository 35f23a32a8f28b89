import { Hono } from 'hono';
import type { AppEnv } from '../auth/context';
import { requireRead } from '../auth/guards';
import { MarkReadBodySchema } from '../contract/notifications';
import { validate } from '../http/validate';
import { listNotifications, markNotificationsRead } from './service';

export const notificationsRoutes = new Hono<AppEnv>()
  .get('/notifications', requireRead('notifications'), async (c) => c.json(await listNotifications(c.var.deps, c.var.session)))
  .post('/notifications/read', requireRead('notifications'), validate('json', MarkReadBodySchema), async (c) =>
    c.json({ unread: await markNotificationsRead(c.var.deps, c.var.session, c.req.valid('json')) }),
  );
