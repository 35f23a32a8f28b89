import { Hono } from 'hono';
import type { AppEnv } from '../auth/context';
import { requireRole } from '../auth/guards';
import { BrandingUpdateSchema, DomainUpdateSchema } from '../contract/branding';
import { validate } from '../http/validate';
import { readBrandingSettings, setCustomDomain, updateBranding } from './service';

export const brandingRoutes = new Hono<AppEnv>()
  .get('/branding', requireRole('admin'), async (c) => c.json(await readBrandingSettings(c.var.deps, c.var.session)))
  .put('/branding', requireRole('admin'), validate('json', BrandingUpdateSchema), async (c) => c.json(await updateBranding(c.var.deps, c.var.session, c.req.valid('json'))))
  .put('/branding/domain', requireRole('admin'), validate('json', DomainUpdateSchema), async (c) => c.json(await setCustomDomain(c.var.deps, c.var.session, c.req.valid('json').domain)));
