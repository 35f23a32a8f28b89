import { Hono } from 'hono';
import type { Selectable } from 'kysely';
import type { AppEnv } from '../auth/context';
import { requireRole } from '../auth/guards';
import { audit, actorOf } from '../audit';
import { RoleUpdateSchema } from '../contract/admins';
import { InvitationCreateSchema, InvitationRevokeSchema, type Invitation } from '../contract/invitations';
import type { InvitationsTable } from '../db/schema';
import { ApiError } from '../http/errors';
import { validate } from '../http/validate';
import { idParam } from '../http/ids';

const DAY = 86_400_000;

const invitationOf = (row: Pick<Selectable<InvitationsTable>, 'id' | 'email' | 'role' | 'expires_at' | 'status'>): Invitation => ({
  id: row.id,
  email: row.email,
  role: row.role,
  expiresAt: new Date(row.expires_at).toISOString(),
  status: row.status,
});

const invitationNotFound = () => new ApiError(404, 'NOT_FOUND', 'There is no such invitation.');

export const invitationsRoutes = new Hono<AppEnv>()
  .get('/invitations', requireRole('admin'), async (c) => {
    const { accountId } = c.var.session;
    const rows = await c.var.deps.db.tenant(accountId, (trx) =>
      trx.selectFrom('invitations').select(['id', 'email', 'role', 'expires_at', 'status']).where('account_id', '=', accountId).orderBy('created_at', 'desc').orderBy('email').execute(),
    );
    return c.json(rows.map(invitationOf));
  })

  /** Invites (or re-invites, renewing the expiry) an e-mail to join this account. */
  .post('/invitations', requireRole('admin'), validate('json', InvitationCreateSchema), async (c) => {
    const { email, role } = c.req.valid('json');
    const session = c.var.session;
    const { db, now, config } = c.var.deps;
    // Only this account's own admins are looked at: whether the address belongs to another
    // account is none of this one's business, so such an invitation is made like any other (and
    // stays pending until it expires, as for someone who never answers).
    const here = await db.tenant(session.accountId, (trx) =>
      trx.selectFrom('admins').select('id').where('email', '=', email).where('archived_at', 'is', null).executeTakeFirst(),
    );
    if (here) throw new ApiError(409, 'ALREADY_ADMIN', 'This person is already an administrator of this account.', { email: 'Already an administrator' });

    const expiresAt = new Date(now().getTime() + config.invitationDays * DAY);
    const invitation = await db.tenant(session.accountId, async (trx) => {
      const row = await trx
        .insertInto('invitations')
        .values({ account_id: session.accountId, email, role, expires_at: expiresAt, invited_by: session.ghost ? null : session.adminId })
        .onConflict((oc) => oc.columns(['account_id', 'email']).doUpdateSet({ role, expires_at: expiresAt, invited_by: session.ghost ? null : session.adminId, status: 'pending', closed_at: null }))
        .returning(['id', 'email', 'role', 'expires_at', 'status'])
        .executeTakeFirstOrThrow();
      await audit(trx, session.accountId, actorOf(session), {
        namespace: 'global',
        description: `Invited ${email} as ${role}`,
        event: 'invitation.created',
      });
      return invitationOf(row);
    });
    return c.json(invitation, 201);
  })

  .put('/invitations/:id/role', requireRole('admin'), idParam('invitation'), validate('json', RoleUpdateSchema), async (c) => {
    const { id } = c.req.valid('param');
    const { role } = c.req.valid('json');
    const session = c.var.session;
    const invitation = await c.var.deps.db.tenant(session.accountId, async (trx) => {
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
    return c.json(invitation);
  })

  .delete('/invitations', requireRole('admin'), validate('json', InvitationRevokeSchema), async (c) => {
    const { email } = c.req.valid('json');
    const session = c.var.session;
    const invitation = await c.var.deps.db.tenant(session.accountId, async (trx) => {
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
    return c.json(invitation);
  });
