import type { AppDefinition } from '../../../../api/contract/apps';
import {
  SIG_COLUMNS,
  SIG_OPEN_STATUSES,
  SIG_STATUSES,
  type SigRequest,
  type SigRequestFiles,
} from '../../../../api/contract/apps/document-signature';
import type { ActionResult } from '../../../../api/contract/platform';
import { errorMessage } from '../../../api/client';
import { useApi, useQuery } from '../../../api/hooks';
import { Button } from '../../../ui/Button';
import { toast } from '../../../ui/Toast';
import { formatDateTime } from '../../../ui/format';
import { ActivityList } from '../_frame/ActivityList';
import { useState } from 'react';
import { useAtomValue } from 'jotai';
import { Dialog } from '../../../ui/Dialog';
import { TextField } from '../../../ui/Field';
import { bootstrapAtom } from '../../../state/session';

type Hold = { requestId: string; legalHold: { reason: string; since: string; by: string } | null };

/**
 * A legal hold (admins): the signed document and the signer's details are kept through erasure
 * requests and retention until it is released (docs/privacy.md).
 */
function LegalHold({ taskId }: { taskId: string }) {
  const api = useApi();
  const hold = useQuery(`legal-hold:${taskId}`, (a, signal) =>
    a.get<Hold>(`/privacy/legal-holds/${encodeURIComponent(taskId)}`, { signal }),
  );
  const [asking, setAsking] = useState(false);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | undefined>();
  if (!hold.data) return null;
  const held = hold.data.legalHold;
  const put = async () => {
    if (!reason.trim()) {
      setError('Give the reason for the legal hold');
      throw new Error('reason');
    }
    try {
      await api.put(`/privacy/legal-holds/${encodeURIComponent(taskId)}`, { reason });
      toast.success('The document is under a legal hold');
      setAsking(false);
      hold.reload();
    } catch (err) {
      toast.error('The legal hold was not set', errorMessage(err));
      throw err;
    }
  };
  const release = async () => {
    await api.delete(`/privacy/legal-holds/${encodeURIComponent(taskId)}`);
    toast.success('The legal hold was released');
    hold.reload();
  };
  return (
    <div className="sig-legal-hold">
      {held ? (
        <p>
          Under a legal hold since {formatDateTime(held.since)} ({held.by}): “{held.reason}”. Kept through erasure and retention.{' '}
          <Button variant="ghost" onClick={release}>
            Release hold
          </Button>
        </p>
      ) : (
        <Button onClick={() => setAsking(true)}>Legal hold…</Button>
      )}
      <Dialog
        open={asking}
        onClose={() => setAsking(false)}
        title="Put under a legal hold"
        description="The signed document and the signer's details are kept through erasure requests and retention until the hold is released."
        size="sm"
        footer={
          <>
            <Button onClick={() => setAsking(false)}>Cancel</Button>
            <Button variant="primary" onClick={put}>
              Hold
            </Button>
          </>
        }
      >
        <TextField
          label="Reason"
          value={reason}
          onChange={(e) => (setReason(e.target.value), setError(undefined))}
          error={error}
        />
      </Dialog>
    </div>
  );
}

/**
 * Where the request stands, in one sentence: an expiry only while the customer can still act
 * (a signed or completed request does not "expire"), else when it ended and how.
 */
export function requestState(r: Pick<SigRequest, 'status' | 'expiresAt' | 'signedAt' | 'completedAt'>): string {
  switch (r.status) {
    case 'sent':
    case 'opened':
      return `The link expires ${formatDateTime(r.expiresAt)}.`;
    case 'signed':
      return `Signed ${formatDateTime(r.signedAt ?? r.expiresAt)}; the sealed PDF is being made.`;
    case 'completed':
      return `Signed ${formatDateTime(r.signedAt ?? r.completedAt ?? r.expiresAt)}; the sealed PDF is ready.`;
    case 'declined':
      return 'The customer declined to sign.';
    case 'expired':
      return `The link expired ${formatDateTime(r.expiresAt)} before it was signed.`;
    case 'cancelled':
      return 'The request was cancelled; the link no longer works.';
  }
}

/**
 * The PAdES level the seal reached, said plainly: the certificate page inside the PDF is written
 * before signing, so it says what may follow; this says what did (docs/signatures.md).
 */
export function sealState(r: Pick<SigRequest, 'sealLevel' | 'sealedBy'>): string | null {
  if (!r.sealLevel) return null;
  const what = {
    'B-B': 'no trusted timestamp; the file ends with the signature',
    'B-T': 'a trusted timestamp; the file ends with the signature',
    'B-LT': 'a trusted timestamp and validation data added after it (a seal made before document time-stamps)',
    'B-LTA': 'a trusted timestamp, and validation data under a document time-stamp over the whole file',
  }[r.sealLevel];
  return `Sealed by ${r.sealedBy ?? 'the signing certificate'} at PAdES ${r.sealLevel}: ${what}.`;
}

/** The signature panel's downloads and actions, under the request's facts. */
function SignatureFiles({ app, taskId, reload }: { app: AppDefinition; taskId: string; reload: () => void }) {
  const api = useApi();
  const files = useQuery(`${app.id}:files:${taskId}`, (a, signal) =>
    a.get<SigRequestFiles>(`/${app.id}/signatures/${encodeURIComponent(taskId)}/files`, { signal }),
  );
  const run = async (key: 'cancel' | 'resend') => {
    try {
      const result = await api.create<ActionResult>(`/${app.id}/actions/${key}`, { taskId, input: {} });
      toast.success(result.message);
      files.reload();
      reload();
    } catch (err) {
      toast.error(
        key === 'cancel' ? 'The request could not be cancelled' : 'The link could not be sent again',
        errorMessage(err),
        err,
      );
      throw err;
    }
  };
  const role = useAtomValue(bootstrapAtom)?.role;
  const admin = role === 'owner' || role === 'admin';
  const data = files.data;
  if (!data) return null;
  const open = SIG_OPEN_STATUSES.includes(data.request.status);
  return (
    <div className="sig-files">
      <p>
        {data.request.documentName}, version {data.request.version}, to {data.request.signerName}. {requestState(data.request)}
        {data.request.declineReason && <> Their reason: “{data.request.declineReason}”.</>}
      </p>
      <div className="sig-files-actions">
        {data.signedUrl && (
          <a className="btn btn-primary" href={data.signedUrl} download>
            Download signed PDF
          </a>
        )}
        <a className="btn btn-secondary" href={data.originalUrl} download>
          Download original
        </a>
        {open && (
          <>
            <Button onClick={() => run('resend')} successLabel="Sent">
              Resend link
            </Button>
            <Button variant="danger" onClick={() => run('cancel')} successLabel="Cancelled">
              Cancel request
            </Button>
          </>
        )}
      </div>
      {admin && <LegalHold taskId={taskId} />}
      {data.request.signedSha256 && (
        <p className="muted">
          SHA-256 of the signed PDF: <code>{data.request.signedSha256}</code>
        </p>
      )}
      {sealState(data.request) && <p className="muted">{sealState(data.request)}</p>}
    </div>
  );
}

export default function Signatures({ app }: { app: AppDefinition }) {
  return (
    <ActivityList
      app={app}
      title="Signatures"
      noun="Signature request"
      columns={SIG_COLUMNS}
      statuses={SIG_STATUSES}
      extra={(taskId, reload) => <SignatureFiles app={app} taskId={taskId} reload={reload} />}
    />
  );
}
