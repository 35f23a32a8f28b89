import type { MiddlewareHandler } from 'hono';
import type { Role } from '../contract/common';
import { ApiError } from '../http/errors';
import type { AppEnv } from './context';

const RANK: Record<Role, number> = { supervisor: 1, admin: 2, owner: 3 };

/** The owner satisfies any required role; an admin satisfies admin and supervisor. */
export function hasRole(actual: Role | 'agent', required: Role): boolean {
  // agent sessions hold no console role at all
  return actual !== 'agent' && RANK[actual] >= RANK[required];
}

export function requireRole(required: Role): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (!hasRole(c.get('session').role, required)) {
      throw new ApiError(403, 'FORBIDDEN', `This needs the ${required} role.`);
    }
    await next();
  };
}

/** Provider staff only (Watch Tower); ghost sessions are never root. */
export function requireRoot(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (!c.get('session').isRoot) throw new ApiError(403, 'FORBIDDEN', 'This is for provider staff only.');
    await next();
  };
}

/**
 * What each role may read, by what it is. The routes that list these (notifications, the
 * development outbox) and the live stream's filter (api/live/hub.ts) both ask here, so a stream
 * never tells a role of a change it could not read through the API.
 */
export const READ_ROLE = { tasks: 'supervisor', credits: 'supervisor', outbox: 'supervisor', notifications: 'admin' } as const satisfies Record<string, Role>;
export type Readable = keyof typeof READ_ROLE;

export function mayRead(role: Role | 'agent', what: Readable): boolean {
  return hasRole(role, READ_ROLE[what]);
}

export function requireRead(what: Readable): MiddlewareHandler<AppEnv> {
  return requireRole(READ_ROLE[what]);
}
