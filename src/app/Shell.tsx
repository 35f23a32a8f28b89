import { Suspense } from 'react';
import { useLocation } from 'wouter';
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
    </>
  );
}
