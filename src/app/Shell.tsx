import { Suspense } from 'react';
import { Link, useLocation } from 'wouter';
import { LoadingPanel } from '../ui/Spinner';
import { GhostBanner } from './GhostBanner';
import { Header } from './Header';
import { SignedInRoutes } from './routes';

/** The signed-in console: ghost banner, header (Watch Tower has its own) and the page. */
export function Shell() {
  const [location] = useLocation();
  const inWatchTower = location === '/watch-tower' || location.startsWith('/watch-tower/');
  return (
    <>
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <GhostBanner />
      {!inWatchTower && <Header />}
      <main id="main" className="main" tabIndex={-1}>
        <Suspense fallback={<LoadingPanel />}>
          <SignedInRoutes />
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
