import { useAtomValue } from 'jotai';
import type { ReactNode } from 'react';
import { Redirect } from 'wouter';
import type { Role } from '../../api/contract/common';
import { hasRole } from '../state/roles';
import { bootstrapAtom } from '../state/session';

// Guards sit inside nested routes, so '~/' names the console's root rather than the nest's.

/** Renders its children for users with the role (the owner satisfies any); others go to /. */
export function RequireRole({ role, children }: { role: Role; children: ReactNode }) {
  const bootstrap = useAtomValue(bootstrapAtom);
  return hasRole(bootstrap?.role, role) ? children : <Redirect to="~/" replace />;
}

/** Renders its children for provider staff only; others go to /. */
export function RequireRoot({ children }: { children: ReactNode }) {
  const bootstrap = useAtomValue(bootstrapAtom);
  return bootstrap?.isRoot ? children : <Redirect to="~/" replace />;
}
