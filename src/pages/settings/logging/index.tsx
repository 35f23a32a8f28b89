import { useState, type FormEvent, type ReactNode } from 'react';
import {
  AWS_REGIONS,
  DATADOG_SITES,
  DEFAULT_LOG_GROUP,
  LOG_DESTINATION_TITLES,
  LOG_DESTINATIONS,
  loggingBodySchema,
  type LogDestination,
  type LoggingSettings,
  type LoggingTestAnswer,
} from '../../../../api/contract/logging';
import { useApi, useQuery } from '../../../api/hooks';
import { errorMessage } from '../../../api/client';
import { Button } from '../../../ui/Button';
import { Dialog } from '../../../ui/Dialog';
import { Field, TextField } from '../../../ui/Field';
import { QueryState } from '../../../ui/QueryState';
import { IntegrationCard, sortIntegrations } from '../../../ui/IntegrationCard';
import { toast } from '../../../ui/Toast';
import { check, useFormErrors } from '../../../ui/form';

const TEST_FAILED = 'Test failed. Please check your credentials and try again.';

const DESCRIPTIONS: Record<LogDestination | 'sftp', string> = {
  datadog: 'Send account activity to Datadog logs.',
  cloudwatch: 'Send account activity to an Amazon CloudWatch log group.',
  sumologic: 'Send account activity to a Sumo Logic HTTP source.',
  rapid7: 'Send account activity to a Rapid7 InsightOps webhook.',
  sftp: 'Daily log files delivered to your SFTP server.',
};
const LOGOS: Record<LogDestination | 'sftp', string> = {
  datadog: 'Dd',
  cloudwatch: 'CW',
  sumologic: 'Su',
  rapid7: 'R7',
  sftp: 'FT',
};
const KEEP_HINT = 'Leave blank to keep the current value';
const SITE_LABELS: Record<string, string> = {
  us1: 'US1 (datadoghq.com)',
  us3: 'US3',
  us5: 'US5',
  eu: 'EU (datadoghq.eu)',
  ap1: 'AP1',
};

type Form = Record<string, string>;

function initialForm(destination: LogDestination, view: LoggingSettings[LogDestination]): Form {
  switch (destination) {
    case 'datadog':
      return { apiKey: '', site: view?.site ?? 'us1' };
    case 'cloudwatch':
      return { accessKeyId: '', secretAccessKey: '', region: view?.region ?? 'us-east-1', logGroup: view?.logGroup ?? '' };
    case 'sumologic':
      return { collectorUrl: '' };
    case 'rapid7':
      return { webhookUrl: '' };
  }
}

