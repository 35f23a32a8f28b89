import { useCallback, useEffect, useRef, useState } from 'react';
import { useSetAtom } from 'jotai';
import {
  challengeName,
  DNS_CHECK_FAILED_MESSAGE,
  DNS_INVALID,
  DNS_INVALID_MESSAGE,
  DOMAIN_RECHECK_SECONDS,
  DOMAIN_TAKEN,
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
import { ScrollArea } from '../../../ui/ScrollArea';
import { LoadingPanel } from '../../../ui/Spinner';
import { toast } from '../../../ui/Toast';
import { useFormErrors } from '../../../ui/form';
import { copyToClipboard } from '../clipboard';

/** What a failed check says: DNS not there yet, the domain proven by another account, or the check itself went wrong. */
export function checkFailureMessage(err: unknown): string {
  if (err instanceof ApiError && err.code === DNS_INVALID) return DNS_INVALID_MESSAGE;
  if (err instanceof ApiError && err.code === DOMAIN_TAKEN) return err.message;
  return DNS_CHECK_FAILED_MESSAGE;
}

/** Which records the last check did not find (the server names them in a DNS_INVALID answer). */
export type MissingRecords = { cname: boolean; txt: boolean } | null;
export function missingRecordsOf(err: unknown): MissingRecords {
  if (!(err instanceof ApiError && err.code === DNS_INVALID && err.fields)) return null;
  return { cname: 'cname' in err.fields, txt: 'txt' in err.fields };
}

/** Which records are still missing, in words (docs/settings.md promises the screen says so). */
export function missingRecordsText(missing: MissingRecords): string | null {
  if (!missing || (!missing.cname && !missing.txt)) return null;
  if (missing.cname && missing.txt) return 'Not found yet: the CNAME record and the TXT record.';
  return missing.cname
    ? 'Not found yet: the CNAME record. The TXT record is in place.'
    : 'Not found yet: the TXT record. The CNAME record is in place.';
}

/** What is wrong with a typed domain, in words; null when it can be verified. */
export function domainProblem(value: string): string | null {
  if (!value || isValidDomain(value)) return null;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value) || value.includes('/'))
    return 'Enter the domain only, without https:// or a path, e.g. console.yourcompany.com.';
  if (value.includes('@')) return 'Enter a domain, not an e-mail address.';
  if (/\s/.test(value)) return 'A domain cannot contain spaces.';
  if (/[A-Z]/.test(value)) return `Use lowercase letters: ${value.toLowerCase()}`;
  if (/[^a-z0-9.-]/.test(value)) return 'Use only letters, digits, dots and hyphens.';
  if (!value.includes('.')) return 'Add the top-level domain, e.g. .com.';
  if (/(^[.-])|([.-]$)|([.-]{2})/.test(value)) return 'Each part between dots must start and end with a letter or digit.';
  if (!/\.[a-z]{2,5}$/.test(value)) return 'End with a top-level domain of 2 to 5 letters, such as .com or .io.';
  if (value.length > 253) return 'A domain can be at most 253 characters long.';
  return 'Enter a domain such as console.yourcompany.com.';
}

type Dns = { target: string; challenge: string };

function RecordRow({
  type,
  name,
  value,
  label,
  testId,
  missing,
}: {
  type: string;
  name: string;
  value: string;
  label: string;
  testId: string;
  missing?: boolean;
}) {
  return (
    <tr>
      <td>{type}</td>
      <td>
        <code>{name}</code>
      </td>
      <td>
        <code className="key-value" data-testid={testId}>
          {value}
        </code>{' '}
        <Button
          size="sm"
          aria-label={`Copy the ${type} value`}
          disabled={!value}
          onClick={() => copyToClipboard(label, value)}
          successLabel="Copied"
        >
          Copy
        </Button>
      </td>
      {missing !== undefined && (
        <td data-testid={`${type.toLowerCase()}-status`}>
          {missing ? <span className="badge">Not found yet</span> : <span className="badge badge-subscription">Found</span>}
        </td>
      )}
    </tr>
  );
}

/** The two records at the customer's DNS provider: the CNAME to our host and the TXT ownership proof. */
function DnsInstructions({ domain, dns, missing }: { domain: string; dns: Dns; missing?: MissingRecords }) {
  const name = domain || 'your domain';
  return (
    <div className="dns-record">
      <p>Add these two records at your DNS provider. The TXT record proves that the domain belongs to this account.</p>
      <ScrollArea label="DNS records" className="table-wrap">
        <table className="table">
          <caption className="sr-only">DNS records</caption>
          <thead>
            <tr>
              <th scope="col">Type</th>
              <th scope="col">Name</th>
              <th scope="col">Value</th>
              {missing && <th scope="col">Last check</th>}
            </tr>
          </thead>
          <tbody>
            <RecordRow
              type="CNAME"
              name={name}
              value={dns.target}
              label="CNAME value"
              testId="cname-target"
              missing={missing ? missing.cname : undefined}
            />
            <RecordRow
              type="TXT"
              name={challengeName(name)}
              value={dns.challenge}
              label="TXT value"
              testId="txt-value"
              missing={missing ? missing.txt : undefined}
            />
          </tbody>
        </table>
      </ScrollArea>
    </div>
  );
}

