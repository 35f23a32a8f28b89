import { useSetAtom } from 'jotai';
import { Suspense, useEffect, useRef, useState } from 'react';
import { useLocation, useSearch } from 'wouter';
import type { TokenAnswer } from '../../../api/contract/session';
import { ADMIN_NOT_FOUND, type SsoCallbackBody } from '../../../api/contract/sign-in';
import { ApiError, errorMessage } from '../../api/client';
import { useApi } from '../../api/hooks';
import { useHost } from '../../app/host-context';
import { tokenAtom } from '../../state/session';
import { isAgentToken } from '../../state/token';
import { Spinner } from '../../ui/Spinner';

export const ADMIN_NOT_FOUND_MESSAGE =
  'Please contact your account administrator to be added as an administrator on the account.';

function messageFor(error: unknown): string {
  if (error instanceof ApiError && error.code === ADMIN_NOT_FOUND) return ADMIN_NOT_FOUND_MESSAGE;
  return errorMessage(error, 'An unknown error occurred');
}

/** Where single sign-on returns: trades the code for a session, or explains what went wrong. */
export default function SsoCallbackPage() {
  const params = new URLSearchParams(useSearch());
  const code = params.get('code');
  const state = params.get('state');
  const [agentToken, setAgentToken] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(
    code && state
      ? null
      : params.get('error_description') || params.get('error') || 'The sign-in did not complete. Please try again.',
  );
  const api = useApi();
  // An SSO agent-group member gets an agent session, not the console: the host's card and Agent
  // Preview, as in Zoom and Webex, for this page only (it is not stored, so a later sign-in as an
  // admin is never shadowed by it).
  const { UnauthorizedCard } = useHost();
  const setToken = useSetAtom(tokenAtom);
  const [, navigate] = useLocation();
  // A code is single-use: never post it twice, even if the effect runs again.
  const posted = useRef(false);

  useEffect(() => {
    if (!code || !state || posted.current) return;
    posted.current = true;
    api
      .post<TokenAnswer>('sso/oauth/callback', { code, state, iss: params.get('iss') ?? undefined } satisfies SsoCallbackBody)
      .then(
        ({ token }) => {
          if (isAgentToken(token)) return setAgentToken(token);
          setToken(token);
          navigate('/', { replace: true });
        },
        (e) => setError(messageFor(e)),
      );
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the query is read once, with the code
  }, [api, code, state, navigate, setToken]);

  if (agentToken) {
    return (
      <Suspense fallback={<Spinner label="Signing in" size="lg" />}>
        <UnauthorizedCard agentToken={agentToken} />
      </Suspense>
    );
  }
  return (
    <main className="public-main">
      <div className="public-card card sso-callback">
        {error ? (
          <>
            <h1 className="page-title">Sign-in failed</h1>
            <p role="alert">{error}</p>
            <button type="button" className="btn btn-primary" onClick={() => navigate('/', { replace: true })}>
              Go back
            </button>
          </>
        ) : (
          <div className="sso-progress">
            <Spinner label="Signing in" size="lg" />
            <p>Logging you in...</p>
          </div>
        )}
      </div>
    </main>
  );
}
