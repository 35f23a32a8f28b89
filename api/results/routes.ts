import { Hono } from 'hono';
import type { AppEnv } from '../auth/context';
import { requireRole } from '../auth/guards';
import { CustomerSearchQuerySchema } from '../contract/results';
import { validate } from '../http/validate';
import { searchCustomerResults } from './service';

export const resultsRoutes = new Hono<AppEnv>().get(
  '/results/customer',
  requireRole('admin'),
  validate('query', CustomerSearchQuerySchema),
  async (c) =>
    c.json({ results: await searchCustomerResults(c.var.deps, c.var.session.accountId, c.req.valid('query').customerRef) }),
);
