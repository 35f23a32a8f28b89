import { useEffect, useState } from 'react';
import { useAtomValue } from 'jotai';
import { Link } from 'wouter';
import type { CustomerData, PrivacyRequest, RetentionRule } from '../../../../api/contract/privacy';
import { PrivacySubjectSchema } from '../../../../api/contract/privacy';
import { errorMessage } from '../../../api/client';
import { useApi, useQuery } from '../../../api/hooks';
import { Button } from '../../../ui/Button';
import { Card } from '../../../ui/Card';
import { ConfirmDialog } from '../../../ui/ConfirmDialog';
import { TextField } from '../../../ui/Field';
import { QueryState } from '../../../ui/QueryState';
import { Table } from '../../../ui/Table';
import { toast } from '../../../ui/Toast';
import { saveFile } from '../../../ui/download';
import { check, useFormErrors } from '../../../ui/form';
import { bootstrapAtom } from '../../../state/session';

// Customer data (admins only; an address outside SPEC's settings menu, linked from Storage and
// from every app's Configuration): find what the account holds about one caller, export it as a
// ZIP, erase it, and download each request's receipt. The caller is sent in a body, never a URL.

type By = 'phoneNumber' | 'customerRef';

const REQUESTS_POLL_MS = 2_000;

const STATE_LABEL: Record<PrivacyRequest['state'], string> = {
  pending: 'Waiting',
  running: 'In progress (it will be finished)',
  done: 'Done',
};

export default function PrivacyPage() {
  const role = useAtomValue(bootstrapAtom)?.role;
  const admin = role === 'owner' || role === 'admin';
  return (
    <div className="page">
      <h1 className="page-title">Customer data</h1>
      <p className="page-lead">
        Find everything held about one caller across the six apps, the message logs, webhooks and the audit log; export it, or
        erase it on their request. How long each kind is kept, identity documents and signed documents included, is set under
        Retention below.
      </p>
      <p className="muted">
        The account is the controller of its callers' data and Switchboard its processor, as the{' '}
        <Link href="~/legal/data-processing-addendum">Data Processing Addendum</Link> states.
      </p>
      {admin ? (
        <>
          <PrivacyTools />
          <RetentionCard />
        </>
      ) : (
        <p className="notice notice-error">Only admins can look up, export or erase a caller's data.</p>
      )}
    </div>
  );
}

