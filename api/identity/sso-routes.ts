import { Hono } from 'hono';
import type { AppEnv } from '../auth/context';
import { requireRole } from '../auth/guards';
import { SsoDeleteBodySchema, SsoSaveBodySchema } from '../contract/sso';
import { validate } from '../http/validate';
import { disconnectSso, readSsoSettings, saveSsoSettings, verifySsoDomain } from './sso-settings';

// Settings > Single Sign-On (admin role).
export const ssoRoutes = new Hono<AppEnv>()
  .get('/sso', requireRole('admin'), async (c) => c.json(await readSsoSettings(c.var.deps, c.var.session)))
  .post('/sso', requireRole('admin'), validate('json', SsoSaveBodySchema), async (c) => {
    const { settings, created } = await saveSsoSettings(c.var.deps, c.var.session, c.req.valid('json'));
    return c.json(settings, created ? 201 : 200);
  })
  .post('/sso/verify', requireRole('admin'), async (c) => c.json(await verifySsoDomain(c.var.deps, c.var.session)))
  .delete('/sso', requireRole('admin'), validate('json', SsoDeleteBodySchema), async (c) =>
    c.json(await disconnectSso(c.var.deps, c.var.session, c.req.valid('json').provider)),
  );
