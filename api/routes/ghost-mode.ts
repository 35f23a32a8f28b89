import { Hono } from 'hono';
import type { AppEnv } from '../auth/context';
import { audit } from '../audit';
import { ApiError } from '../http/errors';
import { issueSessionToken } from '../auth/sessions';

/** Ghost sessions are short-lived: staff look, then return to Watch Tower. */
export const GHOST_SECONDS = 3600;

/**
 * DELETE /ghost-mode ends a ghost session and answers the staff member's own token. Only a ghost
 * session can call it, and only while the staff member is still active provider staff.
 */
export const ghostModeRoutes = new Hono<AppEnv>().delete('/ghost-mode', async (c) => {
  const session = c.var.session;
  if (!session.ghost || !session.staffId) throw new ApiError(409, 'NOT_IN_GHOST_MODE', 'This session is not in ghost mode.');
  const staffId = session.staffId;
  const deps = c.var.deps;
  const staff = await deps.db.system(async (trx) => {
    const admin = await trx
      .selectFrom('admins')
      .select(['id', 'account_id', 'email', 'role', 'is_root'])
      .where('id', '=', staffId)
      .where('archived_at', 'is', null)
      .executeTakeFirst();
    if (!admin?.is_root) throw new ApiError(403, 'FORBIDDEN', 'This is for provider staff only.');
    await audit(trx, session.accountId, null, {
      namespace: 'global',
      description: `Provider staff (${admin.email}) ended a ghost mode session`,
      event: 'ghost-mode.ended',
    });
    return admin;
  });
  return c.json({ token: await issueSessionToken(deps, staff), accountId: session.accountId });
});
