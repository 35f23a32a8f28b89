import { Hono } from 'hono';
import * as v from 'valibot';
import type { AppEnv } from '../auth/context';
import { requireRole } from '../auth/guards';
import { LoggingDeleteBodySchema, LoggingRetryBodySchema } from '../contract/logging';
import { ApiError } from '../http/errors';
import { validate, validationError } from '../http/validate';
import { disconnectLogging, readLogging, retryLogging, saveLogging, testLogging } from './service';

async function readJson(c: { req: { json(): Promise<unknown> } }): Promise<unknown> {
  return c.req.json().catch(() => {
    throw new ApiError(400, 'INVALID_BODY', 'The request body is not valid JSON.');
  });
}

// Save and test take the raw body: the service checks it against the contract once the stored
// secrets a blank field keeps are known.
export const loggingRoutes = new Hono<AppEnv>()
  .use('/logging', requireRole('admin'))
  .use('/logging/*', requireRole('admin'))
  .get('/logging', async (c) => c.json(await readLogging(c.var.deps, c.var.session.accountId)))
  .post('/logging', validate('json', v.unknown(), { textRuleInRoute: true }), async (c) =>
    c.json(await saveLogging(c.var.deps, c.var.session, c.req.valid('json'))),
  )
  .post('/logging/test', async (c) => c.json(await testLogging(c.var.deps, c.var.session, await readJson(c))))
  .post('/logging/retry', async (c) => {
    const parsed = v.safeParse(LoggingRetryBodySchema, await readJson(c));
    if (!parsed.success) throw validationError(parsed.issues);
    return c.json(await retryLogging(c.var.deps, c.var.session, parsed.output.destination));
  })
  .delete('/logging', async (c) => {
    // The destination may come as a JSON body (the console) or as ?destination= (curl).
    const raw = c.req.query('destination') ? { destination: c.req.query('destination') } : await c.req.json().catch(() => ({}));
    const parsed = v.safeParse(LoggingDeleteBodySchema, raw);
    if (!parsed.success) throw validationError(parsed.issues);
    return c.json(await disconnectLogging(c.var.deps, c.var.session, parsed.output.destination));
  });
