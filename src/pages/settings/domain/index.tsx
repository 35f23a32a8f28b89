import { useCallback, useEffect, useRef, useState } from 'react';
import { useSetAtom } from 'jotai';
import {
  DNS_CHECK_FAILED_MESSAGE,
  DNS_INVALID,
  DNS_INVALID_MESSAGE,
  DOMAIN_RECHECK_SECONDS,
  isValidDomain,
  type Branding,
  type BrandingSettings,
} from '../../../../api/contract/branding';
import { ApiError, errorMessage } from '../../../api/client';
import { useApi, useQuery } from '../../../api/hooks';
import { bootstrapAtom } from '../../../state/session';
import { Button } from '../../../ui/Button';
import { Card } from '../../../ui/Card';
import { ConfirmDialog } from '../../../ui/ConfirmDialog';
import { TextField } from '../../../ui/Field';
import { LoadingPanel } from '../../../ui/Spinner';
import { toast } from '../../../ui/Toast';

/** What a failed check says: DNS not there yet, or the check itself went wrong. */
export function checkFailureMessage(err: unknown): string {
  return err instanceof ApiError && err.code === DNS_INVALID ? DNS_INVALID_MESSAGE : DNS_CHECK_FAILED_MESSAGE;
}

function CnameInstructions({ domain, target }: { domain: string; target: string }) {
  return (
    <div className="dns-record">
      <p>Add this record at your DNS provider:</p>
      <table className="table">
        <caption className="sr-only">DNS record</caption>
        <thead>
          <tr>
            <th scope="col">Type</th>
            <th scope="col">Name</th>
            <th scope="col">Value</th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <td>CNAME</td>
            <td>
              <code>{domain || 'your domain'}</code>
            </td>
            <td>
              <code data-testid="cname-target">{target}</code>
            </td>
          </tr>
        </tbody>
      </table>
    </div>
  );
}

type Update = (domain: string | null) => Promise<Branding>;

function SetupForm({ target, update }: { target: string; update: Update }) {
  const [domain, setDomain] = useState('');
  const [error, setError] = useState<string | null>(null);
  const valid = isValidDomain(domain);
  const verify = async () => {
    setError(null);
    try {
      await update(domain);
    } catch (err) {
      if (!(err instanceof ApiError && err.code === DNS_INVALID)) setError(err instanceof ApiError && err.status < 500 && err.code !== 'UNEXPECTED_STATUS' ? err.message : DNS_CHECK_FAILED_MESSAGE);
      throw err;
    }
  };
  return (
    <Card title="Set up a custom domain">
      <p>Serve the console from your own domain, for example <code>console.yourcompany.com</code>.</p>
      <form className="form" noValidate onSubmit={(e) => e.preventDefault()}>
        <TextField
          label="Domain"
          value={domain}
          placeholder="console.yourcompany.com"
          autoComplete="off"
          spellCheck={false}
          hint="Lowercase letters, digits, dots and hyphens, ending in a top-level domain such as .com."
          error={error}
          onChange={(e) => setDomain(e.target.value.trim())}
        />
        <CnameInstructions domain={domain} target={target} />
        <div className="form-actions">
          <Button variant="primary" type="submit" disabled={!valid} onClick={verify} successLabel="Verified" failureLabel="Not verified yet">
            Verify domain
          </Button>
        </div>
      </form>
    </Card>
  );
}

/** Seconds left until the next automatic check; pauses while a check runs. */
function useCountdown(seconds: number, onZero: () => Promise<void>) {
  const [left, setLeft] = useState(seconds);
  const [checking, setChecking] = useState(false);
  const onZeroRef = useRef(onZero);
  onZeroRef.current = onZero;

  const runNow = useCallback(async () => {
    setChecking(true);
    try {
      await onZeroRef.current();
    } finally {
      setChecking(false);
      setLeft(seconds);
    }
  }, [seconds]);

  useEffect(() => {
    if (checking) return;
    if (left <= 0) {
      void runNow();
      return;
    }
    const timer = setTimeout(() => setLeft((n) => n - 1), 1000);
    return () => clearTimeout(timer);
  }, [left, checking, runNow]);

  return { left, checking, runNow };
}

