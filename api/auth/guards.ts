import type { MiddlewareHandler } from 'hono';
import type { Role } from '../contract/common';
import { ApiError } from '../http/errors';
import type { AppEnv } from './context';
import { hasRole, READ_ROLE, type Readable } from './roles';

export { hasRole, mayRead, READ_ROLE, type Readable } from './roles';

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

export function requireRead(what: Readable): MiddlewareHandler<AppEnv> {
  return requireRole(READ_ROLE[what]);
}
