import { SIGN_IN_START_PATHS, type SignInProvider } from '../../../api/contract/sign-in';

/** The provider's start, with the browser's time zone (a new account starts in it). */
function startUrl(provider: SignInProvider, signUp: boolean): string {
  const query = new URLSearchParams({
    ...(signUp ? { signup: '1' } : {}),
    timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
  });
  return `${SIGN_IN_START_PATHS[provider]}?${query}`;
}

function GoogleMark() {
  return (
    <svg width="18" height="18" viewBox="0 0 48 48" aria-hidden="true" focusable="false">
      <path
        fill="#EA4335"
        d="M24 9.5c3.5 0 6.6 1.2 9.1 3.6l6.8-6.8C35.8 2.4 30.3 0 24 0 14.6 0 6.6 5.4 2.7 13.3l7.9 6.1C12.5 13.6 17.8 9.5 24 9.5z"
      />
      <path fill="#4285F4" d="M46.5 24.5c0-1.6-.1-3.1-.4-4.5H24v9h12.7c-.6 3-2.3 5.5-4.8 7.2l7.7 6c4.5-4.2 6.9-10.3 6.9-17.7z" />
      <path
        fill="#FBBC05"
        d="M10.6 28.6A14.5 14.5 0 0 1 9.5 24c0-1.6.3-3.2.8-4.6l-7.9-6.1A24 24 0 0 0 0 24c0 3.9.9 7.5 2.6 10.7l8-6.1z"
      />
      <path
        fill="#34A853"
        d="M24 48c6.5 0 11.9-2.1 15.9-5.8l-7.7-6c-2.1 1.4-4.9 2.3-8.2 2.3-6.2 0-11.5-4.1-13.4-9.8l-8 6.1C6.6 42.6 14.6 48 24 48z"
      />
    </svg>
  );
}

function MicrosoftMark() {
  return (
    <svg width="18" height="18" viewBox="0 0 23 23" aria-hidden="true" focusable="false">
      <path fill="#F25022" d="M1 1h10v10H1z" />
      <path fill="#7FBA00" d="M12 1h10v10H12z" />
      <path fill="#00A4EF" d="M1 12h10v10H1z" />
      <path fill="#FFB900" d="M12 12h10v10H12z" />
    </svg>
  );
}

/** The Google-type and Microsoft-type sign-in buttons; each hands the browser to the provider. */
export function ProviderButtons({ signUp = false, disabled = false }: { signUp?: boolean; disabled?: boolean }) {
  const verb = signUp ? 'Sign up' : 'Sign in';
  return (
    <div className="provider-buttons">
      <button
        type="button"
        className="btn btn-secondary btn-block"
        disabled={disabled}
        onClick={() => window.location.assign(startUrl('google', signUp))}
      >
        <GoogleMark /> {verb} with Google
      </button>
      <button
        type="button"
        className="btn btn-secondary btn-block"
        disabled={disabled}
        onClick={() => window.location.assign(startUrl('azure', signUp))}
      >
        <MicrosoftMark /> {verb} with Microsoft
      </button>
    </div>
  );
}
