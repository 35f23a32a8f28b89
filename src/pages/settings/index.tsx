import { lazy, Suspense } from 'react';
import { Link, Redirect, Route, Switch, useLocation } from 'wouter';
import { useCurrentTabInView } from '../../app/AppTabs';
import { LoadingPanel } from '../../ui/Spinner';
import NotFoundPage from '../not-found';
import { SETTINGS_SECTIONS, type SettingsSlug } from './sections';

// Rendered inside the /settings nest: paths here are relative to /settings.
const SCREENS: Record<SettingsSlug, ReturnType<typeof lazy>> = {
  branding: lazy(() => import('./branding')),
  domain: lazy(() => import('./domain')),
  'admin-management': lazy(() => import('./admin-management')),
  'sms-configuration': lazy(() => import('./sms-configuration')),
  'customer-lookup': lazy(() => import('./customer-lookup')),
  'single-sign-on': lazy(() => import('./single-sign-on')),
  billing: lazy(() => import('./billing')),
  logging: lazy(() => import('./logging')),
  'audit-log': lazy(() => import('./audit-log')),
  developers: lazy(() => import('./developers')),
  storage: lazy(() => import('./storage')),
  privacy: lazy(() => import('./privacy')),
};

function SettingsMenu() {
  const [location] = useLocation();
  // in a narrow panel the menu is a bar that scrolls sideways (narrow.css)
  const list = useCurrentTabInView();
  return (
    <nav className="side-menu" aria-label="Settings">
      <ul ref={list}>
        {SETTINGS_SECTIONS.filter((s) => s.inMenu).map((s) => {
          const active = location === `/${s.slug}` || location.startsWith(`/${s.slug}/`);
          return (
            <li key={s.slug}>
              <Link
                href={`/${s.slug}`}
                className={active ? 'side-link side-link-active' : 'side-link'}
                aria-current={active ? 'page' : undefined}
              >
                {s.label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

/** Account settings: the side menu and the chosen screen. */
export default function SettingsArea() {
  return (
    <div className="settings-layout">
      <SettingsMenu />
      <div className="settings-content">
        <Suspense fallback={<LoadingPanel />}>
          <Switch>
            <Route path="/">
              <Redirect to="/branding" replace />
            </Route>
            {SETTINGS_SECTIONS.map((s) => (
              <Route key={s.slug} path={`/${s.slug}`} component={SCREENS[s.slug]} />
            ))}
            <Route component={NotFoundPage} />
          </Switch>
        </Suspense>
      </div>
    </div>
  );
}
