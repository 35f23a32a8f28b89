import { Hono } from 'hono';
import type { AppEnv } from '../auth/context';
import { requireRole } from '../auth/guards';
import { ApiError } from '../http/errors';
import { actorOf } from '../audit';
import { maskedKeys, RotateKeySchema, type DeveloperKeys } from '../contract/developers';
import { developerKeys, rotateDeveloperKey } from './service';
import { validate } from '../http/validate';
import { apiRateLimitUsage } from '../usage/api-limits';

/** Provider staff in ghost mode act as the owner but never learn the account's secrets. */
const shown = (keys: DeveloperKeys, ghost: boolean): DeveloperKeys => (ghost ? maskedKeys(keys) : keys);

export const developersRoutes = new Hono<AppEnv>()
  .get('/accounts/developer', requireRole('admin'), async (c) => {
    const session = c.var.session;
    const { db, config } = c.var.deps;
    const keys = await db.tenant(session.accountId, (trx) => developerKeys(trx, session.accountId, config.encryptionKey));
    c.header('cache-control', 'no-store');
    return c.json(shown(keys, session.ghost));
  })

  /** The account's /api/v1 rate limit (set by provider staff) and how much of its burst is in use now. */
  .get('/accounts/developer/rate-limit', requireRole('admin'), async (c) => {
    const { accountId } = c.var.session;
    return c.json(await c.var.deps.db.tenant(accountId, (trx) => apiRateLimitUsage(trx, accountId, c.var.deps.now())));
  })

  /** Replaces the secret key or the webhook secret; the old value stops working at once. */
  .post('/accounts/developer/rotate', requireRole('admin'), validate('json', RotateKeySchema), async (c) => {
    const { key } = c.req.valid('json');
    const session = c.var.session;
    // the console hides Rotate in ghost mode; a key staff never saw is not theirs to replace
    if (session.ghost)
      throw new ApiError(
        403,
        'GHOST_MODE',
        "Only the account's own admins can rotate its keys, not provider staff in ghost mode.",
      );
    const { db, config } = c.var.deps;
    const keys = await db.tenant(session.accountId, (trx) =>
      rotateDeveloperKey(trx, session.accountId, config.encryptionKey, actorOf(session), key),
    );
    return c.json(shown(keys, session.ghost));
  });
