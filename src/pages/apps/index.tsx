import { useAtomValue } from 'jotai';
import { lazy, Suspense, type ComponentType, type LazyExoticComponent } from 'react';
import { Route, Switch, useLocation } from 'wouter';
import type { AppDefinition, AppId } from '../../../api/contract/apps';
import { useStartFreeTrial } from '../../api/billing';
import { RequireRole } from '../../app/guards';
import { bootstrapAtom } from '../../state/session';
import { Button } from '../../ui/Button';
import { Card } from '../../ui/Card';
import { LoadingPanel } from '../../ui/Spinner';
import NotFoundPage from '../not-found';
import { AppPagePlaceholder } from './AppPagePlaceholder';

type Page = LazyExoticComponent<ComponentType<{ app: AppDefinition }>>;

const DASHBOARDS: Record<AppId, Page> = {
  passkeys: lazy(() => import('./passkeys')),
  'document-signature': lazy(() => import('./document-signature')),
  'e-form': lazy(() => import('./e-form')),
  'one-time-passcode': lazy(() => import('./one-time-passcode')),
  payments: lazy(() => import('./payments')),
  'identity-verification': lazy(() => import('./identity-verification')),
};

/** The pages an app has built beyond its dashboard, by route; the rest show as not built yet. */
const PAGES: Partial<Record<AppId, Record<string, Page>>> = {
  'one-time-passcode': {
    authentications: lazy(() => import('./one-time-passcode/authentications')),
    'settings/general': lazy(() => import('./one-time-passcode/general')),
    'settings/sms-content': lazy(() => import('./one-time-passcode/sms-content')),
    'settings/webhooks': lazy(() => import('./one-time-passcode/webhooks')),
  },
};

function AppPage({ app, route }: { app: AppDefinition; route: string }) {
  const Dashboard = DASHBOARDS[app.id];
  if (route === '' || route === 'dashboard') return <Dashboard app={app} />;
  const Page = PAGES[app.id]?.[route];
  const page = Page ? <Page app={app} /> : <AppPagePlaceholder app={app} route={route} />;
  // Configuration is for admins, like the Configuration tab that leads to it.
  return route.startsWith('settings/') ? <RequireRole role="admin">{page}</RequireRole> : page;
}

/** An app that isn't started yet: its pages wait behind a free-trial offer (pricing stays open). */
function NotStarted({ app }: { app: AppDefinition }) {
  const startFreeTrial = useStartFreeTrial();
  return (
    <div className="page page-narrow">
      <h1 className="page-title">{app.title}</h1>
      <Card>
        <p>{app.description}</p>
        <p className="muted">{app.title} isn't active on your account yet. Start a free trial to use it.</p>
        <Button variant="primary" onClick={() => startFreeTrial(app.id)} successLabel="Trial started">
          Start Free Trial
        </Button>
      </Card>
    </div>
  );
}

/** One app's pages, inside the app's nest: paths here are relative to the app's root. */
export default function AppArea({ app }: { app: AppDefinition }) {
  const bootstrap = useAtomValue(bootstrapAtom);
  const [location] = useLocation();
  const inactive = bootstrap?.billing[app.id]?.status === 'inactive';
  if (inactive && location !== '/pricing') return <NotStarted app={app} />;
  return (
    <Suspense fallback={<LoadingPanel />}>
      <Switch>
        {app.routes.map((route) => (
          <Route key={route} path={`/${route}`}>
            <AppPage app={app} route={route} />
          </Route>
        ))}
        <Route component={NotFoundPage} />
      </Switch>
    </Suspense>
  );
}
