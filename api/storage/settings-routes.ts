import { Hono } from 'hono';
import type { AppEnv } from '../auth/context';
import { requireRole } from '../auth/guards';
import { actorOf } from '../audit';
import { storageBodySchema, storageTestBodySchema, type StorageTestAnswer, type StorageView } from '../contract/storage';
import { validate } from '../http/validate';
import { readStorage, saveStorage, testStorage } from './service';

// GET/PUT /api/storage and POST /api/storage/test (admin role): where the account's files go and
// how long each kind is kept (api/storage/service.ts).

export const storageRoutes = new Hono<AppEnv>()
  .use('/storage', requireRole('admin'))
  .use('/storage/*', requireRole('admin'))
  .get('/storage', async (c) => {
    const { deps, session } = c.var;
    return c.json((await readStorage(deps, session.accountId)) satisfies StorageView);
  })
  // the lenient schema (secret may be blank); whether a blank secret may be kept is the service's to decide
  .put('/storage', validate('json', storageBodySchema(true)), async (c) => {
    const { deps, session } = c.var;
    const body = c.req.valid('json');
    return c.json((await saveStorage(deps, session.accountId, actorOf(session), body)) satisfies StorageView);
  })
  .post('/storage/test', validate('json', storageTestBodySchema(true)), async (c) => {
    const { deps, session } = c.var;
    const body = c.req.valid('json');
    return c.json((await testStorage(deps, session.accountId, actorOf(session), body)) satisfies StorageTestAnswer);
  });
