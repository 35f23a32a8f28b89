import { useEffect, useState } from 'react';
import {
  RETENTION_KINDS,
  RETENTION_MAX_DAYS,
  RETENTION_MIN_DAYS,
  storageBodySchema,
  storageTestBodySchema,
  type StorageBackend,
  type StorageTestAnswer,
  type StorageTestFailure,
  type StorageView,
} from '../../../../api/contract/storage';
import { errorMessage } from '../../../api/client';
import { useApi, useQuery } from '../../../api/hooks';
import { Button } from '../../../ui/Button';
import { Card } from '../../../ui/Card';
import { TextField } from '../../../ui/Field';
import { QueryState } from '../../../ui/QueryState';
import { Spinner } from '../../../ui/Spinner';
import { toast } from '../../../ui/Toast';
import { apiFields, check, useFormErrors } from '../../../ui/form';

// The account's storage settings: one form, shown by account settings and by the Configuration of
// Document Signature and Identity Verification (the setting is the account's, not an app's).

type Form = {
  backend: StorageBackend;
  endpoint: string;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  pathStyle: boolean;
  /** days as typed; blank keeps */
  retention: Record<string, string>;
};

export function formOf(view: StorageView): Form {
  return {
    backend: view.backend,
    endpoint: view.s3?.endpoint ?? '',
    region: view.s3?.region ?? 'us-east-1',
    bucket: view.s3?.bucket ?? '',
    accessKeyId: view.s3?.accessKeyId ?? '',
    secretAccessKey: '',
    pathStyle: view.s3?.pathStyle ?? true,
    retention: Object.fromEntries(
      RETENTION_KINDS.map(({ kind }) => [kind, view.retention[kind] == null ? '' : String(view.retention[kind])]),
    ),
  };
}

const s3Of = (form: Form) => ({
  endpoint: form.endpoint,
  region: form.region,
  bucket: form.bucket,
  accessKeyId: form.accessKeyId,
  secretAccessKey: form.secretAccessKey,
  pathStyle: form.pathStyle,
});

/** The PUT body: days as numbers (blank keeps; anything else is sent as typed for the contract to judge). */
export function bodyOf(form: Form) {
  const retention = Object.fromEntries(
    Object.entries(form.retention).map(([kind, raw]) => {
      const t = raw.trim();
      return [kind, t === '' ? null : /^-?\d+$/.test(t) ? Number(t) : t];
    }),
  );
  return form.backend === 's3'
    ? { backend: 's3' as const, s3: s3Of(form), retention }
    : { backend: 'database' as const, retention };
}

/** The stored secret can be kept only for the endpoint, bucket and access key it was entered for. */
export function secretKeepable(view: StorageView, form: Form): boolean {
  const s = view.s3;
  return (
    !!s?.secretStored &&
    s.endpoint === form.endpoint.trim().replace(/\/+$/, '') &&
    s.bucket === form.bucket.trim() &&
    s.accessKeyId === form.accessKeyId.trim()
  );
}

const FAILURE_TITLES: Record<StorageTestFailure, string> = {
  UNREACHABLE: 'Endpoint unreachable',
  TIMEOUT: 'No answer in time',
  ACCESS_DENIED: 'Access denied',
  NO_SUCH_BUCKET: 'No such bucket',
  READ_BACK_MISMATCH: 'Read back differs',
  S3_ERROR: 'The endpoint refused',
};

type TestState =
  | { kind: 'idle' }
  | { kind: 'running' }
  | { kind: 'done'; answer: StorageTestAnswer }
  | { kind: 'error'; message: string };

function TestResult({ state }: { state: TestState }) {
  if (state.kind === 'idle') return null;
  if (state.kind === 'running') return <Spinner label="Testing the connection" />;
  if (state.kind === 'error') {
    return (
      <div className="notice notice-error" role="alert">
        <p className="notice-title">Test not run</p>
        <p>{state.message}</p>
      </div>
    );
  }
  const { answer } = state;
  if (answer.ok) {
    return (
      <div className="notice notice-success" role="status">
        <p className="notice-title">Connection works</p>
        <p>{answer.message}</p>
      </div>
    );
  }
  return (
    <div className="notice notice-error" role="alert">
      <p className="notice-title">{answer.code ? FAILURE_TITLES[answer.code] : 'Connection failed'}</p>
      <p>{answer.message}</p>
    </div>
  );
}

