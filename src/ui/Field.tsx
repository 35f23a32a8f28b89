import { useId, type InputHTMLAttributes, type ReactNode } from 'react';

/** What a Field hands its control so label, hint and error are wired for assistive tech. */
export type ControlProps = { id: string; 'aria-invalid'?: true; 'aria-describedby'?: string; required?: boolean };

type FieldProps = {
  label: ReactNode;
  error?: string | null;
  hint?: ReactNode;
  required?: boolean;
  children: (control: ControlProps) => ReactNode;
};

/** Label, control and inline error. The control is rendered by the caller: input, select, textarea. */
export function Field({ label, error, hint, required, children }: FieldProps) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined;
  return (
    <div className={error ? 'field field-invalid' : 'field'}>
      <label htmlFor={id} className="field-label">
        {label}
        {required && (
          <span className="field-required" aria-hidden="true">
            {' '}
            *
          </span>
        )}
      </label>
      {hint && (
        <p id={hintId} className="field-hint">
          {hint}
        </p>
      )}
      {children({ id, 'aria-invalid': error ? true : undefined, 'aria-describedby': describedBy, required })}
      {error && (
        <p id={errorId} className="field-error">
          {error}
        </p>
      )}
    </div>
  );
}

/** The common case: a labelled text input. */
export function TextField({
  label,
  error,
  hint,
  required,
  ...input
}: Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> & { label: ReactNode; error?: string | null; hint?: ReactNode }) {
  return (
    <Field label={label} error={error} hint={hint} required={required}>
      {(control) => <input className="input" {...input} {...control} />}
    </Field>
  );
}
