import { Hono } from 'hono';
import type { AppEnv } from '../auth/context';
import { requireRole } from '../auth/guards';
import { RoleUpdateSchema } from '../contract/admins';
import { idParam } from '../http/ids';
import { validate } from '../http/validate';
import { archiveAdmin, changeAdminRole, listAdmins, readBootstrap } from './service';

export const adminsRoutes = new Hono<AppEnv>()
  .get('/admins/bootstrap', async (c) => c.json(await readBootstrap(c.var.deps, c.var.session)))

  .get('/admins', requireRole('admin'), async (c) => c.json(await listAdmins(c.var.deps, c.var.session.accountId)))

  .put('/admins/:id/role', requireRole('admin'), idParam('administrator'), validate('json', RoleUpdateSchema), async (c) =>
    c.json(await changeAdminRole(c.var.deps, c.var.session, c.req.valid('param').id, c.req.valid('json'))),
  )

  .delete('/admins/:id', requireRole('admin'), idParam('administrator'), async (c) =>
    c.json(await archiveAdmin(c.var.deps, c.var.session, c.req.valid('param').id)),
  );
