import { Hono } from 'hono';
import type { AppEnv } from '../auth/context';
import { requireRole } from '../auth/guards';
import { CustomerLookupTestBodySchema, type CustomerLookupAnswer } from '../contract/customer-lookup';
import { ApiError } from '../http/errors';
import { validate } from '../http/validate';
import { readLookupSettings, removeLookupSettings, saveLookupSettings, testLookup } from './service';

export const customerLookupRoutes = new Hono<AppEnv>()
  .use('/customer-lookup', requireRole('admin'))
  .use('/customer-lookup/*', requireRole('admin'))
  .get('/customer-lookup', async (c) =>
    c.json({ settings: await readLookupSettings(c.var.deps, c.var.session.accountId) } satisfies CustomerLookupAnswer),
  )
  .post('/customer-lookup', async (c) => {
    // the raw body: an empty form removes the settings, which the schema alone would refuse
    const raw = await c.req.json().catch(() => {
      throw new ApiError(400, 'INVALID_BODY', 'The request body is not valid JSON.');
    });
    return c.json({ settings: await saveLookupSettings(c.var.deps, c.var.session, raw) } satisfies CustomerLookupAnswer);
  })
  .delete('/customer-lookup', async (c) => {
    await removeLookupSettings(c.var.deps, c.var.session);
    return c.json({ settings: null } satisfies CustomerLookupAnswer);
  })
  .post('/customer-lookup/test', validate('json', CustomerLookupTestBodySchema), async (c) =>
    c.json(await testLookup(c.var.deps, c.var.session.accountId, c.req.valid('json'))),
  );
