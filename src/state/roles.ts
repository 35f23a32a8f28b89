import type { Role } from '../../api/contract/common';

const RANK: Record<Role, number> = { supervisor: 1, admin: 2, owner: 3 };

/** Whether a role meets a required role; the owner satisfies any role. */
export function hasRole(role: Role | undefined, required: Role): boolean {
  return role !== undefined && RANK[role] >= RANK[required];
}