type Update = (domain: string | null) => Promise<Branding>;

function SetupForm({ dns, update }: { dns: Dns; update: Update }) {
  const [domain, setDomain] = useState('');
  const formErrors = useFormErrors();
  const error = formErrors.errors.domain;
  const valid = isValidDomain(domain);
  const problem = domainProblem(domain);
  const verify = async () => {
    formErrors.clear();
    try {
      await update(domain);
    } catch (err) {
      if (err instanceof ApiError && err.code === DNS_INVALID) throw err;
      // refused (taken, not allowed): said on the field; the check not reaching DNS: the button says "Not verified yet"
      if (err instanceof ApiError && err.status < 500 && err.code !== 'UNEXPECTED_STATUS')
        throw formErrors.invalid({ domain: err.message });
      formErrors.invalid({ domain: DNS_CHECK_FAILED_MESSAGE });
      throw err;
    }
  };
  return (
    <Card title="Set up a custom domain">
      <p>
        Serve the console from your own domain, for example <code>console.yourcompany.com</code>.
      </p>
      <form className="form" noValidate onSubmit={(e) => e.preventDefault()} ref={formErrors.ref}>
        <TextField
          label="Domain"
          value={domain}
          placeholder="console.yourcompany.com"
          autoComplete="off"
          spellCheck={false}
          hint="Lowercase letters, digits, dots and hyphens, ending in a top-level domain such as .com."
          error={problem ?? error}
          onChange={(e) => {
            formErrors.clear();
            setDomain(e.target.value.trim());
          }}
        />
        {/* only a valid domain goes into the records to copy: a typo there would be copied too */}
        <DnsInstructions domain={valid ? domain : ''} dns={dns} />
        <div className="form-actions">
          <Button
            variant="primary"
            type="submit"
            disabled={!valid}
            onClick={verify}
            successLabel="Verified"
            failureLabel="Not verified yet"
          >
            Verify domain
          </Button>
        </div>
      </form>
    </Card>
  );
}

/** Seconds left until the next automatic check; pauses while a check runs. */
function useCountdown(seconds: number, onZero: () => Promise<void>, startNow = false) {
  const [left, setLeft] = useState(startNow ? 0 : seconds);
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

function Verifying({
  domain,
  dns,
  update,
  onRemove,
  firstMissing,
}: {
  domain: string;
  dns: Dns;
  update: Update;
  onRemove: () => void;
  firstMissing: MissingRecords;
}) {
  const [status, setStatus] = useState<string>(DNS_INVALID_MESSAGE);
  const [missing, setMissing] = useState<MissingRecords>(firstMissing);
  const check = async () => {
    try {
      await update(domain);
    } catch (err) {
      setStatus(checkFailureMessage(err));
      setMissing(missingRecordsOf(err));
    }
  };
  const missingText = missingRecordsText(missing);
  // arriving with nothing known about the records (a reload), check at once so the screen can name them
  const { left, checking, runNow } = useCountdown(DOMAIN_RECHECK_SECONDS, check, firstMissing === null);
  return (
    <Card title="Verifying your domain">
      <p>
        We are checking the DNS settings of <strong>{domain}</strong>. This generally takes 1-2 minutes.
      </p>
      <p className="notice notice-warning">DNS changes can take up to 48 hours to propagate, depending on your DNS provider.</p>
      <DnsInstructions domain={domain} dns={dns} missing={missing} />
      <div role="status" data-testid="domain-status">
        <p className="muted">{status}</p>
        {missingText && (
          <p className="notice" data-testid="domain-missing">
            {missingText}
          </p>
        )}
      </div>
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
  const [lastMissing, setLastMissing] = useState<MissingRecords>(null);
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
      setLastMissing(missingRecordsOf(err));
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
      toast.error('The domain could not be removed', errorMessage(err), err);
      throw err;
    }
  };

  const dns: Dns = { target: query.data?.cnameTarget ?? '', challenge: query.data?.domainChallenge ?? '' };
  return (
    <div className="page">
      <h1 className="page-title">Domain</h1>
      <p className="page-lead">
        Point a domain of your own at the console with a CNAME record, and prove it is yours with a TXT record.
      </p>
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
        <SetupForm dns={dns} update={update} />
      ) : current.domainIsVerified ? (
        <Active domain={current.domain} onRemove={() => setConfirmRemove(true)} />
      ) : (
        <Verifying
          key={current.domain}
          domain={current.domain}
          dns={dns}
          update={update}
          onRemove={() => setConfirmRemove(true)}
          firstMissing={lastMissing}
        />
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