function DestinationDialog({
  destination,
  view,
  onClose,
  onSaved,
}: {
  destination: LogDestination;
  view: LoggingSettings[LogDestination];
  onClose: () => void;
  onSaved: () => void;
}) {
  const api = useApi();
  const title = LOG_DESTINATION_TITLES[destination];
  // Managing: the saved secrets are never sent back, so blank secret inputs keep them.
  const managing = Boolean(view);
  const [form, setForm] = useState<Form>(() => initialForm(destination, view));
  const formErrors = useFormErrors();
  const fields = formErrors.errors;
  const [testState, setTestState] = useState<'idle' | 'passed' | 'failed'>('idle');
  const [failure, setFailure] = useState<string | null>(null);
  const body = () => ({ destination, [destination]: form });
  const set = (key: string) => (e: { target: { value: string } }) => {
    setForm((f) => ({ ...f, [key]: e.target.value }));
    setTestState('idle');
  };
  const error = (key: string) => fields[`${destination}.${key}`];

  const validated = () => {
    const checked = check(
      loggingBodySchema((d) => managing && d === destination),
      body(),
    );
    if (!checked.ok) throw formErrors.invalid(checked.fields);
    formErrors.clear();
    return checked.value;
  };
  const report = (err: unknown) => {
    const invalid = formErrors.fromAnswer(err);
    if (invalid) throw invalid;
    setFailure(errorMessage(err));
  };

  const test = async () => {
    setFailure(null);
    const value = validated();
    let answer: LoggingTestAnswer;
    try {
      answer = await api.post<LoggingTestAnswer>('/logging/test', value);
    } catch (err) {
      setTestState('failed');
      report(err);
      throw err;
    }
    setTestState(answer.wasSuccessful ? 'passed' : 'failed');
    if (!answer.wasSuccessful) throw new Error(TEST_FAILED);
  };
  const save = async () => {
    setFailure(null);
    const value = validated();
    try {
      await api.post('/logging', value);
    } catch (err) {
      report(err);
      throw err;
    }
    toast.success(`${title} has been configured`);
    onSaved();
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void save().catch(() => {});
  };

  let inputs: ReactNode;
  if (destination === 'datadog') {
    inputs = (
      <>
        <TextField
          label="API Key"
          required={!managing}
          type="password"
          autoComplete="off"
          value={form.apiKey}
          onChange={set('apiKey')}
          error={error('apiKey')}
          hint={managing ? KEEP_HINT : undefined}
        />
        <Field label="Datadog Site" required error={error('site')}>
          {(c) => (
            <select className="input" {...c} value={form.site} onChange={set('site')}>
              {DATADOG_SITES.map((s) => (
                <option key={s} value={s}>
                  {SITE_LABELS[s] ?? s}
                </option>
              ))}
            </select>
          )}
        </Field>
      </>
    );
  } else if (destination === 'cloudwatch') {
    inputs = (
      <>
        <TextField
          label="AWS Access Key ID"
          required={!managing}
          autoComplete="off"
          value={form.accessKeyId}
          onChange={set('accessKeyId')}
          error={error('accessKeyId')}
          hint={managing ? KEEP_HINT : undefined}
        />
        <TextField
          label="AWS Secret Access Key"
          required={!managing}
          type="password"
          autoComplete="off"
          value={form.secretAccessKey}
          onChange={set('secretAccessKey')}
          error={error('secretAccessKey')}
          hint={managing ? KEEP_HINT : undefined}
        />
        <Field label="AWS Region" required error={error('region')}>
          {(c) => (
            <select className="input" {...c} value={form.region} onChange={set('region')}>
              {AWS_REGIONS.map((r) => (
                <option key={r} value={r}>
                  {r}
                </option>
              ))}
            </select>
          )}
        </Field>
        <TextField
          label="Log Group"
          value={form.logGroup}
          onChange={set('logGroup')}
          error={error('logGroup')}
          placeholder={DEFAULT_LOG_GROUP}
          hint="Created if it does not exist."
        />
      </>
    );
  } else if (destination === 'sumologic') {
    inputs = (
      <TextField
        label="Collector URL"
        required={!managing}
        type="url"
        value={form.collectorUrl}
        onChange={set('collectorUrl')}
        error={error('collectorUrl')}
        hint={managing ? KEEP_HINT : undefined}
        placeholder="https://endpoint1.collection.sumologic.com/receiver/v1/http/…"
      />
    );
  } else {
    inputs = (
      <TextField
        label="Webhook URL"
        required={!managing}
        type="url"
        value={form.webhookUrl}
        onChange={set('webhookUrl')}
        error={error('webhookUrl')}
        hint={managing ? KEEP_HINT : undefined}
        placeholder="https://eu.webhook.logs.insight.rapid7.com/v1/noformat/…"
      />
    );
  }

  return (
    <Dialog
      open
      onClose={onClose}
      title={managing ? `Manage ${title}` : `Connect ${title}`}
      description={
        managing
          ? 'Saved keys and URLs are stored encrypted and never shown again; leave them blank to keep them.'
          : 'Keys and URLs are stored encrypted.'
      }
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button onClick={test} successLabel="Test passed" failureLabel="Test failed">
            {testState === 'passed' ? 'Test passed' : 'Send test event'}
          </Button>
          <Button variant="primary" onClick={save} successLabel="Saved" failureLabel="Not saved">
            Save
          </Button>
        </>
      }
    >
      <form className="form" onSubmit={submit} noValidate ref={formErrors.ref}>
        {inputs}
        {testState === 'passed' ? (
          <p className="notice notice-success" role="status">
            Test passed
          </p>
        ) : null}
        {testState === 'failed' ? (
          <p className="notice notice-error" role="alert">
            {TEST_FAILED}
          </p>
        ) : null}
        {failure && testState !== 'failed' && !Object.keys(fields).length ? (
          <p className="notice notice-error" role="alert">
            {failure}
          </p>
        ) : null}
        <button type="submit" hidden />
      </form>
    </Dialog>
  );
}

function connectedDescription(view: NonNullable<LoggingSettings[LogDestination]>, fallback: string): string {
  const parts: string[] = [];
  if (view.site) parts.push(`Site ${view.site}`);
  if (view.region) parts.push(`${view.region}, log group ${view.logGroup}`);
  if (view.waiting) parts.push(`${view.waiting} event${view.waiting === 1 ? '' : 's'} waiting`);
  if (view.lastError) parts.push(`last error: ${view.lastError}`);
  return parts.length ? parts.join(' · ') : fallback;
}

