import { useState } from 'react';
import type * as v from 'valibot';
import type { AppDefinition } from '../../../../api/contract/apps';
import { errorMessage } from '../../../api/client';
import { useApi, useQuery } from '../../../api/hooks';
import { Button } from '../../../ui/Button';
import { Card } from '../../../ui/Card';
import { Field, TextField } from '../../../ui/Field';
import { QueryState } from '../../../ui/QueryState';
import { toast } from '../../../ui/Toast';
import { check, useFormErrors, type FieldErrors } from '../../../ui/form';
import { ConfigPage } from './ConfigNav';

export type SettingOption = { value: string; label: string; note?: string };

/**
 * One option of the form: a number, a line of text, one choice of a few (`select`), or any of a
 * few (`checkboxes`, sent in the order of `options`).
 */
export type SettingField = {
  name: string;
  label: string;
  hint?: string;
  kind: 'integer' | 'text' | 'select' | 'checkboxes';
  min?: number;
  max?: number;
  options?: SettingOption[];
};

type FormValues = Record<string, string | string[]>;

type Props<S extends v.GenericSchema> = {
  app: AppDefinition;
  /** the app's settings schema from its contract: the same rules the server applies */
  schema: S;
  fields: SettingField[];
  lead?: string;
};

/** The form's values as the schema's input: integers from their digits, blanks as blanks, ticked boxes in the options' order. */
export function formToValue(fields: SettingField[], form: FormValues): Record<string, unknown> {
  return Object.fromEntries(
    fields.map((f) => {
      const value = form[f.name] ?? '';
      if (f.kind === 'checkboxes') return [f.name, (f.options ?? []).map((o) => o.value).filter((k) => value.includes(k))];
      const raw = String(value).trim();
      return [f.name, f.kind === 'integer' ? (raw === '' ? undefined : Number(raw)) : raw];
    }),
  );
}

function formOf(fields: SettingField[], initial: Record<string, unknown>): FormValues {
  return Object.fromEntries(
    fields.map((f) => [
      f.name,
      f.kind === 'checkboxes' ? [...((initial[f.name] as string[] | undefined) ?? [])] : String(initial[f.name] ?? ''),
    ]),
  );
}

const sameValue = (a: string | string[] | undefined, b: string | string[] | undefined) => String(a ?? '') === String(b ?? '');

function SettingInput({
  field: f,
  value,
  error,
  onChange,
}: {
  field: SettingField;
  value: string | string[];
  error?: string;
  onChange: (value: string | string[]) => void;
}) {
  if (f.kind === 'checkboxes') {
    const list = value as string[];
    const errorId = `${f.name}-error`;
    return (
      <fieldset className="choices" aria-invalid={error ? true : undefined} aria-describedby={error ? errorId : undefined}>
        <legend>{f.label}</legend>
        {(f.options ?? []).map((o) => (
          <label key={o.value} className="checkbox">
            <input
              type="checkbox"
              checked={list.includes(o.value)}
              onChange={(e) => onChange(e.target.checked ? [...list, o.value] : list.filter((k) => k !== o.value))}
            />{' '}
            {o.label}
            {o.note && (
              <>
                {' '}
                <span className="muted">{o.note}</span>
              </>
            )}
          </label>
        ))}
        {error && (
          <p className="field-error" id={errorId} role="alert">
            {error}
          </p>
        )}
      </fieldset>
    );
  }
  if (f.kind === 'select') {
    return (
      <Field label={f.label} hint={f.hint} error={error} required>
        {(control) => (
          <select className="input" name={f.name} value={value as string} onChange={(e) => onChange(e.target.value)} {...control}>
            {(f.options ?? []).map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
        )}
      </Field>
    );
  }
  return (
    <TextField
      label={f.label}
      hint={f.hint}
      name={f.name}
      required
      type={f.kind === 'integer' ? 'number' : 'text'}
      inputMode={f.kind === 'integer' ? 'numeric' : undefined}
      min={f.min}
      max={f.max}
      value={value as string}
      error={error}
      onChange={(e) => onChange(e.target.value)}
    />
  );
}

function SettingsForm<S extends v.GenericSchema>({
  app,
  schema,
  fields,
  initial,
}: Props<S> & { initial: Record<string, unknown> }) {
  const api = useApi();
  const [start] = useState(() => formOf(fields, initial));
  const [form, setForm] = useState<FormValues>(start);
  const [touched, setTouched] = useState(false);
  const formErrors = useFormErrors();
  const serverErrors = formErrors.errors;
  const checked = check(schema, formToValue(fields, form));
  const errors: FieldErrors = { ...(checked.ok ? {} : checked.fields), ...serverErrors };

  const save = async () => {
    setTouched(true);
    if (!checked.ok) throw formErrors.invalid({});
    try {
      await api.put(`/${app.id}/settings/general`, checked.value);
      formErrors.clear();
      toast.success('Settings have been saved');
    } catch (error) {
      const invalid = formErrors.fromAnswer(error);
      if (invalid) throw invalid;
      formErrors.clear();
      toast.error('Settings could not be saved', errorMessage(error), error);
      throw error;
    }
  };

  return (
    <form className="form" noValidate onSubmit={(e) => e.preventDefault()} aria-label="General settings" ref={formErrors.ref}>
      {fields.map((f) => (
        <SettingInput
          key={f.name}
          field={f}
          value={form[f.name] ?? ''}
          // a field shows its error once it changed or Save was pressed
          error={touched || !sameValue(form[f.name], start[f.name]) ? errors[f.name] : undefined}
          onChange={(value) => {
            formErrors.clear(f.name);
            setForm((s) => ({ ...s, [f.name]: value }));
          }}
        />
      ))}
      <div className="form-actions">
        <Button type="submit" variant="primary" onClick={save} successLabel="Saved" failureLabel="Not saved">
          Save
        </Button>
      </div>
    </form>
  );
}

/** Configuration > General: the app's own options, checked by its contract schema as you type. */
export function GeneralSettings<S extends v.GenericSchema>(props: Props<S>) {
  const { app, lead } = props;
  const settings = useQuery(`${app.id}:settings-general`, (a, signal) =>
    a.get<Record<string, unknown>>(`/${app.id}/settings/general`, { signal }),
  );
  return (
    <ConfigPage app={app} title="General" lead={lead}>
      <Card>
        <QueryState query={settings}>{() => settings.data && <SettingsForm {...props} initial={settings.data} />}</QueryState>
      </Card>
    </ConfigPage>
  );
}
