import { Hono } from 'hono';
import type { AppEnv } from '../auth/context';
import { requireRole } from '../auth/guards';
import { RoleUpdateSchema } from '../contract/admins';
import { InvitationCreateSchema, InvitationRevokeSchema } from '../contract/invitations';
import { idParam } from '../http/ids';
import { validate } from '../http/validate';
import { changeInvitationRole, invite, listInvitations, revokeInvitation } from './service';

export const invitationsRoutes = new Hono<AppEnv>()
  .get('/invitations', requireRole('admin'), async (c) => c.json(await listInvitations(c.var.deps, c.var.session.accountId)))

  .post('/invitations', requireRole('admin'), validate('json', InvitationCreateSchema), async (c) =>
    c.json(await invite(c.var.deps, c.var.session, c.req.valid('json')), 201),
  )

  .put('/invitations/:id/role', requireRole('admin'), idParam('invitation'), validate('json', RoleUpdateSchema), async (c) =>
    c.json(await changeInvitationRole(c.var.deps, c.var.session, c.req.valid('param').id, c.req.valid('json'))),
  )

  .delete('/invitations', requireRole('admin'), validate('json', InvitationRevokeSchema), async (c) =>
    c.json(await revokeInvitation(c.var.deps, c.var.session, c.req.valid('json').email)),
  );
