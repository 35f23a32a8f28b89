import { useState, type KeyboardEvent } from 'react';
import { useAtomValue } from 'jotai';
import {
  maskSecretKey,
  maskWebhookSecret,
  SIGNATURE_HEADER,
  type DeveloperKeys,
  type RotatableKey,
  type RotateKey,
} from '../../../../api/contract/developers';
import { errorMessage } from '../../../api/client';
import { useApi, useQuery } from '../../../api/hooks';
import { OpenInBrowser } from '../../../app/OpenInBrowser';
import { bootstrapAtom, payloadAtom } from '../../../state/session';
import { Button } from '../../../ui/Button';
import { Card } from '../../../ui/Card';
import { ConfirmDialog } from '../../../ui/ConfirmDialog';
import { LoadingPanel } from '../../../ui/Spinner';
import { toast } from '../../../ui/Toast';
import { copyToClipboard } from '../clipboard';
import type { ApiRateLimitUsage } from '../../../../api/contract/api-limits';

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
    effect:
      'Webhook requests will be signed with the new secret, so receivers that check signatures with the current secret will reject them until they are updated.',
  },
};

function KeyRow({
  label,
  shown,
  value,
  hint,
  onRotate,
}: {
  label: string;
  shown: string;
  value: string | null;
  hint?: string;
  onRotate?: () => void;
}) {
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

/** Receivers reject a signature whose timestamp is further than this from their clock. */
const TOLERANCE_SECONDS = 300;

export const VERIFY_SAMPLES = {
  Node: `import crypto from 'node:crypto';

// rawBody: the request body exactly as received (a Buffer), before any JSON parsing.
// header: ${SIGNATURE_HEADER}, e.g. "t=1767225600,v1=5f2b…" (two v1 values for a day after a rotation)
function isFromSwitchboard(rawBody, header, webhookSecret) {
  const parts = (header ?? '').split(',').map((p) => p.trim().split('='));
  const t = Number(parts.find(([k]) => k === 't')?.[1]);
  if (!Number.isInteger(t) || Math.abs(Date.now() / 1000 - t) > ${TOLERANCE_SECONDS}) return false;
  const expected = crypto.createHmac('sha256', webhookSecret).update(\`\${t}.\`).update(rawBody).digest();
  return parts
    .filter(([k]) => k === 'v1')
    .some(([, v]) => {
      const given = Buffer.from(v ?? '', 'hex');
      return given.length === expected.length && crypto.timingSafeEqual(given, expected);
    });
}

// Express: app.post('/webhooks', express.raw({ type: '*/*' }), (req, res) => {
//   if (!isFromSwitchboard(req.body, req.get('${SIGNATURE_HEADER}'), process.env.WEBHOOK_SECRET)) return res.sendStatus(401);
//   const event = JSON.parse(req.body); ...
// });`,
  Python: `import hashlib, hmac, time

# raw_body: the request body exactly as received (bytes), before any JSON parsing.
# header: ${SIGNATURE_HEADER}, e.g. "t=1767225600,v1=5f2b..." (two v1 values for a day after a rotation)
def is_from_switchboard(raw_body: bytes, header: str, webhook_secret: str) -> bool:
    pairs = [p.strip().split("=", 1) for p in (header or "").split(",") if "=" in p]
    t = next((v for k, v in pairs if k == "t"), "")
    if not t.isdigit() or abs(time.time() - int(t)) > ${TOLERANCE_SECONDS}:
        return False
    expected = hmac.new(webhook_secret.encode(), t.encode() + b"." + raw_body, hashlib.sha256).hexdigest()
    return any(hmac.compare_digest(expected, v) for k, v in pairs if k == "v1")

# Flask: @app.post("/webhooks")
# def webhook():
#     if not is_from_switchboard(request.get_data(), request.headers.get("${SIGNATURE_HEADER}"), os.environ["WEBHOOK_SECRET"]):
#         abort(401)
#     event = request.get_json()`,
} as const;
type SampleLanguage = keyof typeof VERIFY_SAMPLES;
const LANGUAGES = Object.keys(VERIFY_SAMPLES) as SampleLanguage[];

/** Node and Python samples as tabs (arrow keys move between them, as in any tab list). */
function VerifySamples() {
  const [language, setLanguage] = useState<SampleLanguage>('Node');
  const move = (e: KeyboardEvent<HTMLButtonElement>) => {
    if (e.key !== 'ArrowRight' && e.key !== 'ArrowLeft') return;
    const next =
      LANGUAGES[(LANGUAGES.indexOf(language) + (e.key === 'ArrowRight' ? 1 : LANGUAGES.length - 1)) % LANGUAGES.length]!;
    setLanguage(next);
    document.getElementById(`verify-tab-${next}`)?.focus();
  };
  return (
    <>
      <div role="tablist" aria-label="Language" className="segmented">
        {LANGUAGES.map((l) => (
          <button
            key={l}
            id={`verify-tab-${l}`}
            type="button"
            role="tab"
            aria-selected={l === language}
            aria-controls="verify-panel"
            tabIndex={l === language ? 0 : -1}
            className={l === language ? 'segmented-item segmented-active' : 'segmented-item'}
            onClick={() => setLanguage(l)}
            onKeyDown={move}
          >
            {l}
          </button>
        ))}
      </div>
      {/* a wide sample scrolls sideways: focusable so the keyboard can scroll it too */}
      <pre id="verify-panel" className="code-sample" tabIndex={0} role="tabpanel" aria-labelledby={`verify-tab-${language}`}>
        <code>{VERIFY_SAMPLES[language]}</code>
      </pre>
    </>
  );
}

export default function Developers() {
  const bootstrap = useAtomValue(bootstrapAtom);
  // staff viewing the account (ghost mode) may not rotate its keys: only its own admins can
  const ghost = !!useAtomValue(payloadAtom)?.ghost;
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
      toast.error(`The ${ROTATION_TEXT[key].label.toLowerCase()} could not be rotated`, errorMessage(err), err);
      throw err;
    }
  };
  return (
    <div className="page">
      <div className="page-header">
        <h1 className="page-title">Developers</h1>
        <OpenInBrowser path="/settings/developers" />
      </div>
      <p className="page-lead">
        Keys for the widget, the API and webhooks of this account. Keep the secret key and the webhook secret out of browsers and
        source code.
      </p>
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
            <KeyRow
              label="Widget key"
              shown={keys.data.widgetKey}
              value={keys.data.widgetKey}
              hint="Public: goes into the pages that embed the widget."
            />
            <KeyRow
              label="Secret key"
              shown={maskSecretKey(keys.data.secretKey)}
              value={keys.data.revealed ? keys.data.secretKey : null}
              hint={
                keys.data.revealed
                  ? 'For calls from your servers to the API.'
                  : "For calls from your servers to the API. Hidden in ghost mode: only the account's own admins can copy or rotate it."
              }
              onRotate={ghost ? undefined : () => setRotating('secretKey')}
            />
            <KeyRow
              label="Webhook secret"
              shown={maskWebhookSecret()}
              value={keys.data.revealed ? keys.data.webhookSecret : null}
              hint={
                keys.data.revealed
                  ? 'Signs the webhook requests we send you.'
                  : 'Signs the webhook requests we send you. Hidden in ghost mode.'
              }
              onRotate={ghost ? undefined : () => setRotating('webhookSecret')}
            />
          </dl>
        )}
      </Card>
      <ConfirmDialog
        open={rotating !== null}
        title={rotating ? `Rotate the ${ROTATION_TEXT[rotating].label.toLowerCase()}?` : ''}
        description={
          rotating
            ? `A new ${ROTATION_TEXT[rotating].label.toLowerCase()} replaces the current one, which stops working at once. ${ROTATION_TEXT[rotating].effect}`
            : ''
        }
        confirmLabel="Rotate"
        onConfirm={() => (rotating ? rotate(rotating) : undefined)}
        onCancel={() => setRotating(null)}
      />
      <Card title="API">
        <p>
          Your servers call the API under <code>/api/v1</code> with <code>Authorization: Bearer</code> and the secret key.{' '}
          <a href="/api/v1/docs" target="_blank" rel="noreferrer">
            API reference
          </a>{' '}
          (<a href="/api/v1/openapi.json">OpenAPI document</a>)
        </p>
        <ApiRateLimitPanel />
      </Card>
      <Card title="Verifying webhooks">
        <p>
          Every webhook request carries an <code>{SIGNATURE_HEADER}</code> header such as <code>t=1767225600,v1=5f2b…</code>:{' '}
          <code>t</code> is when it was sent (Unix seconds) and <code>v1</code> the lowercase hex HMAC-SHA256 of{' '}
          <code>{'"<t>.<raw body>"'}</code>, keyed with your webhook secret (the whole <code>whsec_…</code> value). Compute it
          over the body exactly as received, compare in constant time, and reject a <code>t</code> more than 5 minutes away. For
          24 hours after you rotate the secret, requests carry two <code>v1</code> values (old and new key): accept either. It is
          the scheme Stripe's libraries verify.
        </p>
        <VerifySamples />
      </Card>
    </div>
  );
}

/** The account's /api/v1 rate limit, read-only (provider staff set it), and the burst in use now. */
function ApiRateLimitPanel() {
  const limit = useQuery('api-rate-limit', (a, signal) => a.get<ApiRateLimitUsage>('/accounts/developer/rate-limit', { signal }));
  if (limit.error) return <p role="alert">{errorMessage(limit.error, 'The rate limit could not be loaded.')}</p>;
  if (!limit.data) return <LoadingPanel label="Loading the rate limit" />;
  const { perSecond, burst, used, isDefault } = limit.data;
  return (
    <>
      <dl className="key-list" aria-label="API rate limit">
        <div>
          <dt>Rate limit</dt>
          <dd>
            {perSecond} requests a second, bursts of {burst}
            {isDefault ? ' (the default)' : ''}. To change it, contact us.
          </dd>
        </div>
        <div>
          <dt>In use now</dt>
          <dd>
            {used} of {burst}{' '}
            <Button size="sm" variant="ghost" onClick={limit.reload}>
              Refresh
            </Button>
          </dd>
        </div>
      </dl>
      <p className="muted">Every answer of the API says the same in its RateLimit-Policy and RateLimit header fields.</p>
    </>
  );
}