function PrivacyTools() {
  const api = useApi();
  const [by, setBy] = useState<By>('phoneNumber');
  const [value, setValue] = useState('');
  const [found, setFound] = useState<{ subject: Record<string, string>; data: CustomerData } | null>(null);
  const [confirming, setConfirming] = useState(false);
  const formErrors = useFormErrors();
  const requests = useQuery('/privacy/requests', (a, signal) => a.get<PrivacyRequest[]>('/privacy/requests', { signal }));
  // an export is made by a job after the request is answered: ask again while one is open
  const open = (requests.data ?? []).some((r) => r.state !== 'done');
  const reload = requests.reload;
  useEffect(() => {
    if (!open) return;
    const timer = setInterval(reload, REQUESTS_POLL_MS);
    return () => clearInterval(timer);
  }, [open, reload]);

  const subject = () => {
    const checked = check(PrivacySubjectSchema, { [by]: value });
    if (!checked.ok) throw formErrors.invalid({ value: checked.fields[by] ?? Object.values(checked.fields)[0]! });
    formErrors.clear();
    return { [by]: value } as Record<string, string>;
  };

  const search = async () => {
    const body = subject();
    try {
      setFound({ subject: body, data: await api.post<CustomerData>('/privacy/search', body) });
    } catch (err) {
      toast.error('The search did not run', errorMessage(err));
      throw err;
    }
  };

  const run = async (kind: 'erasure' | 'export') => {
    if (!found) return;
    try {
      // 200 either way in the console: a new request, or the open one for this caller carried on
      const request = await api.post<PrivacyRequest>(`/privacy/${kind}-requests`, found.subject);
      toast.success(
        kind === 'erasure'
          ? request.state === 'done'
            ? "The caller's data has been erased"
            : 'The erasure is under way'
          : request.state === 'done'
            ? 'The export is ready'
            : 'The export is being made',
      );
      requests.reload();
      if (kind === 'erasure')
        setFound({ subject: found.subject, data: await api.post<CustomerData>('/privacy/search', found.subject) });
    } catch (err) {
      toast.error(kind === 'erasure' ? 'The erasure did not run' : 'The export did not run', errorMessage(err));
      throw err;
    }
  };

  const receipt = async (id: string) => {
    const { blob, filename } = await api.download(`/privacy/requests/${id}/receipt`);
    saveFile(blob, filename ?? `receipt-${id}.json`);
  };

  return (
    <>
      <Card title="Find a caller">
        <form
          className="form privacy-form"
          noValidate
          aria-label="Find a caller"
          ref={formErrors.ref}
          onSubmit={(e) => e.preventDefault()}
        >
          <fieldset className="fieldset">
            <legend className="field-label">Find by</legend>
            <label className="radio">
              <input type="radio" name="by" checked={by === 'phoneNumber'} onChange={() => setBy('phoneNumber')} />
              <span>Phone number</span>
            </label>
            <label className="radio">
              <input type="radio" name="by" checked={by === 'customerRef'} onChange={() => setBy('customerRef')} />
              <span>Customer reference</span>
            </label>
          </fieldset>
          <TextField
            label={by === 'phoneNumber' ? 'Phone number' : 'Customer reference'}
            hint={by === 'phoneNumber' ? 'With its country code, in any spelling: +44 20 7946 0018' : 'As the apps were given it'}
            value={value}
            onChange={(e) => (setValue(e.target.value), formErrors.clear('value'))}
            error={formErrors.errors.value}
            autoComplete="off"
          />
          <div className="form-actions">
            <Button type="submit" variant="primary" onClick={search}>
              Search
            </Button>
          </div>
        </form>
      </Card>
      {found ? (
        <Card title="What is held">
          {found.data.total === 0 ? <p>Nothing is held about this caller.</p> : null}
          {found.data.apps.map((app) => (
            <section key={app.app} className="privacy-app">
              <h3>
                {app.title} <span className="muted">({app.count})</span>
              </h3>
              <ul>
                {app.stores.map((s) => (
                  <li key={s.store}>
                    {s.count} × {s.label}
                  </li>
                ))}
              </ul>
            </section>
          ))}
          {found.data.legalHolds ? (
            <p className="notice">
              {found.data.legalHolds} signed document(s) of this caller are under a legal hold: an erasure keeps them.
            </p>
          ) : null}
          <div className="form-actions">
            <Button onClick={() => run('export')} disabled={found.data.total === 0}>
              Export as ZIP
            </Button>
            <Button variant="danger" onClick={() => setConfirming(true)} disabled={found.data.total === 0}>
              Erase…
            </Button>
          </div>
        </Card>
      ) : null}
      <ConfirmDialog
        open={confirming}
        title="Erase this caller's data?"
        description="Every record of this caller is redacted and every file deleted, in every app, the message logs and with Twilio. Signed documents under a legal hold are kept. This cannot be undone."
        confirmLabel="Erase"
        onConfirm={() => run('erasure')}
        onCancel={() => setConfirming(false)}
      />
      <Card title="Requests">
        <QueryState query={requests}>
          {() => (
            <Table<PrivacyRequest>
              caption="Erasure and export requests"
              rowKey={(r) => r.id}
              rows={requests.data ?? []}
              empty="No requests yet"
              columns={[
                { key: 'kind', header: 'Request', render: (r) => (r.kind === 'erasure' ? 'Erasure' : 'Export') },
                { key: 'when', header: 'Asked', render: (r) => new Date(r.createdAt).toLocaleString() },
                { key: 'by', header: 'By', render: (r) => `${r.requestedBy} (${r.requestedVia === 'api' ? 'API' : 'console'})` },
                { key: 'state', header: 'State', render: (r) => STATE_LABEL[r.state] },
                { key: 'held', header: 'Kept', render: (r) => (r.held.length ? `${r.held.length} under legal hold` : '') },
                {
                  key: 'files',
                  header: 'Files',
                  render: (r) => (
                    <span className="privacy-links">
                      <Button variant="ghost" onClick={() => receipt(r.id)}>
                        Receipt
                      </Button>
                      {r.downloadUrl ? (
                        <a href={r.downloadUrl} download>
                          ZIP
                        </a>
                      ) : null}
                    </span>
                  ),
                },
              ]}
            />
          )}
        </QueryState>
      </Card>
    </>
  );
}

