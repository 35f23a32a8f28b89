import { useFormErrors } from '../../ui/form';
import { useState } from 'react';
import { Field, TextField } from '../../ui/Field';
import { SALES_EMAIL, SUPPORT_EMAIL } from './contacts';
import { UnwiredForm } from './UnwiredForm';

export const PRIORITIES = [
  { value: 'low', label: 'Low' },
  { value: 'medium', label: 'Medium' },
  { value: 'high', label: 'Critical Production Outage' },
] as const;

type Errors = { subject?: string; description?: string };

export default function TicketPage() {
  const [subject, setSubject] = useState('');
  const [priority, setPriority] = useState<(typeof PRIORITIES)[number]['value']>('medium');
  // the crash screen's report brings the failed request's id along (?reference=…)
  const [description, setDescription] = useState(() => {
    const reference = new URLSearchParams(window.location.search).get('reference');
    return reference ? `Reference: ${reference.slice(0, 128)}\n\n` : '';
  });
  const formErrors = useFormErrors();
  const errors: Errors = formErrors.errors;

  return (
    <UnwiredForm
      title="Report an issue"
      formErrors={formErrors}
      check={(): Errors => ({
        subject: subject.trim() ? undefined : 'Subject is required',
        description: description.trim() ? undefined : 'Description is required',
      })}
      submitLabel="Submit ticket"
      notSent={{
        lead: (
          <>
            <strong>Your ticket has not been sent.</strong> Ticket submission isn't connected in this console yet.
          </>
        ),
        email: SUPPORT_EMAIL,
        subject,
        after: ' with the subject, priority and description you entered.',
      }}
      footer={
        <p className="muted">
          Support: <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a> · Sales:{' '}
          <a href={`mailto:${SALES_EMAIL}`}>{SALES_EMAIL}</a>
        </p>
      }
    >
      <TextField label="Subject" required value={subject} error={errors.subject} onChange={(e) => setSubject(e.target.value)} />
      <Field label="Priority" required>
        {(control) => (
          <select
            className="input"
            {...control}
            value={priority}
            onChange={(e) => setPriority(e.target.value as typeof priority)}
          >
            {PRIORITIES.map((p) => (
              <option key={p.value} value={p.value}>
                {p.label}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field label="Description" required error={errors.description}>
        {(control) => (
          <textarea
            className="input"
            rows={6}
            {...control}
            value={description}
            onChange={(e) => setDescription(e.target.value)}
          />
        )}
      </Field>
      <Field label="Attachment" hint="Optional: a screenshot or log file.">
        {(control) => <input type="file" className="input-file" {...control} />}
      </Field>
    </UnwiredForm>
  );
}
