import { useState, type FormEvent } from 'react';
import { Link, useSearch } from 'wouter';
import {
  ACCOUNT_EXISTS,
  SSO_NOT_CONFIGURED,
  SsoAuthorizeBodySchema,
  type SsoAuthorizeAnswer,
} from '../../../api/contract/sign-in';
import { ApiError, errorMessage } from '../../api/client';
import { useApi } from '../../api/hooks';
import { Button } from '../../ui/Button';
import { TextField } from '../../ui/Field';
import { check, useFormErrors } from '../../ui/form';
import { ProviderButtons } from './ProviderButtons';
import { ACCOUNT_EXISTS_MESSAGE, ProviderReturn, UNKNOWN_ERROR } from './ProviderReturn';

export const INVALID_EMAIL = 'Please provide a valid email address';
export const SSO_NOT_CONFIGURED_MESSAGE = 'SSO is not configured for this email address';

/** A refusal the provider return left in the query (`error`, `error_description`). */
function returnedError(params: URLSearchParams): string | null {
  const code = params.get('error');
  if (!code) return null;
  if (code === ACCOUNT_EXISTS) return ACCOUNT_EXISTS_MESSAGE;
  return params.get('error_description')?.slice(0, 300) || UNKNOWN_ERROR;
}

export default function SignInPage() {
  const params = new URLSearchParams(useSearch());
  const code = params.get('code');
  const state = params.get('state');
  if (code && state) return <ProviderReturn body={{ code, state, iss: params.get('iss') ?? undefined }} />;
  return <SignInForm expired={params.has('expired')} refused={returnedError(params)} />;
}

function SignInForm({ expired, refused }: { expired: boolean; refused: string | null }) {
  const api = useApi();
  const [email, setEmail] = useState('');
  const formErrors = useFormErrors();

  const signInWithSso = async () => {
    const checked = check(SsoAuthorizeBodySchema, { email });
    if (!checked.ok) throw formErrors.invalid(checked.fields);
    formErrors.clear();
    try {
      const { url } = await api.post<SsoAuthorizeAnswer>('sso/oauth/authorize', checked.value);
      window.location.assign(url);
    } catch (e) {
      // every refusal is about the address typed: said under it, the button keeps its label
      throw formErrors.invalid({
        email: e instanceof ApiError && e.code === SSO_NOT_CONFIGURED ? SSO_NOT_CONFIGURED_MESSAGE : errorMessage(e),
      });
    }
  };

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    signInWithSso().catch(() => undefined);
  };

  return (
    <div className="public-card card">
      <div className="public-brand">
        <span className="logo-mark" aria-hidden="true" /> Switchboard
      </div>
      <h1 className="page-title">Sign in</h1>
      {expired && (
        <p className="notice notice-warning" role="alert">
          Your session has expired. Please sign in again.
        </p>
      )}
      {refused && (
        <p className="notice notice-error" role="alert">
          {refused}
        </p>
      )}
      <ProviderButtons />
      <div className="divider" role="separator">
        <span>or</span>
      </div>
      <form onSubmit={onSubmit} noValidate ref={formErrors.ref}>
        <TextField
          label="Work email"
          type="email"
          name="email"
          autoComplete="email"
          value={email}
          error={formErrors.errors.email}
          onChange={(e) => {
            setEmail(e.target.value);
            formErrors.clear();
          }}
        />
        <Button variant="primary" className="btn-block" onClick={signInWithSso} successLabel="Redirecting…">
          Sign in using SSO
        </Button>
      </form>
      <p className="public-footer muted">
        New to Switchboard? <Link href="/sign-up">Create an account</Link>
      </p>
    </div>
  );
}
