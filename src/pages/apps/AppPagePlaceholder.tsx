import type { AppDefinition } from '../../../api/contract/apps';
import { routeWords } from '../../app/title';
import { NotBuiltYet } from '../../ui/Card';
import { ConfigNav } from './_frame/ConfigNav';

/** 'documents/:id/history' -> 'Documents › History': the route's fixed words, readable. */
export function routeTitle(route: string): string {
  const words = route
    .split('/')
    .filter((s) => s && !s.startsWith(':'))
    .map(routeWords);
  return words.join(' › ') || 'Dashboard';
}

export function AppPagePlaceholder({ app, route }: { app: AppDefinition; route: string }) {
  return (
    <NotBuiltYet title={`${app.title}: ${routeTitle(route)}`} nav={route.startsWith('settings/') ? <ConfigNav app={app} /> : undefined}>
      This page of {app.title} is not built yet: it arrives in a later release of the console.
    </NotBuiltYet>
  );
}

export function AppDashboardPlaceholder({ app }: { app: AppDefinition }) {
  return (
    <NotBuiltYet title={`${app.title} dashboard`}>
      {app.description} The dashboard with activity and usage is not built yet: it arrives in a later release of the console.
    </NotBuiltYet>
  );
}
