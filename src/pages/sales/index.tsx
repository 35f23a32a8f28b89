import { useFormErrors } from '../../ui/form';
import { useState } from 'react';
import { APPS } from '../../../api/contract/apps';
import { compactPhone, isPhoneNumber, PHONE_MESSAGE } from '../../../api/contract/sms';
import { Field, TextField } from '../../ui/Field';
import { SALES_EMAIL } from '../support/contacts';
import { UnwiredForm } from '../support/UnwiredForm';

const INTERESTS = [...APPS.filter((a) => a.released).map((a) => a.title), 'Enterprise plan', 'Something else'];
const CONTACT_METHODS = [
  { value: 'email', label: 'Email' },
  { value: 'phone', label: 'Phone' },
];

type Errors = { interest?: string; phone?: string; contactMethod?: string };

export const PHONE_REQUIRED_MESSAGE = 'Phone number is required to be contacted by phone';

/** The phone field's problem: a number with its country code when given (spaces, dashes, dots and brackets allowed), and required for contact by phone. */
export function salesPhoneError(phone: string, contactMethod: string): string | undefined {
  if (!compactPhone(phone.trim())) return contactMethod === 'phone' ? PHONE_REQUIRED_MESSAGE : undefined;
  return isPhoneNumber(phone) ? undefined : PHONE_MESSAGE;
}

export default function SalesPage() {
  const [interest, setInterest] = useState('');
  const [phone, setPhone] = useState('');
  const [message, setMessage] = useState('');
  const [contactMethod, setContactMethod] = useState('');
  const formErrors = useFormErrors();
  const errors: Errors = formErrors.errors;

  return (
    <UnwiredForm
      title="Contact sales"
      lead={<p className="muted page-lead">Tell us what you need and how to reach you.</p>}
      formErrors={formErrors}
      check={(): Errors => ({
        interest: interest ? undefined : 'Please choose what you are interested in',
        contactMethod: contactMethod ? undefined : 'Please choose how we should contact you',
        phone: salesPhoneError(phone, contactMethod),
      })}
      submitLabel="Send request"
      notSent={{
        lead: (
          <>
            <strong>Your request has not been sent.</strong> Sales requests aren't connected in this console yet.
          </>
        ),
        email: SALES_EMAIL,
        subject: interest,
        after: ' and the team will get in touch.',
      }}
    >
      <Field label="Interested in" required error={errors.interest}>
        {(control) => (
          <select className="input" {...control} value={interest} onChange={(e) => setInterest(e.target.value)}>
            <option value="">Choose…</option>
            {INTERESTS.map((i) => (
              <option key={i} value={i}>
                {i}
              </option>
            ))}
          </select>
        )}
      </Field>
      <TextField
        label="Phone"
        type="tel"
        autoComplete="tel"
        required={contactMethod === 'phone'}
        value={phone}
        onChange={(e) => setPhone(e.target.value)}
        placeholder="+1 415 555 0123"
        hint="With its country code, e.g. +44 20 7946 0018."
        error={errors.phone}
      />
      <Field label="Message">
        {(control) => (
          <textarea className="input" rows={4} {...control} value={message} onChange={(e) => setMessage(e.target.value)} />
        )}
      </Field>
      <fieldset
        className="fieldset"
        aria-invalid={errors.contactMethod ? true : undefined}
        aria-describedby={errors.contactMethod ? 'contact-method-error' : undefined}
      >
        <legend className="field-label">
          Preferred contact method<span aria-hidden="true"> *</span>
        </legend>
        {CONTACT_METHODS.map((m) => (
          <label key={m.value} className="radio">
            <input
              type="radio"
              name="contactMethod"
              value={m.value}
              checked={contactMethod === m.value}
              onChange={() => setContactMethod(m.value)}
            />
            {m.label}
          </label>
        ))}
        {errors.contactMethod && (
          <p id="contact-method-error" className="field-error">
            {errors.contactMethod}
          </p>
        )}
      </fieldset>
    </UnwiredForm>
  );
}
