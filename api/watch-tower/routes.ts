import { Hono } from 'hono';
import type { AppEnv } from '../auth/context';
import { requireRoot } from '../auth/guards';
import { ApiRateLimitBodySchema } from '../contract/api-limits';
import {
  AccountSearchQuerySchema,
  AccountStatisticsQuerySchema,
  AppStatusBodySchema,
  GhostModeBodySchema,
  SummaryQuerySchema,
} from '../contract/watch-tower';
import { validate } from '../http/validate';
import {
  accountDetail,
  accountStatistics,
  convertAppStatus,
  searchAccounts,
  setAccountApiRateLimit,
  startGhostMode,
  statisticsSummary,
} from './service';

// Provider staff only (requireRoot): every account, its apps, limits and statistics, and ghost mode.
export const watchTowerRoutes = new Hono<AppEnv>()
  .use('/watch-tower/*', requireRoot())
  .get('/watch-tower/accounts', validate('query', AccountSearchQuerySchema), async (c) =>
    c.json(await searchAccounts(c.var.deps, c.req.valid('query'))),
  )
  .get('/watch-tower/accounts/:id', async (c) => c.json(await accountDetail(c.var.deps, c.req.param('id'))))
  .put('/watch-tower/accounts/:accountId/apps/:app/status', validate('json', AppStatusBodySchema), async (c) =>
    c.json(await convertAppStatus(c.var.deps, c.req.param('accountId'), c.req.param('app'), c.req.valid('json').status)),
  )
  .put('/watch-tower/accounts/:accountId/api-rate-limit', validate('json', ApiRateLimitBodySchema), async (c) =>
    c.json(await setAccountApiRateLimit(c.var.deps, c.req.param('accountId'), c.req.valid('json').perSecond)),
  )
  .get('/watch-tower/statistics/summary', validate('query', SummaryQuerySchema), async (c) =>
    c.json(await statisticsSummary(c.var.deps, c.req.valid('query'))),
  )
  .get('/watch-tower/statistics/account', validate('query', AccountStatisticsQuerySchema), async (c) =>
    c.json(await accountStatistics(c.var.deps, c.req.valid('query'))),
  )
  .post('/watch-tower/ghost-mode', validate('json', GhostModeBodySchema), async (c) =>
    c.json(await startGhostMode(c.var.deps, c.var.session, c.req.valid('json').accountId)),
  );
