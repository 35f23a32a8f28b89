import { Hono } from 'hono';
import type { AppEnv } from '../auth/context';
import { requireRole } from '../auth/guards';
import { actorOf } from '../audit';
import { developerKeys } from '../developers/keys';

export const developersRoutes = new Hono<AppEnv>().get('/accounts/developer', requireRole('admin'), async (c) => {
  const session = c.var.session;
  const { db, config } = c.var.deps;
  const keys = await db.tenant(session.accountId, (trx) => developerKeys(trx, session.accountId, config.encryptionKey, actorOf(session)));
  c.header('cache-control', 'no-store');
  return c.json(keys);
});
