import { useSetAtom } from 'jotai';
import { useEffect, useRef } from 'react';
import { useLocation } from 'wouter';
import type { TokenAnswer } from '../../../api/contract/session';
import type { OAuthCallbackBody } from '../../../api/contract/sign-in';
import { ACCOUNT_EXISTS } from '../../../api/contract/sign-in';
import { ApiError } from '../../api/client';
import { useApi } from '../../api/hooks';
import { tokenAtom } from '../../state/session';
import { Spinner } from '../../ui/Spinner';

export const ACCOUNT_EXISTS_MESSAGE =
  'An account already exists for your company. Please contact your administrator to get access.';
export const UNKNOWN_ERROR = 'An unknown error occurred';

/** What to tell someone whose provider sign-in was refused. */
export function signInErrorMessage(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.code === ACCOUNT_EXISTS) return ACCOUNT_EXISTS_MESSAGE;
    if (error.status >= 400 && error.status < 500 && error.message) return error.message;
  }
  return UNKNOWN_ERROR;
}

/**
 * The Google-type provider sends the browser back to `/` with a code: trade it for a session
 * (the server checks the state against this browser's cookie), or return to sign-in with why.
 */
export function ProviderReturn({ body }: { body: OAuthCallbackBody }) {
  const api = useApi();
  const setToken = useSetAtom(tokenAtom);
  const [, navigate] = useLocation();
  // A code is single-use: never post it twice, even if the effect runs again.
  const posted = useRef(false);

  useEffect(() => {
    if (posted.current) return;
    posted.current = true;
    api.post<TokenAnswer>('oauth/google/callback', body).then(
      ({ token }) => {
        navigate('/', { replace: true });
        setToken(token);
      },
      (e: unknown) => {
        const code = e instanceof ApiError ? e.code : 'UNKNOWN';
        navigate(`/?${new URLSearchParams({ error: code, error_description: signInErrorMessage(e) })}`, { replace: true });
      },
    );
  }, [api, body, navigate, setToken]);

  return (
    <div className="public-card card sso-callback">
      <div className="sso-progress">
        <Spinner label="Signing in" size="lg" />
        <p>Logging you in...</p>
      </div>
    </div>
  );
}
