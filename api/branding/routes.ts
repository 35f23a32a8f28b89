import { Hono } from 'hono';
import type { AppEnv } from '../auth/context';
import { requireRole } from '../auth/guards';
import { BrandingUpdateSchema, DomainUpdateSchema } from '../contract/branding';
import { validate } from '../http/validate';
import { actorOf } from '../audit';
import { AccountTimeZoneSchema, type AccountTimeZone } from '../contract/time-zone';
import { readBrandingSettings, setCustomDomain, updateBranding } from './service';
import { accountTimeZone, setAccountTimeZone } from './time-zone';

export const brandingRoutes = new Hono<AppEnv>()
  .get('/branding', requireRole('admin'), async (c) => c.json(await readBrandingSettings(c.var.deps, c.var.session)))
  .put('/branding', requireRole('admin'), validate('json', BrandingUpdateSchema), async (c) =>
    c.json(await updateBranding(c.var.deps, c.var.session, c.req.valid('json'))),
  )
  .put('/branding/domain', requireRole('admin'), validate('json', DomainUpdateSchema), async (c) =>
    c.json(await setCustomDomain(c.var.deps, c.var.session, c.req.valid('json').domain)),
  );

// The account's time zone: every role reads it (the console formats every date in it), only the
// owner changes it.
export const accountTimeZoneRoutes = new Hono<AppEnv>()
  .get('/account-time-zone', async (c) => {
    const { accountId } = c.var.session;
    const answer: AccountTimeZone = { timeZone: await c.var.deps.db.tenant(accountId, (trx) => accountTimeZone(trx, accountId)) };
    return c.json(answer);
  })
  .put('/account-time-zone', requireRole('owner'), validate('json', AccountTimeZoneSchema), async (c) => {
    const { timeZone } = c.req.valid('json');
    const session = c.var.session;
    await c.var.deps.db.tenant(session.accountId, (trx) =>
      setAccountTimeZone(trx, session.accountId, actorOf(session), timeZone),
    );
    const answer: AccountTimeZone = { timeZone };
    return c.json(answer);
  });
