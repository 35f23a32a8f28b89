import { lazy, Suspense } from 'react';
import { Link, Route, Switch, useLocation } from 'wouter';
import { LoadingPanel } from '../../ui/Spinner';
import NotFoundPage from '../not-found';

// Rendered inside the /watch-tower nest: paths here are relative to /watch-tower.
const Dashboard = lazy(() => import('./dashboard'));
const Accounts = lazy(() => import('./accounts'));
const Account = lazy(() => import('./account'));

function NavLink({ href, label, exact }: { href: string; label: string; exact?: boolean }) {
  const [location] = useLocation();
  const active = exact ? location === href : location === href || location.startsWith(`${href}/`);
  return (
    <Link href={href} className={active ? 'tab tab-active' : 'tab'} aria-current={active ? 'page' : undefined}>
      {label}
    </Link>
  );
}

/** Watch Tower, the provider staff's area: its own header with Dashboard, Accounts and the way back. */
export default function WatchTowerArea() {
  const [, navigate] = useLocation();
  return (
    <>
      <header className="app-header watch-tower-header">
        <div className="header-row">
          <Link href="/" className="logo" aria-label="Watch Tower dashboard">
            <span className="logo-mark logo-mark-tower" aria-hidden="true" />
            <span className="logo-name">Watch Tower</span>
          </Link>
          <nav aria-label="Watch Tower" className="app-tabs app-tabs-inline">
            <ul>
              <li>
                <NavLink href="/" label="Dashboard" exact />
              </li>
              <li>
                <NavLink href="/accounts" label="Accounts" />
              </li>
            </ul>
          </nav>
          <div className="header-spacer" />
          <button type="button" className="btn btn-secondary" onClick={() => navigate('~/')}>
            Back to my account
          </button>
        </div>
      </header>
      <Suspense fallback={<LoadingPanel />}>
        <Switch>
          <Route path="/" component={Dashboard} />
          <Route path="/accounts" component={Accounts} />
          <Route path="/accounts/:id">{(params) => <Account id={params.id} />}</Route>
          <Route component={NotFoundPage} />
        </Switch>
      </Suspense>
    </>
  );
}