function Verifying({ domain, target, update, onRemove }: { domain: string; target: string; update: Update; onRemove: () => void }) {
  const [status, setStatus] = useState<string>(DNS_INVALID_MESSAGE);
  const check = async () => {
    try {
      await update(domain);
    } catch (err) {
      setStatus(checkFailureMessage(err));
    }
  };
  const { left, checking, runNow } = useCountdown(DOMAIN_RECHECK_SECONDS, check);
  return (
    <Card title="Verifying your domain">
      <p>
        We are checking the DNS settings of <strong>{domain}</strong>. This generally takes 1-2 minutes.
      </p>
      <p className="notice notice-warning">DNS changes can take up to 48 hours to propagate, depending on your DNS provider.</p>
      <CnameInstructions domain={domain} target={target} />
      <p className="muted" role="status" data-testid="domain-status">
        {status}
      </p>
      <p aria-live="polite" data-testid="domain-countdown">
        {checking ? 'Checking DNS settings…' : `Checking again in ${left} s`}
      </p>
      <div className="form-actions">
        <Button onClick={runNow} disabled={checking}>
          Check now
        </Button>
        <Button variant="ghost" onClick={onRemove}>
          Use a different domain
        </Button>
      </div>
    </Card>
  );
}

function Active({ domain, onRemove }: { domain: string; onRemove: () => void }) {
  return (
    <Card title="Custom domain">
      <p>
        <span className="badge badge-subscription">Active</span> The console is available at{' '}
        <a href={`https://${domain}`} target="_blank" rel="noreferrer">
          https://{domain}
        </a>
        .
      </p>
      <div className="form-actions">
        <Button variant="danger" onClick={onRemove}>
          Remove domain
        </Button>
      </div>
    </Card>
  );
}

export default function DomainSettings() {
  const api = useApi();
  const setBootstrap = useSetAtom(bootstrapAtom);
  const query = useQuery('branding', (a, signal) => a.get<BrandingSettings>('/branding', { signal }));
  const [branding, setBranding] = useState<Branding | null>(null);
  const [confirmRemove, setConfirmRemove] = useState(false);
  const current = branding ?? query.data ?? null;

  const apply = (next: Branding) => {
    setBranding(next);
    setBootstrap((b) => (b ? { ...b, branding: next } : b));
  };

  /** Claims and checks the domain; a pending claim shows the verifying state even when DNS is not ready. */
  const update: Update = async (domain) => {
    try {
      const next = await api.put<Branding>('/branding/domain', { domain });
      apply(next);
      if (domain && next.domainIsVerified && !current?.domainIsVerified) toast.success('Your custom domain is active');
      return next;
    } catch (err) {
      if (domain && current && (current.domain !== domain || current.domainIsVerified)) {
        // the server keeps the claim while DNS propagates: show what it holds now
        const latest = await api.get<BrandingSettings>('/branding').catch(() => null);
        if (latest) apply(latest);
      }
      throw err;
    }
  };

  const remove = async () => {
    try {
      await update(null);
      toast.success('Custom domain has been removed');
    } catch (err) {
      toast.error('The domain could not be removed', errorMessage(err));
      throw err;
    }
  };

  const target = query.data?.cnameTarget ?? '';
  return (
    <div className="page">
      <h1 className="page-title">Domain</h1>
      <p className="page-lead">Point a domain of your own at the console with a CNAME record.</p>
      {!current ? (
        query.error ? (
          <Card>
            <p role="alert">{errorMessage(query.error, 'The domain settings could not be loaded.')}</p>
            <Button onClick={query.reload}>Try again</Button>
          </Card>
        ) : (
          <LoadingPanel label="Loading domain settings" />
        )
      ) : !current.domain ? (
        <SetupForm target={target} update={update} />
      ) : current.domainIsVerified ? (
        <Active domain={current.domain} onRemove={() => setConfirmRemove(true)} />
      ) : (
        <Verifying key={current.domain} domain={current.domain} target={target} update={update} onRemove={() => setConfirmRemove(true)} />
      )}
      <ConfirmDialog
        open={confirmRemove}
        title="Remove the custom domain?"
        description={`The console will no longer answer at ${current?.domain ?? 'this domain'}. You can set up a domain again at any time.`}
        confirmLabel="Remove domain"
        onConfirm={remove}
        onCancel={() => setConfirmRemove(false)}
      />
    </div>
  );
}
