import { useAtomValue } from 'jotai';
import { useEffect, type ReactNode } from 'react';
import { Redirect, useLocation } from 'wouter';
import type { AppDefinition } from '../../api/contract/apps';
import type { Role } from '../../api/contract/common';
import { hasRole } from '../state/roles';
import { bootstrapAtom } from '../state/session';
import { toast } from '../ui/Toast';

// Guards sit inside nested routes, so '~/' names the console's root rather than the nest's.

const ADMIN_ONLY = 'That page is for administrators';
const ADMIN_ONLY_DETAIL =
  'Your role does not include it, so you have been brought back to your apps. Ask an administrator if you need it.';

/** Sends the user to the console's root and says why, once, as it happens. */
function RedirectWithReason({ title, detail }: { title: string; detail: string }) {
  useEffect(() => {
    toast.error(title, detail);
  }, [title, detail]);
  return <Redirect to="~/" replace />;
}

/** Renders its children for users with the role (the owner satisfies any); others go to /. */
export function RequireRole({ role, children }: { role: Role; children: ReactNode }) {
  const bootstrap = useAtomValue(bootstrapAtom);
  return hasRole(bootstrap?.role, role) ? children : <RedirectWithReason title={ADMIN_ONLY} detail={ADMIN_ONLY_DETAIL} />;
}

/** Renders its children for provider staff only; others go to /. */
export function RequireRoot({ children }: { children: ReactNode }) {
  const bootstrap = useAtomValue(bootstrapAtom);
  return bootstrap?.isRoot ? (
    children
  ) : (
    <RedirectWithReason title="Watch Tower is for provider staff" detail="You have been brought back to your apps." />
  );
}

/**
 * Whether a path below an app's root is for administrators only: its configuration (every
 * `settings/…` route) and whatever its admin-only tabs lead to (e.g. documents, forms), read
 * from the app registry so a new admin-only tab is guarded without touching this.
 */
export function isAdminOnlyAppPath(app: AppDefinition, path: string): boolean {
  const relative = path.replace(/^\/+|\/+$/g, '');
  if (relative === 'settings' || relative.startsWith('settings/')) return true;
  return app.tabs.some((tab) => {
    if (!tab.adminOnly || tab.path === '') return false;
    const section = tab.path.startsWith('settings/') ? 'settings' : tab.path;
    return relative === section || relative.startsWith(`${section}/`);
  });
}

/** Inside an app's nest: admin-only pages of the app send lower roles back to / with the reason. */
export function RequireAppRole({ app, children }: { app: AppDefinition; children: ReactNode }) {
  const bootstrap = useAtomValue(bootstrapAtom);
  const [location] = useLocation();
  if (isAdminOnlyAppPath(app, location) && !hasRole(bootstrap?.role, 'admin')) {
    return <RedirectWithReason title={ADMIN_ONLY} detail={ADMIN_ONLY_DETAIL} />;
  }
  return children;
}
