import { formatDateTime, formatDay } from '../../../ui/format';
import { useState } from 'react';
import type { AppDefinition } from '../../../../api/contract/apps';
import {
  SigCertificateUploadSchema,
  type SigCertificate,
  type SigSigning,
} from '../../../../api/contract/apps/document-signature';
import { errorMessage } from '../../../api/client';
import { useApi, useQuery } from '../../../api/hooks';
import { Button } from '../../../ui/Button';
import { Card, EmptyState } from '../../../ui/Card';
import { ConfirmDialog } from '../../../ui/ConfirmDialog';
import { Field, TextField } from '../../../ui/Field';
import { QueryState } from '../../../ui/QueryState';
import { toast } from '../../../ui/Toast';
import { check, FormError, useFormErrors } from '../../../ui/form';
import { ConfigPage } from '../_frame/ConfigNav';

// Configuration > Signing: who seals completed documents (the account's own certificate or the
// platform's), with what trusted time, and the upload, rotation and removal of certificates.
// The password opens the upload on the server and is never stored or shown again.

const STATE_BADGE: Record<SigCertificate['state'], { label: string; className: string }> = {
  active: { label: 'Seals now', className: 'badge badge-success' },
  scheduled: { label: 'Scheduled', className: 'badge badge-warning' },
  previous: { label: 'Replaced', className: 'badge' },
  expired: { label: 'Expired', className: 'badge badge-danger' },
};

const day = (iso: string) => formatDay(iso);
const minute = (iso: string) => formatDateTime(iso);

/** base64 of a file, in chunks (a large spread into String.fromCharCode overflows the stack). */
async function base64Of(file: File): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

function WhoSeals({ view }: { view: SigSigning }) {
  const active = view.certificates.find((c) => c.state === 'active');
  return (
    <Card title="Who seals completed documents">
      <p>
        {active ? (
          <>
            Your certificate <strong>{active.subject}</strong> ({active.keyType}, valid until {day(active.notAfter)}).
          </>
        ) : (
          <>
            The platform&apos;s certificate <strong>{view.providerCertificate.subject}</strong>
            {view.providerCertificate.development ? ' (a development certificate: no one trusts its seals)' : ''}. Upload your
            organisation&apos;s certificate to seal in its name.
          </>
        )}
      </p>
      <p className="muted">
        {view.timestampAuthority
          ? `Each seal carries a trusted timestamp from ${view.timestampAuthority} (PAdES B-T); where every certificate's revocation list can be had, its validation data follows under a document time-stamp (PAdES B-LTA). Each request shows the level its seal reached.`
          : 'No time-stamping authority is configured: seals are PAdES B-B, and their certificate page says so.'}
      </p>
    </Card>
  );
}

function CertificateList({ view, onChanged }: { view: SigSigning; onChanged: (view: SigSigning) => void }) {
  const api = useApi();
  const [removing, setRemoving] = useState<SigCertificate | null>(null);
  const remove = async () => {
    try {
      onChanged(await api.delete<SigSigning>(`/document-signature/signing/certificates/${removing!.id}`));
      toast.success('The certificate has been removed');
    } catch (err) {
      toast.error('The certificate could not be removed', errorMessage(err), err);
      throw err;
    }
  };
  return (
    <Card title="Your certificates">
      {view.certificates.length === 0 ? (
        <EmptyState title="No certificate uploaded">
          Until you upload one, the platform&apos;s certificate seals your documents.
        </EmptyState>
      ) : (
        <ul className="cert-list">
          {view.certificates.map((c) => (
            <li key={c.id} className="cert-item">
              <div className="cert-head">
                <strong>{c.subject}</strong> <span className={STATE_BADGE[c.state].className}>{STATE_BADGE[c.state].label}</span>
              </div>
              <dl className="cert-facts">
                <dt>Issued by</dt>
                <dd>{c.issuer}</dd>
                <dt>Key</dt>
                <dd>{c.keyType}</dd>
                <dt>Valid</dt>
                <dd>
                  {day(c.notBefore)} to {day(c.notAfter)}
                </dd>
                <dt>Seals from</dt>
                <dd>{minute(c.activeFrom)}</dd>
                <dt>Uploaded</dt>
                <dd>
                  {minute(c.uploadedAt)} by {c.uploadedBy}
                </dd>
                <dt>SHA-256</dt>
                <dd className="cert-mono cert-fingerprint">{c.fingerprint}</dd>
              </dl>
              <Button size="sm" variant="danger" onClick={() => setRemoving(c)} aria-label={`Remove ${c.subject}`}>
                Remove
              </Button>
            </li>
          ))}
        </ul>
      )}
      <ConfirmDialog
        open={removing !== null}
        title="Remove this certificate?"
        description={
          removing?.state === 'active'
            ? `${removing.subject} seals your documents now. Once removed, its key is erased and the next valid certificate (or the platform's) seals instead. Documents already sealed stay valid.`
            : `${removing?.subject ?? ''}: its key is erased. Documents already sealed with it stay valid.`
        }
        confirmLabel="Remove certificate"
        onConfirm={remove}
        onCancel={() => setRemoving(null)}
      />
    </Card>
  );
}

