import { useAtom, useAtomValue, useSetAtom } from 'jotai';
import { Suspense, useEffect, useRef, useState } from 'react';
import { useLocation, useRoute } from 'wouter';
import type { Bootstrap } from '../../api/contract/session';
import type { AppStartAnswer } from '../../api/contract/billing';
import { ApiError, JWT_EXPIRED, NETWORK_ERROR, SESSION_REVOKED, TIMEOUT, errorMessage, isTemporary } from '../api/client';
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

type BootstrapState = { bootstrap: Bootstrap | null; failure: unknown; retryAt: number | null; retry: () => void };

/** Waits between reconnect attempts when the server names none: 1 s, doubling, at most 30 s. */
export const RECONNECT_FIRST_MS = 1_000;
export const RECONNECT_LAST_MS = 30_000;

/**
 * Loads the bootstrap for the current token (SPEC §8). A definitive answer that is not the
 * bootstrap (any 4xx, a 500) ends the session: the token is cleared and sign-in shown. A
 * temporary one (no answer, 429/503 with Retry-After, a gateway's 502/504) is not a failure
 * yet: the session is kept, the reconnect state shown, and the call retried after the server's
 * Retry-After or a growing wait, so a database restart never signs anyone out.
 */
function useBootstrap(): BootstrapState {
  const token = useAtomValue(tokenAtom);
  const [bootstrap, setBootstrap] = useAtom(bootstrapAtom);
  const setToken = useSetAtom(tokenAtom);
  const api = useApi();
  const [failure, setFailure] = useState<unknown>(null);
  const [attempt, setAttempt] = useState(0);
  const [retryAt, setRetryAt] = useState<number | null>(null);
  const waits = useRef(0);

  useEffect(() => {
    if (!token || bootstrap) return;
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    api.get<Bootstrap>('admins/bootstrap', { signal: controller.signal }).then(
      (answer) => {
        if (controller.signal.aborted) return;
        waits.current = 0;
        setFailure(null);
        setRetryAt(null);
        setBootstrap(answer);
      },
      (error) => {
        if (controller.signal.aborted) return;
        if (isTemporary(error)) {
          const backOff = Math.min(RECONNECT_FIRST_MS * 2 ** waits.current++, RECONNECT_LAST_MS);
          const wait = error instanceof ApiError && error.retryAfter !== undefined ? error.retryAfter * 1000 : backOff;
          setFailure(error);
          setRetryAt(Date.now() + wait);
          timer = setTimeout(() => setAttempt((n) => n + 1), wait);
          return;
        }
        if (!(error instanceof ApiError)) {
          // not an answer from the server at all (the console's own fault): keep the session
          setFailure(error);
          setRetryAt(null);
          return;
        }
        // An ended session is handled by the client for every call: token cleared, back to /?expired=true.
        if (error.code === JWT_EXPIRED || error.code === SESSION_REVOKED) return;
        setToken(null);
        toast.error('Your session could not be loaded', errorMessage(error, 'Please sign in again.'), error);
      },
    );
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [api, token, bootstrap, setBootstrap, setToken, attempt]);

  useEffect(() => applyBrandColor(bootstrap?.branding.color), [bootstrap?.branding.color]);
  return { bootstrap, failure, retryAt, retry: () => setAttempt((n) => n + 1) };
}

/** Seconds left until `at`, ticking each second. */
function useSecondsUntil(at: number | null): number | null {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (at === null) return;
    setNow(Date.now());
    const tick = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(tick);
  }, [at]);
  return at === null ? null : Math.max(0, Math.ceil((at - now) / 1000));
}

/**
 * The console could not load the account, but the session is intact: say so and offer a retry.
 * With a retry scheduled this is the reconnect state: it counts down and tries by itself.
 */
function BootstrapFailure({ failure, retryAt, retry }: { failure: unknown; retryAt: number | null; retry: () => void }) {
  const setToken = useSetAtom(tokenAtom);
  const seconds = useSecondsUntil(retryAt);
  const noAnswer = failure instanceof ApiError && (failure.code === NETWORK_ERROR || failure.code === TIMEOUT);
  const reconnecting = retryAt !== null;
  return (
    <main className="public-main">
      <div className="card public-card" role={reconnecting ? 'status' : 'alert'}>
        <h1 className="page-title">{reconnecting ? 'Reconnecting…' : 'Your account could not be loaded'}</h1>
        <p>{reconnecting && !noAnswer ? 'The server is busy or restarting.' : errorMessage(failure)}</p>
        <p className="muted">
          You are still signed in.
          {seconds !== null && ` Trying again in ${seconds} s.`}
        </p>
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
      (error) => toast.error('Could not open the app', errorMessage(error, 'Please try again later'), error),
    );
  }, [api, loaded, navigate, setAppBilling]);
}

function SignedIn() {
  const { bootstrap, failure, retryAt, retry } = useBootstrap();
  useAppStart(bootstrap);
  if (!bootstrap && failure) return <BootstrapFailure failure={failure} retryAt={retryAt} retry={retry} />;
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
