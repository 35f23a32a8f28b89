import { useState } from 'react';
import { useAtomValue } from 'jotai';
import { maskSecretKey, maskWebhookSecret, SIGNATURE_HEADER, type DeveloperKeys, type RotatableKey, type RotateKey } from '../../../../api/contract/developers';
import { errorMessage } from '../../../api/client';
import { useApi, useQuery } from '../../../api/hooks';
import { OpenInBrowser } from '../../../app/OpenInBrowser';
import { bootstrapAtom } from '../../../state/session';
import { Button } from '../../../ui/Button';
import { Card } from '../../../ui/Card';
import { ConfirmDialog } from '../../../ui/ConfirmDialog';
import { LoadingPanel } from '../../../ui/Spinner';
import { toast } from '../../../ui/Toast';
import { copyToClipboard } from '../clipboard';

/** What each rotation is called on screen, and what its confirmation warns about. */
const ROTATION_TEXT: Record<RotatableKey, { label: string; success: string; effect: string }> = {
  secretKey: {
    label: 'Secret key',
    success: 'The secret key has been rotated',
    effect: 'API calls made with the current secret key will be refused. Update your servers with the new key right away.',
  },
  webhookSecret: {
    label: 'Webhook secret',
    success: 'The webhook secret has been rotated',
    effect: 'Webhook requests will be signed with the new secret, so receivers that check signatures with the current secret will reject them until they are updated.',
  },
};

function KeyRow({ label, shown, value, hint, onRotate }: { label: string; shown: string; value: string | null; hint?: string; onRotate?: () => void }) {
  return (
    <div className="key-row">
      <dt>{label}</dt>
      <dd>
        <code className="key-value" data-testid={`key-${label}`}>
          {shown}
        </code>
        {value !== null && (
          <Button size="sm" aria-label={`Copy ${label}`} onClick={() => copyToClipboard(label, value)} successLabel="Copied">
            Copy
          </Button>
        )}
        {onRotate && (
          <Button size="sm" variant="ghost" aria-label={`Rotate ${label}`} onClick={onRotate}>
            Rotate
          </Button>
        )}
        {hint && <p className="field-hint">{hint}</p>}
      </dd>
    </div>
  );
}

export const VERIFY_SAMPLE = `import crypto from 'node:crypto';

// rawBody: the request body exactly as received (a Buffer), before any JSON parsing
function isFromSwitchboard(rawBody, signatureHeader, webhookSecret) {
  const expected = crypto.createHmac('sha256', webhookSecret).update(rawBody).digest('hex');
  const given = Buffer.from(signatureHeader ?? '', 'hex');
  return given.length === 32 && crypto.timingSafeEqual(given, Buffer.from(expected, 'hex'));
}

// Express: app.post('/webhooks', express.raw({ type: '*/*' }), (req, res) => {
//   if (!isFromSwitchboard(req.body, req.get('${SIGNATURE_HEADER}'), process.env.WEBHOOK_SECRET)) return res.sendStatus(401);
//   const event = JSON.parse(req.body); ...
// });`;

export default function Developers() {
  const bootstrap = useAtomValue(bootstrapAtom);
  const api = useApi();
  const query = useQuery('developer-keys', (a, signal) => a.get<DeveloperKeys>('/accounts/developer', { signal }));
  const [rotated, setRotated] = useState<DeveloperKeys | null>(null);
  const [rotating, setRotating] = useState<RotatableKey | null>(null);
  const keys = { ...query, data: rotated ?? query.data };

  const rotate = async (key: RotatableKey) => {
    try {
      const body: RotateKey = { key };
      setRotated(await api.post<DeveloperKeys>('/accounts/developer/rotate', body));
      toast.success(ROTATION_TEXT[key].success);
    } catch (err) {
      toast.error(`The ${ROTATION_TEXT[key].label.toLowerCase()} could not be rotated`, errorMessage(err));
      throw err;
    }
  };
  return (
    <div className="page">
      <div className="page-header">
        <h1 className="page-title">Developers</h1>
        <OpenInBrowser path="/settings/developers" />
      </div>
      <p className="page-lead">Keys for the widget, the API and webhooks of this account. Keep the secret key and the webhook secret out of browsers and source code.</p>
      <Card title="Keys">
        {keys.error ? (
          <div role="alert">
            <p>{errorMessage(keys.error, 'The keys could not be loaded.')}</p>
            <Button onClick={keys.reload}>Try again</Button>
          </div>
        ) : !keys.data ? (
          <LoadingPanel label="Loading keys" />
        ) : (
          <dl className="key-list">
            {bootstrap && <KeyRow label="Account ID" shown={bootstrap.account.id} value={bootstrap.account.id} />}
            <KeyRow label="Widget key" shown={keys.data.widgetKey} value={keys.data.widgetKey} hint="Public: goes into the pages that embed the widget." />
            <KeyRow
              label="Secret key"
              shown={maskSecretKey(keys.data.secretKey)}
              value={keys.data.revealed ? keys.data.secretKey : null}
              hint={keys.data.revealed ? 'For calls from your servers to the API.' : 'For calls from your servers to the API. Hidden in ghost mode: only the account\'s own admins can copy it.'}
              onRotate={() => setRotating('secretKey')}
            />
            <KeyRow
              label="Webhook secret"
              shown={maskWebhookSecret()}
              value={keys.data.revealed ? keys.data.webhookSecret : null}
              hint={keys.data.revealed ? 'Signs the webhook requests we send you.' : 'Signs the webhook requests we send you. Hidden in ghost mode.'}
              onRotate={() => setRotating('webhookSecret')}
            />
          </dl>
        )}
      </Card>
      <ConfirmDialog
        open={rotating !== null}
        title={rotating ? `Rotate the ${ROTATION_TEXT[rotating].label.toLowerCase()}?` : ''}
        description={
          rotating ? `A new ${ROTATION_TEXT[rotating].label.toLowerCase()} replaces the current one, which stops working at once. ${ROTATION_TEXT[rotating].effect}` : ''
        }
        confirmLabel="Rotate"
        onConfirm={() => (rotating ? rotate(rotating) : undefined)}
        onCancel={() => setRotating(null)}
      />
      <Card title="Verifying webhooks">
        <p>
          Every webhook request carries an <code>{SIGNATURE_HEADER}</code> header: the HMAC-SHA256 of the raw request body, keyed with your webhook secret (the
          whole <code>whsec_…</code> value), as lowercase hex. Compute the same value over the body exactly as received and compare it in constant time; reject the
          request when they differ.
        </p>
        {/* a wide sample scrolls sideways: focusable so the keyboard can scroll it too */}
        <pre className="code-sample" tabIndex={0} role="region" aria-label="Signature verification sample">
          <code>{VERIFY_SAMPLE}</code>
        </pre>
      </Card>
    </div>
  );
}