/** Events given up after every attempt: why, and a way to send them again. */
function FailedEvents({ view, onRetry }: { view: NonNullable<LoggingSettings[LogDestination]>; onRetry: () => Promise<void> }) {
  if (!view.failed) return null;
  return (
    <div className="notice notice-error logging-failed" role="status">
      <p>
        <strong>{`${view.failed} event${view.failed === 1 ? '' : 's'} could not be delivered`}</strong>
        {view.failedError ? <span className="logging-failed-error">{`Last error: ${view.failedError}`}</span> : null}
      </p>
      <Button size="sm" onClick={onRetry} successLabel="Queued" failureLabel="Retry failed">
        Retry
      </Button>
    </div>
  );
}

/**
 * The per-destination opt-in to full phone numbers (PUT /privacy/full-numbers/logging/:destination),
 * beside the destination as the webhook form has its checkbox: shipments are masked otherwise.
 */
function FullNumbers({ destination, checked, onSaved }: { destination: LogDestination; checked: boolean; onSaved: () => void }) {
  const api = useApi();
  const [busy, setBusy] = useState(false);
  const change = async (full: boolean) => {
    setBusy(true);
    try {
      await api.put(`/privacy/full-numbers/logging/${destination}`, { fullPhoneNumbers: full });
      toast.success(
        `Log shipments to ${LOG_DESTINATION_TITLES[destination]} now carry ${full ? 'full' : 'masked'} phone numbers`,
      );
      onSaved();
    } catch (err) {
      toast.error(errorMessage(err), undefined, err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <label className="checkbox">
      <input type="checkbox" checked={checked} disabled={busy} onChange={(e) => void change(e.target.checked)} /> Send full phone
      numbers
      <span className="field-hint">Otherwise log shipments carry them masked (+1 •••• •• 4567).</span>
    </label>
  );
}

export default function LoggingSettingsPage() {
  const api = useApi();
  const query = useQuery('logging', (a, signal) => a.get<LoggingSettings>('/logging', { signal }));
  const [editing, setEditing] = useState<LogDestination | null>(null);
  const ids = [...LOG_DESTINATIONS, 'sftp'] as const;
  const isConnected = (id: (typeof ids)[number]) => id !== 'sftp' && Boolean(query.data?.[id]);

  return (
    <div className="page">
      <div>
        <h1 className="page-title">Logging</h1>
        <p className="muted page-lead">
          Send this account's activity (every audit log entry) to your logging service, in batches, retried until delivered.
        </p>
      </div>
      <QueryState query={query}>
        {() => (
          <div className="integration-grid">
            {sortIntegrations(ids, isConnected).map((id) => {
              const view = id === 'sftp' ? undefined : query.data?.[id];
              return (
                <IntegrationCard
                  key={id}
                  id={id}
                  title={LOG_DESTINATION_TITLES[id]}
                  logo={LOGOS[id]}
                  description={view ? connectedDescription(view, DESCRIPTIONS[id]) : DESCRIPTIONS[id]}
                  status={
                    view && id !== 'sftp' ? (
                      <>
                        <FullNumbers destination={id} checked={view.fullPhoneNumbers} onSaved={query.reload} />
                        <FailedEvents
                          view={view}
                          onRetry={async () => {
                            try {
                              await api.post('/logging/retry', { destination: id });
                            } catch (err) {
                              toast.error(errorMessage(err), undefined, err);
                              throw err;
                            }
                            toast.success(`Undelivered events will be sent to ${LOG_DESTINATION_TITLES[id]} again`);
                            query.reload();
                          }}
                        />
                      </>
                    ) : null
                  }
                  connected={isConnected(id)}
                  disabled={id === 'sftp'}
                  disabledReason="Contact Journey to enable SFTP log delivery"
                  onConnect={() => id !== 'sftp' && setEditing(id)}
                  onManage={() => id !== 'sftp' && setEditing(id)}
                  onDisconnect={async () => {
                    await api.delete('/logging', { json: { destination: id } });
                    toast.success(`${LOG_DESTINATION_TITLES[id]} has been disconnected`);
                    query.reload();
                  }}
                />
              );
            })}
          </div>
        )}
      </QueryState>
      {editing ? (
        <DestinationDialog
          key={editing}
          destination={editing}
          view={query.data?.[editing]}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            query.reload();
          }}
        />
      ) : null}
    </div>
  );
}