/**
 * Retention for every kind of caller data: days per kind, what each covers, the dry run's count,
 * and when its first run comes (30 days after a rule is enabled or shortened, unless confirmed).
 */
function RetentionCard() {
  const api = useApi();
  const rules = useQuery('/privacy/retention', (a, signal) => a.get<RetentionRule[]>('/privacy/retention', { signal }));
  const [typed, setTyped] = useState<Record<string, string>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [list, setList] = useState<RetentionRule[] | null>(null);
  const shown = list ?? rules.data ?? [];

  const save = async (rule: RetentionRule) => {
    const raw = (typed[rule.kind] ?? (rule.days == null ? '' : String(rule.days))).trim();
    const days = raw === '' ? null : /^\d+$/.test(raw) ? Number(raw) : NaN;
    if (days !== null && (!Number.isInteger(days) || days < 1 || days > 3650)) {
      setErrors((e) => ({ ...e, [rule.kind]: 'Enter a number of days from 1 to 3650, or keep' }));
      throw new Error('invalid');
    }
    setErrors((e) => ({ ...e, [rule.kind]: '' }));
    try {
      setList(await api.put<RetentionRule[]>('/privacy/retention', { kind: rule.kind, days }));
      toast.success('Retention has been saved');
    } catch (err) {
      toast.error('Retention could not be saved', errorMessage(err));
      throw err;
    }
  };
  const confirm = async (rule: RetentionRule) => {
    try {
      setList(await api.post<RetentionRule[]>(`/privacy/retention/${rule.kind}/confirm`));
      toast.success(`${rule.label}: retention runs from now`);
    } catch (err) {
      toast.error('Retention could not be confirmed', errorMessage(err));
      throw err;
    }
  };
  const future = (iso: string) => new Date(iso).getTime() > Date.now();

  return (
    <Card title="Retention">
      <p className="muted">
        How long each kind of caller data is kept before the redaction job removes its personal fields and files (the record stays
        for counts and billing). A rule that is new or shorter runs 30 days later unless you confirm it sooner; the dry run says
        how many records it would redact now.
      </p>
      <QueryState query={rules}>
        {() => (
          <ul className="retention-rules">
            {shown.map((rule) => (
              <li key={rule.kind} className="retention-rule">
                <TextField
                  label={rule.label}
                  hint={
                    rule.setOnStorage
                      ? `${rule.covers} Also shown under Storage.`
                      : `${rule.covers} Default: ${rule.defaultDays} days.`
                  }
                  type="number"
                  inputMode="numeric"
                  placeholder="Keep"
                  value={typed[rule.kind] ?? (rule.days == null ? '' : String(rule.days))}
                  onChange={(e) => setTyped((t) => ({ ...t, [rule.kind]: e.target.value }))}
                  error={errors[rule.kind] || undefined}
                />
                <p className="muted">
                  {rule.days == null
                    ? 'Kept until erased.'
                    : `Dry run: ${rule.wouldRedact} record${rule.wouldRedact === 1 ? '' : 's'} would be redacted now. ${future(rule.startsAt) ? `First run from ${new Date(rule.startsAt).toLocaleDateString()}.` : `In force${rule.confirmedBy ? ` (confirmed by ${rule.confirmedBy})` : ''}.`}`}
                </p>
                <div className="form-actions">
                  <Button onClick={() => save(rule)} successLabel="Saved" failureLabel="Not saved">
                    Save
                  </Button>
                  {rule.days != null && future(rule.startsAt) ? (
                    <Button variant="danger" onClick={() => confirm(rule)}>
                      Start now
                    </Button>
                  ) : null}
                </div>
              </li>
            ))}
          </ul>
        )}
      </QueryState>
    </Card>
  );
}