function StorageSettingsForm({ view, onSaved }: { view: StorageView; onSaved: (view: StorageView) => void }) {
  const api = useApi();
  const [form, setForm] = useState<Form>(() => formOf(view));
  const formErrors = useFormErrors();
  const fields = formErrors.errors;
  const [test, setTest] = useState<TestState>({ kind: 'idle' });
  const keepable = secretKeepable(view, form);
  const s3 = form.backend === 's3';

  const set = <K extends keyof Form>(key: K, value: Form[K]) => {
    setForm((f) => ({ ...f, [key]: value }));
    const name = key === 'backend' ? 'backend' : `s3.${key}`;
    formErrors.clear(name);
  };
  const setDays = (kind: string, value: string) => {
    setForm((f) => ({ ...f, retention: { ...f.retention, [kind]: value } }));
    formErrors.clear(`retention.${kind}`);
  };

  const save = async () => {
    const checked = check(storageBodySchema(keepable), bodyOf(form));
    if (!checked.ok) throw formErrors.invalid(checked.fields);
    formErrors.clear();
    try {
      const saved = await api.put<StorageView>('/storage', checked.value);
      toast.success('Storage settings have been saved');
      setForm(formOf(saved));
      onSaved(saved);
    } catch (err) {
      const invalid = formErrors.fromAnswer(err);
      if (invalid) throw invalid;
      toast.error('Storage settings could not be saved', errorMessage(err), err);
      throw err;
    }
  };

  const runTest = async () => {
    const checked = check(storageTestBodySchema(keepable), { s3: s3Of(form) });
    if (!checked.ok) {
      formErrors.invalid(checked.fields);
      setTest({ kind: 'error', message: `Fix the settings first: ${Object.values(checked.fields)[0]}` });
      return;
    }
    setTest({ kind: 'running' });
    try {
      setTest({ kind: 'done', answer: await api.post<StorageTestAnswer>('/storage/test', checked.value) });
    } catch (err) {
      const f = apiFields(err);
      if (f) formErrors.invalid(f);
      setTest({ kind: 'error', message: f ? `Fix the settings first: ${Object.values(f)[0]}` : errorMessage(err) });
    }
  };

  const secretHint = view.s3?.secretStored
    ? keepable
      ? 'A secret is stored. Leave blank to keep it, or type a new one to replace it.'
      : 'The stored secret belongs to the saved endpoint, bucket and access key: enter the secret for these.'
    : 'Stored encrypted and never shown again.';

  return (
    <form
      className="form storage-form"
      noValidate
      aria-label="Storage settings"
      ref={formErrors.ref}
      // Enter in a field clicks the Save button (the form's default button), which saves
      onSubmit={(e) => e.preventDefault()}
    >
      <Card title="Where files are kept">
        <fieldset className="fieldset">
          <legend className="field-label">Storage</legend>
          <label className="radio">
            <input
              type="radio"
              name="backend"
              value="database"
              checked={form.backend === 'database'}
              onChange={() => set('backend', 'database')}
            />
            <span>
              This database <span className="muted">(default)</span>
            </span>
          </label>
          <label className="radio">
            <input type="radio" name="backend" value="s3" checked={s3} onChange={() => set('backend', 's3')} />
            <span>An S3-compatible bucket of yours (AWS S3, MinIO, Cloudflare R2, …)</span>
          </label>
        </fieldset>
        <p className="field-hint">
          Changing this applies to new files only: files already stored stay where they are and can still be opened.
        </p>
        {s3 ? (
          <div className="storage-s3">
            <TextField
              label="Endpoint"
              type="url"
              required
              value={form.endpoint}
              onChange={(e) => set('endpoint', e.target.value)}
              error={fields['s3.endpoint']}
              placeholder="https://s3.eu-west-1.amazonaws.com"
              autoComplete="off"
            />
            <TextField
              label="Region"
              required
              value={form.region}
              onChange={(e) => set('region', e.target.value)}
              error={fields['s3.region']}
              placeholder="us-east-1"
              autoComplete="off"
            />
            <TextField
              label="Bucket"
              required
              value={form.bucket}
              onChange={(e) => set('bucket', e.target.value)}
              error={fields['s3.bucket']}
              placeholder="acme-switchboard-files"
              autoComplete="off"
            />
            <TextField
              label="Access key ID"
              required
              value={form.accessKeyId}
              onChange={(e) => set('accessKeyId', e.target.value)}
              error={fields['s3.accessKeyId']}
              autoComplete="off"
              spellCheck={false}
            />
            <TextField
              label={<>Secret access key {keepable ? <span className="badge badge-connected">Stored</span> : null}</>}
              type="password"
              required={!keepable}
              value={form.secretAccessKey}
              onChange={(e) => set('secretAccessKey', e.target.value)}
              error={fields['s3.secretAccessKey']}
              hint={secretHint}
              placeholder={keepable ? 'Stored (leave blank to keep)' : ''}
              autoComplete="new-password"
            />
            <label className="checkbox">
              <input type="checkbox" checked={form.pathStyle} onChange={(e) => set('pathStyle', e.target.checked)} />
              <span>
                Path-style addressing
                <span className="field-hint storage-check-hint">
                  The bucket goes in the path (https://host/bucket/file) instead of the host name. Most S3-compatible servers need
                  it.
                </span>
              </span>
            </label>
            <div className="form-actions storage-test">
              {/* the result panel says how it went: no success flash on the button for a failed test */}
              <Button onClick={() => void runTest()} disabled={test.kind === 'running'}>
                Test connection
              </Button>
              <span className="muted">Writes, reads and deletes a small test object with these settings, saved or not.</span>
            </div>
            <div aria-live="polite">
              <TestResult state={test} />
            </div>
          </div>
        ) : null}
      </Card>
      <Card title="Retention">
        <p className="muted">
          How long each kind of content is kept before it is redacted: {RETENTION_MIN_DAYS} to {RETENTION_MAX_DAYS} days. Leave
          blank to keep it until it is deleted.
        </p>
        {RETENTION_KINDS.map((k) => (
          <TextField
            key={k.kind}
            label={k.label}
            hint={k.hint}
            type="number"
            inputMode="numeric"
            min={RETENTION_MIN_DAYS}
            max={RETENTION_MAX_DAYS}
            placeholder="Keep"
            value={form.retention[k.kind] ?? ''}
            onChange={(e) => setDays(k.kind, e.target.value)}
            error={fields[`retention.${k.kind}`]}
          />
        ))}
      </Card>
      {fields._ || fields.backend ? (
        <p className="notice notice-error" role="alert">
          {fields._ ?? fields.backend}
        </p>
      ) : null}
      <div className="form-actions">
        <Button type="submit" variant="primary" onClick={save} successLabel="Saved" failureLabel="Not saved">
          Save
        </Button>
      </div>
    </form>
  );
}

/** The storage settings, loaded: spinner, failure with Try again, or the form. */
export function StorageSettings() {
  const query = useQuery('storage', (a, signal) => a.get<StorageView>('/storage', { signal }));
  const [saved, setSaved] = useState<StorageView | null>(null);
  useEffect(() => setSaved(null), [query.data]);
  const view = saved ?? query.data;
  return <QueryState query={query}>{() => (view ? <StorageSettingsForm view={view} onSaved={setSaved} /> : null)}</QueryState>;
}

export const STORAGE_LEAD =
  'Where Document Signature and Identity Verification keep their files (signed documents, ID images, form uploads) and for how long. One setting for the whole account.';
