import { useEffect, useState, type FormEvent } from 'react';
import type { Journey, JourneyDetail, JourneyStepApp } from '../../../api/contract/journeys';
import { errorMessage, type Api } from '../../api/client';
import { useLiveChanges } from '../../api/live';
import { Button } from '../../ui/Button';
import { Field, TextField } from '../../ui/Field';
import { LocaleSelect } from '../../ui/LocaleSelect';
import { ChoicePicker } from '../apps/_frame/ChoicePicker';

// Sending a journey and following it: the console's Journeys page and the agent action in the
// Zoom and Webex panels (hosts/AgentPreview.tsx) use these with their own session's client.

export const STEP_LABEL: Record<JourneyStepApp, string> = {
  'one-time-passcode': 'Verify with a code',
  passkeys: 'Verify with a passkey',
  'identity-verification': 'Verify an identity document',
  'e-form': 'Fill in a form',
  'document-signature': 'Sign a document',
  payments: 'Pay',
};

export const STATUS_BADGE: Record<string, string> = {
  active: 'badge-info',
  paused: 'badge-warning',
  completed: 'badge-success',
  failed: 'badge-danger',
  expired: 'badge-neutral',
  canceled: 'badge-neutral',
};

/** how often the progress re-reads itself when the live stream cannot be opened */
const PROGRESS_FALLBACK_MS = 5000;

/** The send form: a journey picked (never pasted), the caller's number, language and name. */
export function SendJourney({ api, onSent }: { api: Api; onSent: (journey: Journey) => void }) {
  const [templateId, setTemplateId] = useState('');
  const [phoneNumber, setPhoneNumber] = useState('');
  const [customerRef, setCustomerRef] = useState('');
  const [customerName, setCustomerName] = useState('');
  const [locale, setLocale] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [fields, setFields] = useState<Record<string, string>>({});
  const submit = async (e?: FormEvent) => {
    e?.preventDefault();
    setError(null);
    setFields({});
    try {
      const journey = await api.create<Journey>('/journeys', {
        templateId: templateId || undefined,
        phoneNumber,
        customerRef: customerRef || null,
        customerName: customerName || null,
        locale: locale || null,
      });
      onSent(journey);
    } catch (err) {
      setError(errorMessage(err, 'The journey could not be sent.'));
      setFields(((err as { fields?: Record<string, string> }).fields ?? {}) as Record<string, string>);
      throw err;
    }
  };
  return (
    <form className="form" onSubmit={(e) => void submit(e).catch(() => {})} noValidate>
      <ChoicePicker
        api={api}
        path="/journeys/choices"
        label="Journey"
        name="templateId"
        required
        placeholder="Search your journeys"
        empty="No journey is built yet: an admin builds one under Journeys."
        error={fields.templateId ?? null}
        value={templateId}
        onChange={setTemplateId}
      />
      <TextField
        label="Phone number"
        required
        name="phoneNumber"
        type="tel"
        autoComplete="off"
        placeholder="+15551234567"
        value={phoneNumber}
        onChange={(e) => setPhoneNumber(e.target.value)}
        error={fields.phoneNumber}
      />
      <Field label="Caller's language">
        {(control) => (
          <LocaleSelect {...control} none="The account's default" value={locale} onChange={(e) => setLocale(e.target.value)} />
        )}
      </Field>
      <TextField
        label="Customer ID"
        name="customerRef"
        value={customerRef}
        onChange={(e) => setCustomerRef(e.target.value)}
        error={fields.customerRef}
      />
      <TextField
        label="Caller's full name"
        hint="Needed when the journey has a signature step"
        name="customerName"
        value={customerName}
        onChange={(e) => setCustomerName(e.target.value)}
        error={fields.customerName}
      />
      {error && (
        <p role="alert" className="field-error">
          {error}
        </p>
      )}
      <Button type="submit" variant="primary" onClick={() => submit()} successLabel="Sent">
        Send journey
      </Button>
    </form>
  );
}

/** Where a sent journey stands, step by step, followed live (the agent's own stream carries its journeys and their tasks). */
export function JourneyProgress({ api, id, onDone }: { api: Api; id: string; onDone: () => void }) {
  const [journey, setJourney] = useState<JourneyDetail | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [version, setVersion] = useState(0);
  const reload = () => setVersion((v) => v + 1);
  useEffectOnce(version, () => {
    const controller = new AbortController();
    api
      .get<JourneyDetail>(`/journeys/${id}`, { signal: controller.signal })
      .then(setJourney, (e) => !controller.signal.aborted && setError(e));
    return () => controller.abort();
  });
  const taskIds = new Set(journey?.steps.map((s) => s.taskId).filter(Boolean));
  useLiveChanges((c) => c.ref === id || (c.ref !== null && taskIds.has(c.ref)), reload, PROGRESS_FALLBACK_MS);
  if (error && !journey) return <p role="alert">{errorMessage(error, 'The journey could not be loaded.')}</p>;
  if (!journey) return <p className="muted">Loading the journey…</p>;
  return (
    <div className="journey-progress">
      <p role="status" aria-live="polite">
        {journey.name}: <span className={`badge ${STATUS_BADGE[journey.status] ?? 'badge-neutral'}`}>{journey.status}</span>{' '}
        {journey.status === 'active' ? `step ${journey.currentStep + 1} of ${journey.steps.length}` : ''}
      </p>
      <ol className="journey-steps">
        {journey.steps.map((s) => (
          <li key={s.position} className="journey-step">
            {STEP_LABEL[s.app]}: {s.status}
          </li>
        ))}
      </ol>
      {(journey.status === 'failed' || journey.status === 'expired' || journey.status === 'paused') && (
        <Button
          size="sm"
          variant="primary"
          onClick={() => api.post(`/journeys/${id}/resend`).then(reload)}
          successLabel="Sent again"
        >
          Resend from step {journey.currentStep + 1}
        </Button>
      )}
      <Button size="sm" onClick={onDone}>
        Send another journey
      </Button>
    </div>
  );
}

function useEffectOnce(key: number, effect: () => () => void) {
  // re-run on each reload (key), like useQuery, without a session-bound client
  useEffect(effect, [key]); // eslint-disable-line react-hooks/exhaustive-deps
}
