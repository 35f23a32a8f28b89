import { useAtomValue } from 'jotai';
import { Suspense, lazy } from 'react';
import { Link, useLocation } from 'wouter';
import { payloadAtom } from '../state/session';
import { LoadingPanel } from '../ui/Spinner';
import { Header } from './Header';
import { SignedInRoutes } from './routes';
import { CheckoutReturn } from './CheckoutReturn';

const GhostBanner = lazy(() => import('./GhostBanner'));

/** The signed-in console: ghost banner, header (Watch Tower has its own) and the page. */
export function Shell() {
  const [location] = useLocation();
  const inWatchTower = location === '/watch-tower' || location.startsWith('/watch-tower/');
  const ghost = useAtomValue(payloadAtom)?.ghost;
  return (
    <>
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      {ghost && (
        <Suspense fallback={null}>
          <GhostBanner />
        </Suspense>
      )}
      {!inWatchTower && <Header />}
      <main id="main" className="main" tabIndex={-1}>
        <Suspense fallback={<LoadingPanel />}>
          <CheckoutReturn>
            <SignedInRoutes />
          </CheckoutReturn>
        </Suspense>
      </main>
      {/* every role reaches help from every page, supervisors (who have no settings menu) included */}
      <footer className="app-footer">
        <nav aria-label="Help">
          <Link href="/support">Support</Link>
          <Link href="/resources">Resources</Link>
          <Link href="/legal/data-processing-addendum">Data Processing Addendum</Link>
        </nav>
      </footer>
    </>
  );
}
