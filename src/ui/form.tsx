import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import * as v from 'valibot';
import { ApiError } from '../api/client';
import { InvalidFields, type FieldErrors } from './invalid-fields';

export { InvalidFields, type FieldErrors } from './invalid-fields';

// The one way a console form reports what is wrong with it: each message on its field (the
// Field component wires aria-invalid and aria-describedby), focus on the first invalid field,
// the submit button keeping its label. Checks run against the contract's schema before sending;
// a 400 answer's `fields` land the same way.

/** Checks a value against a contract schema: the parsed value, or the first message per field. */
export function check<S extends v.GenericSchema>(
  schema: S,
  value: unknown,
): { ok: true; value: v.InferOutput<S> } | { ok: false; fields: FieldErrors } {
  const result = v.safeParse(schema, value);
  if (result.success) return { ok: true, value: result.output };
  const fields: FieldErrors = {};
  for (const issue of result.issues) {
    const key = issue.path?.map((p) => String(p.key)).join('.') || '_';
    fields[key] ??= issue.message;
  }
  return { ok: false, fields };
}

/** Field messages from a 400 answer, if any. */
export function apiFields(error: unknown): FieldErrors | null {
  return error instanceof ApiError && error.fields && Object.keys(error.fields).length ? error.fields : null;
}

export type FormErrors = {
  /** put on the element that holds the fields (usually the <form>): `ref={form.ref}` */
  ref: (element: HTMLElement | null) => void;
  errors: FieldErrors;
  /**
   * Shows these messages on their fields and moves focus to the first invalid one once they
   * are drawn; returns the error for the action to throw (its Button then keeps its label).
   */
  invalid(fields: FieldErrors): InvalidFields;
  /** `invalid(fields)` when the answer carries field messages, else null (the caller says what went wrong). */
  fromAnswer(error: unknown): InvalidFields | null;
  /** Forgets every message, or one field's (when its value changes). */
  clear(key?: string): void;
};

const FOCUSABLE = 'input, select, textarea, button, [tabindex]';

export function useFormErrors(): FormErrors {
  const holder = useRef<HTMLElement | null>(null);
  const ref = useCallback((element: HTMLElement | null) => {
    holder.current = element;
  }, []);
  const [state, setState] = useState<{ errors: FieldErrors; attempt: number }>({ errors: {}, attempt: 0 });

  useEffect(() => {
    if (!state.attempt) return;
    // after the messages are drawn: the first invalid control in document order, or the form's
    // own message when no field is named (FormError)
    const first = holder.current?.querySelector<HTMLElement>('[aria-invalid="true"], [data-form-error]');
    // a group marked invalid (a fieldset of radios) takes focus on its first control
    const target = first && !first.matches(FOCUSABLE) ? first.querySelector<HTMLElement>(FOCUSABLE) : first;
    target?.focus();
  }, [state.attempt]);

  const invalid = useCallback((fields: FieldErrors) => {
    setState((s) => ({ errors: fields, attempt: s.attempt + 1 }));
    return new InvalidFields(fields);
  }, []);
  const clear = useCallback((key?: string) => {
    setState((s) => {
      if (key === undefined) return Object.keys(s.errors).length ? { ...s, errors: {} } : s;
      if (!(key in s.errors)) return s;
      const { [key]: _gone, ...rest } = s.errors;
      return { ...s, errors: rest };
    });
  }, []);
  return useMemo(
    () => ({
      ref,
      errors: state.errors,
      invalid,
      fromAnswer: (error: unknown) => {
        const fields = apiFields(error);
        return fields ? invalid(fields) : null;
      },
      clear,
    }),
    [ref, state.errors, invalid, clear],
  );
}

/** What is wrong with the form as a whole (a message no field owns); focus comes here when no field is invalid. */
export function FormError({ message }: { message: string | null | undefined }) {
  if (!message) return null;
  return (
    <p className="notice notice-error" role="alert" tabIndex={-1} data-form-error>
      {message}
    </p>
  );
}
