import { useAtomValue } from 'jotai';
import { hasRole } from '../../../state/roles';
import { bootstrapAtom } from '../../../state/session';

/** Editing the catalog and refunding are for admins; everyone else reads. */
export function useIsAdmin(): boolean {
  return hasRole(useAtomValue(bootstrapAtom)?.role, 'admin');
}
