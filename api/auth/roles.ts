import type { Role } from '../contract/common';

// Who may do and read what, by role: apart from the middlewares (guards.ts) so the live stream's
// filter can ask too without importing the request context (which would close an import cycle).

const RANK: Record<Role, number> = { supervisor: 1, admin: 2, owner: 3 };

/** The owner satisfies any required role; an admin satisfies admin and supervisor. */
export function hasRole(actual: Role | 'agent', required: Role): boolean {
  // agent sessions hold no console role at all
  return actual !== 'agent' && RANK[actual] >= RANK[required];
}

/**
 * What each role may read, by what it is. The routes that list these (notifications, the
 * development outbox) and the live stream's filter (api/live/hub.ts) both ask here, so a stream
 * never tells a role of a change it could not read through the API.
 */
export const READ_ROLE = {
  tasks: 'supervisor',
  credits: 'supervisor',
  outbox: 'supervisor',
  notifications: 'admin',
} as const satisfies Record<string, Role>;
export type Readable = keyof typeof READ_ROLE;

export function mayRead(role: Role | 'agent', what: Readable): boolean {
  return hasRole(role, READ_ROLE[what]);
}
