import { Hono } from 'hono';
import type { AppEnv } from '../../auth/context';
import { agentApps } from './service';

/** Account-wide routes of the apps platform (not under one app). */
export const platformRoutes = new Hono<AppEnv>()
  /** The apps an agent may use now: active (trial, subscription, enterprise) and with actions. */
  .get('/agent/apps', async (c) => c.json(await agentApps(c.var.deps, c.var.session)));
