import { Suspense, lazy, useState } from 'react';
import { Link } from 'wouter';
import { Dialog } from '../../ui/Dialog';
import { ProviderButtons } from '../sign-in/ProviderButtons';

const DpaText = lazy(() => import('../legal/DpaText'));

export default function SignUpPage() {
  const [agreed, setAgreed] = useState(false);
  const [readingDpa, setReadingDpa] = useState(false);
  return (
    <div className="public-card card">
      <div className="public-brand">
        <span className="logo-mark" aria-hidden="true" /> Switchboard
      </div>
      <h1 className="page-title">Create your account</h1>
      <p className="muted">
        Sign up with your work account. Your company's Switchboard account is created with you as its owner.
      </p>
      <label className="checkbox">
        <input type="checkbox" checked={agreed} onChange={(e) => setAgreed(e.target.checked)} />
        <span>
          I agree to the {/* the provider's own terms when it has set TERMS_URL (the server redirects), else the default page */}
          <a href="/terms" target="_blank" rel="noopener noreferrer">
            terms of service<span className="sr-only"> (opens in a new tab)</span>
          </a>{' '}
          and the{' '}
          <button type="button" className="link-button" onClick={() => setReadingDpa(true)}>
            Data Processing Addendum
          </button>
        </span>
      </label>
      {!agreed && <p className="field-hint">Tick the box above to continue.</p>}
      <ProviderButtons signUp disabled={!agreed} />
      <p className="public-footer muted">
        Already have an account? <Link href="/">Sign in</Link>
      </p>
      {/* Signed-out visitors can't open /legal (only sign-in, sign-up and the SSO return are public), so the text opens here. */}
      <Dialog open={readingDpa} onClose={() => setReadingDpa(false)} title="Data Processing Addendum" size="lg">
        <Suspense fallback={null}>
          <DpaText />
        </Suspense>
      </Dialog>
    </div>
  );
}
