import { Hono } from 'hono';
import type { AppEnv } from '../auth/context';
import { endSession } from '../auth/sessions';

/** POST /sign-out ends the caller's session on the server: its token stops working at once. */
export const signOutRoutes = new Hono<AppEnv>().post('/sign-out', async (c) => {
  const { session, deps } = c.var;
  await deps.db.tenant(session.accountId, (trx) => endSession(trx, session.id, 'sign-out'));
  return c.body(null, 204);
});
