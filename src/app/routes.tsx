import { useAtomValue } from 'jotai';
import { Redirect, Route, Switch } from 'wouter';
import { APPS } from '../../api/contract/apps';
import { bootstrapAtom } from '../state/session';
import { RequireAppRole, RequireRole, RequireRoot } from './guards';
import * as Pages from './pages';

/** Routes for a signed-in user: every route of SPEC section 2. */
export function SignedInRoutes() {
  const bootstrap = useAtomValue(bootstrapAtom);
  const visible = new Set(bootstrap?.apps ?? []);
  return (
    <Switch>
      <Route path="/" component={Pages.HomePage} />
      <Route path="/sign-up">
        <Redirect to="/" replace />
      </Route>
      <Route path="/legal/data-processing-addendum" component={Pages.LegalDpaPage} />
      <Route path="/support" component={Pages.SupportPage} />
      <Route path="/support/ticket" component={Pages.TicketPage} />
      <Route path="/sales" component={Pages.SalesPage} />
      <Route path="/resources" component={Pages.ResourcesPage} />
      <Route path="/settings" nest>
        <RequireRole role="admin">
          <Pages.SettingsArea />
        </RequireRole>
      </Route>
      <Route path="/dev/sms-outbox">
        <RequireRole role="admin">
          <Pages.DevSmsOutboxPage />
        </RequireRole>
      </Route>
      {/* journeys chain the apps: no app's own, so a route of its own (SPEC's routes are unchanged) */}
      <Route path="/journeys" nest>
        <Pages.JourneysArea />
      </Route>
      <Route path="/watch-tower" nest>
        <RequireRoot>
          <Pages.WatchTowerArea />
        </RequireRoot>
      </Route>
      {APPS.filter((app) => visible.has(app.id)).map((app) => (
        <Route key={app.id} path={`/${app.id}`} nest>
          <RequireAppRole app={app}>
            <Pages.AppArea app={app} />
          </RequireAppRole>
        </Route>
      ))}
      <Route component={Pages.NotFoundPage} />
    </Switch>
  );
}

/**
 * Routes without a session: sign-in at root and sign-up (the SSO callback is served before
 * the session is looked at). Any other path goes to root; root keeps its query string, which
 * carries the expired flag.
 */
export function SignedOutRoutes() {
  return (
    <Switch>
      <Route path="/" component={Pages.SignInPage} />
      <Route path="/sign-up" component={Pages.SignUpPage} />
      <Route>
        <Redirect to="/" replace />
      </Route>
    </Switch>
  );
}
