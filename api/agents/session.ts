import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../auth/context';
import { ApiError } from '../http/errors';

// Agent sessions (role 'agent' in the token) may call only what the Agent Preview needs: the
// list of usable apps, each app's actions and what their pickers offer, running them, and following a task's status.

const AGENT_ROUTES: readonly RegExp[] = [
  /^\/api\/agent\/apps$/,
  /^\/api\/[a-z-]+\/actions(\/[a-z-]+)?$/,
  // what a picker of an action offers (published documents and forms, active products)
  /^\/api\/[a-z-]+\/actions\/[a-z-]+\/choices\/[A-Za-z]+$/,
  /^\/api\/[a-z-]+\/tasks\/[0-9a-f-]{36}\/status$/,
  // the live stream: an agent's carries only its own tasks (api/live/hub.ts)
  /^\/api\/live$/,
  // journeys: the picker, sending one, following (and resending) the ones the agent sent
  /^\/api\/journeys(\/choices)?$/,
  /^\/api\/journeys\/[0-9a-f-]{36}(\/resend)?$/,
];

export const AGENT_TOKEN_HOURS = 8;

/** Placed after requireSession: agent sessions are refused everywhere but the agent routes. */
export function agentScope(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (c.get('session').role === 'agent' && !AGENT_ROUTES.some((r) => r.test(c.req.path))) {
      throw new ApiError(403, 'AGENT_FORBIDDEN', 'Agent sessions can only run app actions.');
    }
    await next();
  };
}
