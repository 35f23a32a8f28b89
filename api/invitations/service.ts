import type { Selectable } from 'kysely';
import type { Session } from '../auth/context';
import { audit, actorOf } from '../audit';
import type { RoleUpdate } from '../contract/admins';
import type { Invitation, InvitationRequest } from '../contract/invitations';
import type { InvitationsTable } from '../db/schema';
import type { Deps } from '../deps';
import { ApiError } from '../http/errors';

// Invitations to join an account as an admin or supervisor: made, renewed, re-roled and revoked.

const DAY = 86_400_000;

const invitationOf = (
  row: Pick<Selectable<InvitationsTable>, 'id' | 'email' | 'role' | 'expires_at' | 'status'>,
): Invitation => ({
  id: row.id,
  email: row.email,
  role: row.role,
  expiresAt: new Date(row.expires_at).toISOString(),
  status: row.status,
});

const invitationNotFound = () => new ApiError(404, 'NOT_FOUND', 'There is no such invitation.');

export async function listInvitations(deps: Deps, accountId: string): Promise<Invitation[]> {
  const rows = await deps.db.tenant(accountId, (trx) =>
    trx
      .selectFrom('invitations')
      .select(['id', 'email', 'role', 'expires_at', 'status'])
      .where('account_id', '=', accountId)
      .orderBy('created_at', 'desc')
      .orderBy('email')
      .execute(),
  );
  return rows.map(invitationOf);
}

/** Invites (or re-invites, renewing the expiry) an e-mail to join this account. */
export async function invite(deps: Deps, session: Session, { email, role }: InvitationRequest): Promise<Invitation> {
  const { db, now, config } = deps;
  // Only this account's own admins are looked at: whether the address belongs to another
  // account is none of this one's business, so such an invitation is made like any other (and
  // stays pending until it expires, as for someone who never answers).
  const here = await db.tenant(session.accountId, (trx) =>
    trx.selectFrom('admins').select('id').where('email', '=', email).where('archived_at', 'is', null).executeTakeFirst(),
  );
  if (here)
    throw new ApiError(409, 'ALREADY_ADMIN', 'This person is already an administrator of this account.', {
      email: 'Already an administrator',
    });

  const expiresAt = new Date(now().getTime() + config.invitationDays * DAY);
  return db.tenant(session.accountId, async (trx) => {
    const row = await trx
      .insertInto('invitations')
      .values({
        account_id: session.accountId,
        email,
        role,
        expires_at: expiresAt,
        invited_by: session.ghost ? null : session.adminId,
      })
      .onConflict((oc) =>
        oc.columns(['account_id', 'email']).doUpdateSet({
          role,
          expires_at: expiresAt,
          invited_by: session.ghost ? null : session.adminId,
          status: 'pending',
          closed_at: null,
        }),
      )
      .returning(['id', 'email', 'role', 'expires_at', 'status'])
      .executeTakeFirstOrThrow();
    await audit(trx, session.accountId, actorOf(session), {
      namespace: 'global',
      description: `Invited ${email} as ${role}`,
      event: 'invitation.created',
    });
    return invitationOf(row);
  });
}

export async function changeInvitationRole(deps: Deps, session: Session, id: string, { role }: RoleUpdate): Promise<Invitation> {
  return deps.db.tenant(session.accountId, async (trx) => {
    const row = await trx
      .selectFrom('invitations')
      .select(['id', 'email', 'role', 'expires_at', 'status'])
      .where('account_id', '=', session.accountId)
      .where('id', '=', id)
      .forUpdate()
      .executeTakeFirst();
    if (!row) throw invitationNotFound();
    if (row.role === role) return invitationOf(row);
    await trx.updateTable('invitations').set({ role }).where('id', '=', row.id).execute();
    await audit(trx, session.accountId, actorOf(session), {
      namespace: 'global',
      description: `Changed the invitation of ${row.email} from ${row.role} to ${role}`,
      event: 'invitation.role-changed',
    });
    return invitationOf({ ...row, role });
  });
}

export async function revokeInvitation(deps: Deps, session: Session, email: string): Promise<Invitation> {
  return deps.db.tenant(session.accountId, async (trx) => {
    const row = await trx
      .deleteFrom('invitations')
      .where('account_id', '=', session.accountId)
      .where('email', '=', email)
      .returning(['id', 'email', 'role', 'expires_at', 'status'])
      .executeTakeFirst();
    if (!row) throw invitationNotFound();
    await audit(trx, session.accountId, actorOf(session), {
      namespace: 'global',
      description: `Revoked the invitation of ${email}`,
      event: 'invitation.revoked',
    });
    return invitationOf(row);
  });
}