type Form = { format: 'pkcs12' | 'pem'; file: File | null; pem: string; password: string; activeFrom: string };
const EMPTY: Form = { format: 'pkcs12', file: null, pem: '', password: '', activeFrom: '' };

function UploadForm({ onUploaded }: { onUploaded: () => void }) {
  const api = useApi();
  const [form, setForm] = useState<Form>(EMPTY);
  const formErrors = useFormErrors();
  const fields = formErrors.errors;
  const [problem, setProblem] = useState<string | null>(null);
  const [formKey, setFormKey] = useState(0);
  const set = <K extends keyof Form>(key: K, value: Form[K]) => {
    setForm((f) => ({ ...f, [key]: value }));
    formErrors.clear(key);
    setProblem(null);
  };

  const upload = async () => {
    const activeFrom = form.activeFrom ? new Date(form.activeFrom).toISOString() : null;
    const body =
      form.format === 'pkcs12'
        ? { format: 'pkcs12', file: form.file ? await base64Of(form.file) : '', password: form.password, activeFrom }
        : { format: 'pem', pem: form.pem, password: form.password, activeFrom };
    const checked = check(SigCertificateUploadSchema, body);
    if (!checked.ok) throw formErrors.invalid(checked.fields);
    try {
      const added = await api.create<SigCertificate>('/document-signature/signing/certificates', checked.value);
      toast.success(
        added.state === 'scheduled'
          ? `${added.subject} takes over on ${minute(added.activeFrom)}`
          : `${added.subject} now seals your documents`,
      );
      setForm(EMPTY);
      setFormKey((k) => k + 1);
      onUploaded();
    } catch (err) {
      const invalid = formErrors.fromAnswer(err);
      if (invalid) throw invalid;
      setProblem(errorMessage(err));
      throw err;
    }
  };

  return (
    <Card title="Upload a certificate">
      <form
        key={formKey}
        className="form"
        noValidate
        aria-label="Upload a signing certificate"
        onSubmit={(e) => e.preventDefault()}
        ref={formErrors.ref}
      >
        <p className="muted">
          A document-signing certificate from a certification authority, with its private key (RSA of 2048 bits or more, or EC
          P-256) and the whole chain. To rotate, upload the new one before the current one expires and choose when it takes over.
        </p>
        <fieldset className="fieldset">
          <legend className="field-label">Format</legend>
          <label className="radio">
            <input type="radio" name="format" checked={form.format === 'pkcs12'} onChange={() => set('format', 'pkcs12')} />
            <span>PKCS#12 file (.p12, .pfx)</span>
          </label>
          <label className="radio">
            <input type="radio" name="format" checked={form.format === 'pem'} onChange={() => set('format', 'pem')} />
            <span>PEM text: private key and certificates</span>
          </label>
        </fieldset>
        {form.format === 'pkcs12' ? (
          <Field label="File" required error={fields.file}>
            {(control) => (
              <input
                {...control}
                className="input"
                type="file"
                accept=".p12,.pfx,application/x-pkcs12"
                onChange={(e) => set('file', e.target.files?.[0] ?? null)}
              />
            )}
          </Field>
        ) : (
          <Field
            label="Private key and certificates"
            required
            error={fields.pem}
            hint="The key (PKCS#8, may be encrypted), then the certificate, then its chain."
          >
            {(control) => (
              <textarea
                {...control}
                className="input cert-mono"
                rows={8}
                spellCheck={false}
                value={form.pem}
                onChange={(e) => set('pem', e.target.value)}
              />
            )}
          </Field>
        )}
        <TextField
          label="Password"
          type="password"
          autoComplete="off"
          required={form.format === 'pkcs12'}
          value={form.password}
          onChange={(e) => set('password', e.target.value)}
          error={fields.password}
          hint="Opens the file on the server; it is never stored."
        />
        <TextField
          label="Takes over"
          type="datetime-local"
          value={form.activeFrom}
          onChange={(e) => set('activeFrom', e.target.value)}
          error={fields.activeFrom}
          hint="Leave blank to seal with it from now on."
        />
        <FormError message={problem ?? fields._} />
        <div className="form-actions">
          <Button type="submit" variant="primary" onClick={upload} successLabel="Uploaded" failureLabel="Not uploaded">
            Upload certificate
          </Button>
        </div>
      </form>
    </Card>
  );
}

export default function SigSigningPage({ app }: { app: AppDefinition }) {
  const query = useQuery<SigSigning>('document-signature/signing', (api, signal) =>
    api.get<SigSigning>('/document-signature/signing', { signal }),
  );
  const [view, setView] = useState<SigSigning | null>(null);
  const shown = view ?? query.data;
  return (
    <ConfigPage
      app={app}
      title="Signing"
      lead="Completed documents are sealed with a PAdES signature over every page and the certificate of completion."
    >
      <QueryState query={query}>
        {() =>
          shown ? (
            <>
              <WhoSeals view={shown} />
              <CertificateList view={shown} onChanged={setView} />
              <UploadForm
                onUploaded={() => {
                  setView(null);
                  query.reload();
                }}
              />
            </>
          ) : null
        }
      </QueryState>
    </ConfigPage>
  );
}
