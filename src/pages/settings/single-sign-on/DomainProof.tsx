import { useState } from 'react';
import type { SsoSettings } from '../../../../api/contract/sso';
import { ApiError, errorMessage } from '../../../api/client';
import { useApi } from '../../../api/hooks';
import { Button } from '../../../ui/Button';
import { Card } from '../../../ui/Card';
import { toast } from '../../../ui/Toast';
import { copyToClipboard } from '../clipboard';

// Single sign-on routes everyone with an e-mail in the domain to this account's provider, so
// the domain must be proven first: the same TXT record the custom domain uses. Until then the
// connection is saved but sends nobody anywhere, and holds the domain against nobody.

function Row({ label, value, copyLabel }: { label: string; value: string; copyLabel: string }) {
  return (
    <div>
      <dt>{label}</dt>
      <dd>
        <code className="key-value">{value}</code>{' '}
        <Button
          size="sm"
          aria-label={`Copy the TXT record ${label.toLowerCase()}`}
          onClick={() => copyToClipboard(copyLabel, value)}
          successLabel="Copied"
        >
          Copy
        </Button>
      </dd>
    </div>
  );
}

export function DomainProof({ settings, onVerified }: { settings: SsoSettings; onVerified: (s: SsoSettings) => void }) {
  const api = useApi();
  const [error, setError] = useState<string | null>(null);
  const proof = settings.domainProof;
  const provider = settings.provider;
  if (!proof || !provider) return null;
  const domain = settings[provider]?.domain ?? '';

  const verify = async () => {
    setError(null);
    try {
      const next = await api.post<SsoSettings>('sso/verify', {});
      toast.success(`${domain} has been verified`);
      onVerified(next);
    } catch (err) {
      setError(err instanceof ApiError ? err.message : errorMessage(err, 'The domain could not be checked. Please try again.'));
      throw err;
    }
  };

  if (proof.verified) {
    return (
      <Card title="Domain verification" data-testid="sso-domain-proof">
        <p>
          <span className="badge badge-subscription">Verified</span> People with an e-mail address at <strong>{domain}</strong>{' '}
          sign in through this provider.
        </p>
      </Card>
    );
  }
  return (
    <Card title="Domain verification" data-testid="sso-domain-proof">
      <p>
        <span className="badge">Not verified</span> Nobody is sent to this provider until you prove that <strong>{domain}</strong>{' '}
        is yours.
      </p>
      <p>Add this TXT record at your DNS provider, then select Verify. DNS changes can take a few minutes to reach everyone.</p>
      <dl className="sso-summary">
        <Row label="Name" value={proof.name} copyLabel="TXT record name" />
        <Row label="Value" value={proof.value} copyLabel="TXT record value" />
      </dl>
      {error && (
        <p className="notice notice-error" role="alert">
          {error}
        </p>
      )}
      <Button variant="primary" onClick={verify} successLabel="Verified" failureLabel="Not verified">
        Verify
      </Button>
    </Card>
  );
}
