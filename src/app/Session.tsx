import { useAtom, useAtomValue, useSetAtom } from 'jotai';
import { Suspense, useEffect, useState } from 'react';
import { useLocation, useRoute } from 'wouter';
import type { Bootstrap } from '../../api/contract/session';
import type { AppStartAnswer } from '../../api/contract/billing';
import { ApiError, JWT_EXPIRED, SESSION_REVOKED, errorMessage, isTransient } from '../api/client';
import { useApi } from '../api/hooks';
import { bootstrapAtom, setAppBillingAtom, tokenAtom } from '../state/session';
import { rememberAppFromQuery, takeAppToStart } from '../state/start-app';
import { LoadingPanel } from '../ui/Spinner';
import { toast } from '../ui/Toast';
import { applyBrandColor } from './brand';
import { useHost } from './host-context';
import { SsoCallbackPage } from './pages';
import { SignedOutRoutes } from './routes';
import { Shell } from './Shell';

type BootstrapState = { bootstrap: Bootstrap | null; failure: unknown; retry: () => void };

/**
 * Loads the bootstrap for the current token. Only the server refusing the token ends the
 * session; with no answer or a server fault the token is kept and the user can retry.
 */
function useBootstrap(): BootstrapState {
  const token = useAtomValue(tokenAtom);
  const [bootstrap, setBootstrap] = useAtom(bootstrapAtom);
  const setToken = useSetAtom(tokenAtom);
  const api = useApi();
  const [failure, setFailure] = useState<unknown>(null);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    if (!token || bootstrap) return;
    const controller = new AbortController();
    setFailure(null);
    api.get<Bootstrap>('admins/bootstrap', { signal: controller.signal }).then(
      (answer) => !controller.signal.aborted && setBootstrap(answer),
      (error) => {
        if (controller.signal.aborted) return;
        if (isTransient(error) || !(error instanceof ApiError)) {
          setFailure(error);
          return;
        }
        // An ended session is handled by the client for every call: token cleared, back to /?expired=true.
        if (error.code === JWT_EXPIRED || error.code === SESSION_REVOKED) return;
        if (error.status !== 401) {
          setFailure(error);
          return;
        }
        setToken(null);
        toast.error('Your session could not be loaded', errorMessage(error, 'Please sign in again.'));
      },
    );
    return () => controller.abort();
  }, [api, token, bootstrap, setBootstrap, setToken, attempt]);

  useEffect(() => applyBrandColor(bootstrap?.branding.color), [bootstrap?.branding.color]);
  return { bootstrap, failure, retry: () => setAttempt((n) => n + 1) };
}

/** The console could not load the account, but the session is intact: say so and offer a retry. */
function BootstrapFailure({ failure, retry }: { failure: unknown; retry: () => void }) {
  const setToken = useSetAtom(tokenAtom);
  return (
    <main className="public-main">
      <div className="card public-card" role="alert">
        <h1 className="page-title">Your account could not be loaded</h1>
        <p>{errorMessage(failure)}</p>
        <p className="muted">You are still signed in.</p>
        {/* plain buttons: this screen is in the first load, where the Button primitive is not */}
        <div className="form-actions">
          <button type="button" className="btn btn-primary" onClick={retry}>
            Retry
          </button>
          <button type="button" className="btn btn-ghost" onClick={() => setToken(null)}>
            Sign out
          </button>
        </div>
      </div>
    </main>
  );
}

/** 'app start': opens (and if need be starts the free trial of) the app a sign-in link named. */
function useAppStart(bootstrap: Bootstrap | null) {
  const api = useApi();
  const setAppBilling = useSetAtom(setAppBillingAtom);
  const [, navigate] = useLocation();
  const loaded = Boolean(bootstrap);
  useEffect(() => {
    if (!loaded) return;
    const app = takeAppToStart();
    if (!app) return;
    api.post<AppStartAnswer>('apps/start', { app }).then(
      (answer) => {
        setAppBilling({ app: answer.app, billing: answer.billing });
        navigate(`/${answer.app}`);
      },
      (error) => toast.error('Could not open the app', errorMessage(error, 'Please try again later')),
    );
  }, [api, loaded, navigate, setAppBilling]);
}

function SignedIn() {
  const { bootstrap, failure, retry } = useBootstrap();
  useAppStart(bootstrap);
  if (!bootstrap && failure) return <BootstrapFailure failure={failure} retry={retry} />;
  if (!bootstrap) return <LoadingPanel label="Loading your account" />;
  return <Shell />;
}

/** Keeps the browser tab's title naming the page on screen (the naming loads on demand, off the first load). */
function useDocumentTitle(signedIn: boolean) {
  const [location] = useLocation();
  useEffect(() => {
    let live = true;
    void import('./title').then(({ pageTitle }) => {
      if (live) document.title = pageTitle(location, signedIn);
    });
    return () => {
      live = false;
    };
  }, [location, signedIn]);
}

/** Picks what to show for the session: the SSO return page, the sign-in routes or the console. */
export function Session() {
  const host = useHost();
  const token = useAtomValue(tokenAtom);
  const [onSsoCallback] = useRoute('/sso/callback');
  useEffect(() => rememberAppFromQuery(window.location.search), []);
  useDocumentTitle(Boolean(token));

  if (onSsoCallback) {
    // the page brings its own <main>: an agent's card is a main of its own
    return (
      <Suspense fallback={<LoadingPanel />}>
        <SsoCallbackPage />
      </Suspense>
    );
  }
  if (token) return <SignedIn />;
  // Inside a desktop host the host signs in: there is no sign-in page to show meanwhile.
  if (host.embedded) return null;
  return (
    <main className="public-main">
      <Suspense fallback={<LoadingPanel />}>
        <SignedOutRoutes />
      </Suspense>
    </main>
  );
}
