import { useAtomValue } from 'jotai';
import { useState } from 'react';
import { Link, Route, Switch, useLocation, useParams } from 'wouter';
import type { Journey, JourneyDetail, JourneyStep, JourneyStepApp, JourneyTemplate } from '../../../api/contract/journeys';
import { JOURNEY_MAX_STEPS, JOURNEY_STEP_APPS } from '../../../api/contract/journeys';
import { APPS } from '../../../api/contract/apps';
import { errorMessage, type Api } from '../../api/client';
import { useApi, useQuery } from '../../api/hooks';
import { useLiveChanges } from '../../api/live';
import { bootstrapAtom } from '../../state/session';
import { useVisibleApps } from '../../app/current-app';
import { hasRole } from '../../state/roles';
import { Button } from '../../ui/Button';
import { Card, EmptyState } from '../../ui/Card';
import { Field, TextField } from '../../ui/Field';
import { LoadingPanel } from '../../ui/Spinner';
import { formatDate, formatDateTime } from '../../ui/format';
import { ChoicePicker } from '../apps/_frame/ChoicePicker';
import { SendJourney, STATUS_BADGE, STEP_LABEL } from './send';

// Journeys: several apps in a row behind one SMS and one link. Not an app: the page lives under
// its own route (/journeys), reached from every app's dashboard, and leaves SPEC's menus as they are.

/** how often a journey re-reads itself when the live stream cannot be opened */
export const JOURNEY_FALLBACK_MS = 5000;

/** what the caller's page is titled at each step (the English of the customer page) */
const CALLER_SEES: Record<JourneyStepApp, string> = {
  'one-time-passcode': 'Enter your code',
  passkeys: 'Confirm it is you with your passkey',
  'identity-verification': 'Photos of an identity document and a selfie',
  'e-form': 'The form, to fill in',
  'document-signature': 'The document, to read and sign',
  payments: 'The amount, and a button to pay on Stripe',
};
const appTitle = (id: string) => APPS.find((a) => a.id === id)?.title ?? id;

function StatusBadge({ status }: { status: string }) {
  return <span className={`badge ${STATUS_BADGE[status] ?? 'badge-neutral'}`}>{status[0]!.toUpperCase() + status.slice(1)}</span>;
}

export default function JourneysArea() {
  return (
    <Switch>
      <Route path="/" component={JourneysHome} />
      <Route path="/templates/new" component={Builder} />
      <Route path="/templates/:id" component={Builder} />
      <Route path="/:id" component={JourneyPage} />
    </Switch>
  );
}

function useIsAdmin() {
  const bootstrap = useAtomValue(bootstrapAtom);
  return hasRole(bootstrap?.role, 'admin');
}

function SendJourneyHere() {
  const api = useApi();
  const [, navigate] = useLocation();
  return <SendJourney api={api} onSent={(journey) => navigate(`/${journey.id}`)} />;
}

