import { useAtom, useAtomValue, useSetAtom } from 'jotai';
import { Suspense, useEffect } from 'react';
import { useLocation, useRoute } from 'wouter';
import type { Bootstrap } from '../../api/contract/session';
import type { AppStartAnswer } from '../../api/contract/billing';
import { ApiError, JWT_EXPIRED, SESSION_REVOKED, errorMessage } from '../api/client';
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

/** Loads the bootstrap for the current token; a failure clears the token. */
function useBootstrap(): Bootstrap | null {
  const token = useAtomValue(tokenAtom);
  const [bootstrap, setBootstrap] = useAtom(bootstrapAtom);
  const setToken = useSetAtom(tokenAtom);
  const api = useApi();

  useEffect(() => {
    if (!token || bootstrap) return;
    const controller = new AbortController();
    api.get<Bootstrap>('admins/bootstrap', { signal: controller.signal }).then(
      (answer) => !controller.signal.aborted && setBootstrap(answer),
      (error) => {
        if (controller.signal.aborted) return;
        // An ended session is handled by the client for every call: token cleared, back to /?expired=true.
        if (error instanceof ApiError && (error.code === JWT_EXPIRED || error.code === SESSION_REVOKED)) return;
        setToken(null);
        toast.error('Your session could not be loaded', errorMessage(error, 'Please sign in again.'));
      },
    );
    return () => controller.abort();
  }, [api, token, bootstrap, setBootstrap, setToken]);

  useEffect(() => applyBrandColor(bootstrap?.branding.color), [bootstrap?.branding.color]);
  return bootstrap;
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
  const bootstrap = useBootstrap();
  useAppStart(bootstrap);
  if (!bootstrap) return <LoadingPanel label="Loading your account" />;
  return <Shell />;
}

/** Picks what to show for the session: the SSO return page, the sign-in routes or the console. */
export function Session() {
  const host = useHost();
  const token = useAtomValue(tokenAtom);
  const [onSsoCallback] = useRoute('/sso/callback');
  useEffect(() => rememberAppFromQuery(window.location.search), []);

  if (onSsoCallback) {
    return (
      <main className="public-main">
        <Suspense fallback={<LoadingPanel />}>
          <SsoCallbackPage />
        </Suspense>
      </main>
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
