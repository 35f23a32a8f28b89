import { useAtomValue } from 'jotai';
import { useLocation } from 'wouter';
import { APPS, getApp, type AppDefinition } from '../../api/contract/apps';
import { bootstrapAtom } from '../state/session';

/** The apps this user may see, in registry order. */
export function useVisibleApps(): AppDefinition[] {
  const bootstrap = useAtomValue(bootstrapAtom);
  const ids = bootstrap?.apps ?? [];
  return APPS.filter((a) => ids.includes(a.id));
}

/** The current app: the first path segment, when it names an app this user may see. */
export function useCurrentApp(): AppDefinition | undefined {
  const [location] = useLocation();
  const bootstrap = useAtomValue(bootstrapAtom);
  const app = getApp(location.split('/')[1] ?? '');
  return app && bootstrap?.apps.includes(app.id) ? app : undefined;
}
