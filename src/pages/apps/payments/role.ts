import { useAtomValue } from 'jotai';
import { bootstrapAtom } from '../../../state/session';

/** Editing the catalog and refunding are for admins (and the owner); everyone else reads. */
export function useIsAdmin(): boolean {
  const role = useAtomValue(bootstrapAtom)?.role;
  return role === 'admin' || role === 'owner';
}
