import { useState, type FormEvent } from 'react';
import * as v from 'valibot';
import { Link, useSearch } from 'wouter';
import { EmailSchema } from '../../../api/contract/common';
import { SSO_NOT_CONFIGURED, type SsoAuthorizeAnswer } from '../../../api/contract/sign-in';
import { ApiError, errorMessage } from '../../api/client';
import { useApi } from '../../api/hooks';
import { Button } from '../../ui/Button';
import { TextField } from '../../ui/Field';
import { ProviderButtons } from './ProviderButtons';

export const INVALID_EMAIL = 'Please provide a valid email address';
export const SSO_NOT_CONFIGURED_MESSAGE = 'SSO is not configured for this email address';

export default function SignInPage() {
  const expired = new URLSearchParams(useSearch()).has('expired');
  const api = useApi();
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);

  const signInWithSso = async () => {
    const parsed = v.safeParse(EmailSchema, email);
    if (!parsed.success) {
      setError(INVALID_EMAIL);
      throw new Error(INVALID_EMAIL);
    }
    setError(null);
    try {
      const { url } = await api.post<SsoAuthorizeAnswer>('sso/oauth/authorize', { email: parsed.output });
      window.location.assign(url);
    } catch (e) {
      setError(e instanceof ApiError && e.code === SSO_NOT_CONFIGURED ? SSO_NOT_CONFIGURED_MESSAGE : errorMessage(e));
      throw e;
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
      <ProviderButtons />
      <div className="divider" role="separator">
        <span>or</span>
      </div>
      <form onSubmit={onSubmit} noValidate>
        <TextField
          label="Work email"
          type="email"
          name="email"
          autoComplete="email"
          value={email}
          error={error}
          onChange={(e) => {
            setEmail(e.target.value);
            setError(null);
          }}
        />
        <Button variant="primary" className="btn-block" onClick={signInWithSso} successLabel="Redirecting…" failureLabel="Sign in using SSO">
          Sign in using SSO
        </Button>
      </form>
      <p className="public-footer muted">
        New to Switchboard? <Link href="/sign-up">Create an account</Link>
      </p>
    </div>
  );
}
