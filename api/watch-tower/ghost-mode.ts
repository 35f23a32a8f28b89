import type { Session } from '../auth/context';
import { audit } from '../audit';
import { endSession, issueSessionToken } from '../auth/sessions';
import type { Deps } from '../deps';
import { ApiError } from '../http/errors';

/**
 * Ends a ghost session and answers the staff member's own token. Only a ghost session can call
 * it, and only while the staff member is still active provider staff. The ghost session ends in
 * the same transaction, so its token stops working and a second end (even a concurrent one) is
 * refused and mints nothing.
 */
export async function endGhostMode(deps: Deps, session: Session): Promise<{ token: string; accountId: string }> {
  if (!session.ghost || !session.staffId) throw new ApiError(409, 'NOT_IN_GHOST_MODE', 'This session is not in ghost mode.');
  const staffId = session.staffId;
  const token = await deps.db.system(async (trx) => {
    const admin = await trx
      .selectFrom('admins')
      .select(['id', 'account_id', 'email', 'role', 'is_root'])
      .where('id', '=', staffId)
      .where('archived_at', 'is', null)
      .executeTakeFirst();
    if (!admin?.is_root) throw new ApiError(403, 'FORBIDDEN', 'This is for provider staff only.');
    if (!(await endSession(trx, session.id, 'ghost-ended')))
      throw new ApiError(409, 'GHOST_MODE_ENDED', 'This ghost mode session has already ended.');
    await audit(trx, session.accountId, null, {
      namespace: 'global',
      description: `Provider staff (${admin.email}) ended a ghost mode session`,
      event: 'ghost-mode.ended',
    });
    return issueSessionToken(deps, admin, { trx });
  });
  return { token, accountId: session.accountId };
}
