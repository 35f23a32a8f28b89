import { Hono } from 'hono';
import type { AppEnv } from '../auth/context';
import { endGhostMode } from './ghost-mode';

/** DELETE /ghost-mode: the ghost banner's end, answered with the staff member's own token. */
export const ghostModeRoutes = new Hono<AppEnv>().delete('/ghost-mode', async (c) =>
  c.json(await endGhostMode(c.var.deps, c.var.session)),
);