function JourneysHome() {
  const isAdmin = useIsAdmin();
  const journeys = useQuery('journeys', (a, signal) => a.get<Journey[]>('/journeys', { signal }));
  const templates = useQuery('journey-templates', (a, signal) => a.get<JourneyTemplate[]>('/journeys/templates', { signal }));
  useLiveChanges((c) => c.app === 'journeys', journeys.reload, JOURNEY_FALLBACK_MS);
  return (
    <div className="page">
      <div className="page-header">
        <h1 className="page-title">Journeys</h1>
        {isAdmin && (
          <Link href="/templates/new" className="btn btn-primary">
            New journey
          </Link>
        )}
      </div>
      <p className="page-lead">
        One SMS and one link for the whole call: the caller goes through the steps in order (verify, then a form, a signature, a
        payment), each an ordinary task of its app.
      </p>
      <Card title="Send a journey">
        <SendJourneyHere />
      </Card>
      <Card title="Your journeys">
        {templates.error ? (
          <p role="alert">{errorMessage(templates.error, 'The journeys could not be loaded.')}</p>
        ) : !templates.data ? (
          <LoadingPanel label="Loading journeys" />
        ) : templates.data.length === 0 ? (
          <EmptyState title="No journey yet">
            {isAdmin ? 'Build one with New journey.' : 'An admin builds journeys here.'}
          </EmptyState>
        ) : (
          <ul className="journey-templates">
            {templates.data.map((t) => (
              <li key={t.id}>
                {isAdmin ? <Link href={`/templates/${t.id}`}>{t.name}</Link> : <strong>{t.name}</strong>}
                <span className="muted"> · {t.steps.map((s) => STEP_LABEL[s.app]).join(' → ')}</span>
              </li>
            ))}
          </ul>
        )}
      </Card>
      <Card title="Sent journeys">
        {journeys.error ? (
          <p role="alert">{errorMessage(journeys.error, 'The sent journeys could not be loaded.')}</p>
        ) : !journeys.data ? (
          <LoadingPanel label="Loading sent journeys" />
        ) : journeys.data.length === 0 ? (
          <EmptyState title="Nothing sent yet">Journeys you send show here, with where each caller is.</EmptyState>
        ) : (
          <div className="table-wrap">
            <table className="table">
              <caption className="sr-only">Sent journeys, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">Sent</th>
                  <th scope="col">Journey</th>
                  <th scope="col">Phone</th>
                  <th scope="col">Status</th>
                  <th scope="col">Step</th>
                </tr>
              </thead>
              <tbody>
                {journeys.data.map((j) => (
                  <tr key={j.id}>
                    <td>
                      <time dateTime={j.createdAt} title={formatDateTime(j.createdAt)}>
                        {formatDate(j.createdAt)}
                      </time>
                    </td>
                    <td>
                      <Link href={`/${j.id}`}>{j.name}</Link>
                    </td>
                    <td>{j.phoneNumber}</td>
                    <td>
                      <StatusBadge status={j.status} />
                    </td>
                    <td>
                      {j.currentStep + 1} of {j.steps.length}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Card>
    </div>
  );
}

// ---------------------------------------------------------------- the builder

type DraftStep = {
  app: JourneyStepApp;
  optional: boolean;
  enroll: boolean;
  formId: string;
  documentId: string;
  productId: string;
  amount: string;
  currency: string;
  description: string;
};
const blank = (app: JourneyStepApp): DraftStep => ({
  app,
  optional: false,
  enroll: false,
  formId: '',
  documentId: '',
  productId: '',
  amount: '',
  currency: '',
  description: '',
});

function draftOf(step: JourneyStep): DraftStep {
  const d = { ...blank(step.app), optional: Boolean(step.optional) };
  if (step.app === 'e-form') d.formId = step.formId;
  if (step.app === 'passkeys') d.enroll = step.action === 'enroll';
  if (step.app === 'document-signature') d.documentId = step.documentId;
  if (step.app === 'payments')
    Object.assign(d, {
      productId: step.productId ?? '',
      amount: step.amount !== undefined ? String(step.amount) : '',
      currency: step.currency ?? '',
      description: step.description ?? '',
    });
  return d;
}

function stepOf(d: DraftStep): Record<string, unknown> {
  if (d.app === 'one-time-passcode' || d.app === 'identity-verification') return { app: d.app };
  if (d.app === 'passkeys') return { app: d.app, action: d.enroll ? 'enroll' : 'verify' };
  if (d.app === 'e-form') return { app: d.app, formId: d.formId, optional: d.optional };
  if (d.app === 'document-signature') return { app: d.app, documentId: d.documentId, optional: d.optional };
  return d.productId
    ? { app: d.app, productId: d.productId, optional: d.optional }
    : {
        app: d.app,
        amount: Number(d.amount),
        currency: d.currency || undefined,
        description: d.description,
        optional: d.optional,
      };
}

function Builder() {
  const params = useParams<{ id?: string }>();
  const id = params.id;
  const existing = useQuery(id ? `journey-template-${id}` : null, (a, signal) =>
    a.get<JourneyTemplate>(`/journeys/templates/${id}`, { signal }),
  );
  if (id && !existing.data) {
    return (
      <div className="page">
        {existing.error ? (
          <p role="alert">{errorMessage(existing.error, 'This journey could not be loaded.')}</p>
        ) : (
          <LoadingPanel label="Loading the journey" />
        )}
      </div>
    );
  }
  return <BuilderForm key={id ?? 'new'} template={existing.data ?? null} />;
}

function BuilderForm({ template }: { template: JourneyTemplate | null }) {
  const api = useApi();
  const [, navigate] = useLocation();
  const [name, setName] = useState(template?.name ?? '');
  const [onFailure, setOnFailure] = useState<'end' | 'pause'>(template?.onFailure ?? 'end');
  const [steps, setSteps] = useState<DraftStep[]>(template ? template.steps.map(draftOf) : [blank('one-time-passcode')]);
  const [adding, setAdding] = useState<JourneyStepApp>('e-form');
  // an unreleased app (Identity Verification) is offered only to whoever the console shows it to
  const visible = new Set(useVisibleApps().map((a) => a.id as string));
  const offered = JOURNEY_STEP_APPS.filter((app) => visible.has(app));
  const [fields, setFields] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const change = (i: number, patch: Partial<DraftStep>) =>
    setSteps((list) => list.map((s, j) => (j === i ? { ...s, ...patch } : s)));
  const move = (i: number, by: number) =>
    setSteps((list) => {
      const next = [...list];
      const [taken] = next.splice(i, 1);
      next.splice(i + by, 0, taken!);
      return next;
    });

  const save = async () => {
    setError(null);
    setFields({});
    const body = { name, onFailure, steps: steps.map(stepOf) };
    try {
      if (template) await api.put(`/journeys/templates/${template.id}`, body);
      else await api.create('/journeys/templates', body);
      navigate('/');
    } catch (err) {
      setError(errorMessage(err, 'The journey could not be saved.'));
      setFields(((err as { fields?: Record<string, string> }).fields ?? {}) as Record<string, string>);
      throw err;
    }
  };
  const remove = async () => {
    await api.delete(`/journeys/templates/${template!.id}`, { expect: 204 });
    navigate('/');
  };

  return (
    <div className="page">
      <div className="page-header">
        <h1 className="page-title">{template ? `Edit "${template.name}"` : 'New journey'}</h1>
        <Link href="/">Back to journeys</Link>
      </div>
      <div className="journey-builder">
        <Card title="Steps">
          <form className="form" onSubmit={(e) => e.preventDefault()} noValidate>
            <TextField label="Name" required value={name} onChange={(e) => setName(e.target.value)} error={fields.name} />
            <ol className="journey-steps">
              {steps.map((s, i) => (
                <li key={i} className="journey-step">
                  <fieldset>
                    <legend>
                      Step {i + 1}: {STEP_LABEL[s.app]} <span className="muted">({appTitle(s.app)})</span>
                    </legend>
                    <StepFields
                      api={api}
                      step={s}
                      index={i}
                      onChange={(patch) => change(i, patch)}
                      error={fields[`steps.${i}`] ?? fields[`steps.${i}.formId`] ?? fields[`steps.${i}.documentId`] ?? null}
                    />
                    {s.app !== 'one-time-passcode' && s.app !== 'passkeys' && s.app !== 'identity-verification' && (
                      <label className="checkbox">
                        <input type="checkbox" checked={s.optional} onChange={(e) => change(i, { optional: e.target.checked })} />{' '}
                        The caller may skip this step
                      </label>
                    )}
                    <div className="journey-step-tools">
                      <Button size="sm" disabled={i === 0} onClick={() => move(i, -1)} aria-label={`Move step ${i + 1} up`}>
                        Up
                      </Button>
                      <Button
                        size="sm"
                        disabled={i === steps.length - 1}
                        onClick={() => move(i, 1)}
                        aria-label={`Move step ${i + 1} down`}
                      >
                        Down
                      </Button>
                      <Button
                        size="sm"
                        variant="ghost"
                        disabled={steps.length === 1}
                        onClick={() => setSteps((list) => list.filter((_, j) => j !== i))}
                        aria-label={`Remove step ${i + 1}`}
                      >
                        Remove
                      </Button>
                    </div>
                  </fieldset>
                </li>
              ))}
            </ol>
            {fields.steps && (
              <p className="field-error" role="alert">
                {fields.steps}
              </p>
            )}
            {steps.length < JOURNEY_MAX_STEPS && (
              <div className="journey-add">
                <Field label="Add a step">
                  {(control) => (
                    <select
                      className="input"
                      {...control}
                      value={adding}
                      onChange={(e) => setAdding(e.target.value as JourneyStepApp)}
                    >
                      {offered.map((app) => (
                        <option key={app} value={app}>
                          {STEP_LABEL[app]}
                        </option>
                      ))}
                    </select>
                  )}
                </Field>
                <Button size="sm" onClick={() => setSteps((list) => [...list, blank(adding)])}>
                  Add step
                </Button>
              </div>
            )}
            <Field label="When a step fails or expires">
              {(control) => (
                <select
                  className="input"
                  {...control}
                  value={onFailure}
                  onChange={(e) => setOnFailure(e.target.value as 'end' | 'pause')}
                >
                  <option value="end">End the journey</option>
                  <option value="pause">Pause it until the agent resends that step</option>
                </select>
              )}
            </Field>
            {error && (
              <p role="alert" className="field-error">
                {error}
              </p>
            )}
            <div className="form-actions">
              <Button variant="primary" onClick={save} successLabel="Saved">
                Save journey
              </Button>
              {template && (
                <Button variant="danger" onClick={remove}>
                  Delete
                </Button>
              )}
            </div>
          </form>
        </Card>
        <Card title="What the caller sees">
          <Preview steps={steps} />
        </Card>
      </div>
    </div>
  );
}

function StepFields({
  api,
  step,
  index,
  onChange,
  error,
}: {
  api: Api;
  step: DraftStep;
  index: number;
  onChange: (patch: Partial<DraftStep>) => void;
  error: string | null;
}) {
  if (step.app === 'one-time-passcode')
    return (
      <p className="muted">
        The code travels in the journey's SMS; the caller types it on the page. Nothing after it shows until it is right.
      </p>
    );
  if (step.app === 'identity-verification')
    return (
      <p className="muted">
        The caller photographs an identity document and takes a selfie on Identity Verification's own page; a reviewer decides.
        Nothing after it shows until it is approved.
      </p>
    );
  if (step.app === 'passkeys')
    return (
      <>
        <p className="muted">
          {step.enroll
            ? "The caller creates a passkey for the journey's customer ID, on Passkeys' own page."
            : "The caller confirms with the passkey enrolled for the journey's customer ID."}{' '}
          Nothing after it shows until it succeeds.
        </p>
        <label className="checkbox">
          <input type="checkbox" checked={step.enroll} onChange={(e) => onChange({ enroll: e.target.checked })} /> Create a
          passkey (instead of verifying with one)
        </label>
      </>
    );
  if (step.app === 'e-form')
    return (
      <ChoicePicker
        api={api}
        path="/e-form/actions/send/choices/form"
        label="Form"
        name={`form-${index}`}
        required
        placeholder="Search published forms"
        empty="No form is published yet."
        error={error}
        value={step.formId}
        onChange={(formId) => onChange({ formId })}
      />
    );
  if (step.app === 'document-signature')
    return (
      <ChoicePicker
        api={api}
        path="/document-signature/actions/send/choices/documentId"
        label="Document"
        name={`document-${index}`}
        required
        placeholder="Search published documents"
        empty="No document is published yet."
        error={error}
        value={step.documentId}
        onChange={(documentId) => onChange({ documentId })}
      />
    );
  return (
    <>
      <ChoicePicker
        api={api}
        path="/payments/actions/request/choices/productId"
        label="Product"
        name={`product-${index}`}
        placeholder="Search the product catalog"
        empty="No product yet: type an amount below."
        error={error}
        value={step.productId}
        onChange={(productId) => onChange({ productId })}
      />
      {!step.productId && (
        <>
          <TextField
            label="Amount (in cents)"
            inputMode="numeric"
            value={step.amount}
            onChange={(e) => onChange({ amount: e.target.value.replace(/\D/g, '') })}
          />
          <TextField
            label="Currency"
            placeholder="usd"
            maxLength={3}
            value={step.currency}
            onChange={(e) => onChange({ currency: e.target.value })}
          />
          <TextField
            label="What it is for"
            value={step.description}
            onChange={(e) => onChange({ description: e.target.value })}
          />
        </>
      )}
    </>
  );
}

/** The caller's view: the one SMS, then each page in order, as the customer page words it in English. */
export function Preview({ steps }: { steps: { app: JourneyStepApp; optional: boolean }[] }) {
  const total = steps.length;
  const first = steps[0]?.app === 'one-time-passcode';
  return (
    <div className="journey-preview" aria-label="Preview of the caller's SMS and pages">
      <p className="sms-bubble">
        {first ? 'Your code is 123456. ' : ''}Acme: finish {total === 1 ? 'the step' : `the ${total} steps`} of your call here:
        https://…/c/…
      </p>
      <ol className="journey-preview-pages">
        {steps.map((s, i) => (
          <li key={i}>
            <span className="muted">
              Step {i + 1} of {total}
            </span>
            <strong>{CALLER_SEES[s.app]}</strong>
            {s.optional && <span className="muted">with "Skip this step"</span>}
          </li>
        ))}
        <li>
          <strong>All done</strong>
        </li>
      </ol>
    </div>
  );
}

// ---------------------------------------------------------------- one journey

function JourneyPage() {
  const { id } = useParams<{ id: string }>();
  const api = useApi();
  const detail = useQuery(`journey-${id}`, (a, signal) => a.get<JourneyDetail>(`/journeys/${id}`, { signal }));
  const taskIds = new Set(detail.data?.steps.map((s) => s.taskId).filter(Boolean));
  // live: the journey itself, or any of its steps' tasks (a submitted form moves it on)
  useLiveChanges(
    (c) => c.ref === id || (c.ref !== null && c.ref !== undefined && taskIds.has(c.ref)),
    detail.reload,
    JOURNEY_FALLBACK_MS,
  );
  const j = detail.data;
  return (
    <div className="page">
      <div className="page-header">
        <h1 className="page-title">{j ? j.name : 'Journey'}</h1>
        <Link href="/">Back to journeys</Link>
      </div>
      {detail.error && !j ? (
        <p role="alert">{errorMessage(detail.error, 'This journey could not be loaded.')}</p>
      ) : !j ? (
        <LoadingPanel label="Loading the journey" />
      ) : (
        <>
          <Card title="Where the caller is" actions={<StatusBadge status={j.status} />}>
            <p>
              {j.phoneNumber}
              {j.customerRef ? ` · ${j.customerRef}` : ''} · sent {formatDateTime(j.createdAt)}
              {j.failureReason ? ` · ${j.failureReason}` : ''}
            </p>
            <ol className="journey-steps">
              {j.steps.map((s) => (
                <li
                  key={s.position}
                  className="journey-step"
                  aria-current={s.position === j.currentStep && j.status === 'active' ? 'step' : undefined}
                >
                  <strong>
                    Step {s.position + 1}: {STEP_LABEL[s.app]}
                  </strong>{' '}
                  <span className="badge badge-neutral">{s.status}</span>
                  {s.taskId && (
                    <>
                      {' '}
                      <Link href={`~/${s.app}/${APPS.find((a) => a.id === s.app)?.tabs[1]?.path ?? ''}?session=${s.taskId}`}>
                        Task in {appTitle(s.app)}
                      </Link>
                      {s.taskStatus ? <span className="muted"> ({s.taskStatus})</span> : null}
                    </>
                  )}
                </li>
              ))}
            </ol>
            {(j.status === 'failed' || j.status === 'expired' || j.status === 'paused') && (
              <Button
                variant="primary"
                onClick={() => api.post(`/journeys/${j.id}/resend`).then(detail.reload)}
                successLabel="Sent again"
              >
                Resend from step {j.currentStep + 1}
              </Button>
            )}
          </Card>
          <Card title="Timeline">
            <ol className="timeline">
              {j.timeline.map((e, i) => (
                <li key={i} className="timeline-item">
                  <time dateTime={e.time}>{formatDateTime(e.time)}</time>
                  <p>
                    {e.description} <span className="muted">· {e.actor}</span>
                  </p>
                </li>
              ))}
            </ol>
          </Card>
        </>
      )}
    </div>
  );
}
