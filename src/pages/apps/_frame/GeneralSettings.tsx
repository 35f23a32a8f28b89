import { useState } from 'react';
import type * as v from 'valibot';
import type { AppDefinition } from '../../../../api/contract/apps';
import { errorMessage } from '../../../api/client';
import { useApi, useQuery } from '../../../api/hooks';
import { Button } from '../../../ui/Button';
import { Card } from '../../../ui/Card';
import { TextField } from '../../../ui/Field';
import { QueryState } from '../../../ui/QueryState';
import { toast } from '../../../ui/Toast';
import { apiFields, check, type FieldErrors } from '../../settings/form-errors';
import { ConfigPage } from './ConfigNav';

export type SettingField = { name: string; label: string; hint?: string; kind: 'integer' | 'text'; min?: number; max?: number };

type Props<S extends v.GenericSchema> = {
  app: AppDefinition;
  /** the app's settings schema from its contract: the same rules the server applies */
  schema: S;
  fields: SettingField[];
  lead?: string;
};

/** The form's text values as the schema's input: integers from their digits, blanks as blanks. */
export function formToValue(fields: SettingField[], form: Record<string, string>): Record<string, unknown> {
  return Object.fromEntries(
    fields.map((f) => {
      const raw = (form[f.name] ?? '').trim();
      return [f.name, f.kind === 'integer' ? (raw === '' ? undefined : Number(raw)) : raw];
    }),
  );
}

function SettingsForm<S extends v.GenericSchema>({ app, schema, fields, initial }: Props<S> & { initial: Record<string, unknown> }) {
  const api = useApi();
  const [form, setForm] = useState<Record<string, string>>(() => Object.fromEntries(fields.map((f) => [f.name, String(initial[f.name] ?? '')])));
  const [touched, setTouched] = useState(false);
  const [serverErrors, setServerErrors] = useState<FieldErrors>({});
  const checked = check(schema, formToValue(fields, form));
  const errors: FieldErrors = { ...(checked.ok ? {} : checked.fields), ...serverErrors };

  const save = async () => {
    setTouched(true);
    if (!checked.ok) throw new Error('invalid');
    try {
      await api.put(`/${app.id}/settings/general`, checked.value);
      setServerErrors({});
      toast.success('Settings have been saved');
    } catch (error) {
      setServerErrors(apiFields(error) ?? {});
      toast.error('Settings could not be saved', errorMessage(error));
      throw error;
    }
  };

  return (
    <form className="form" noValidate onSubmit={(e) => e.preventDefault()} aria-label="General settings">
      {fields.map((f) => (
        <TextField
          key={f.name}
          label={f.label}
          hint={f.hint}
          name={f.name}
          required
          type={f.kind === 'integer' ? 'number' : 'text'}
          inputMode={f.kind === 'integer' ? 'numeric' : undefined}
          min={f.min}
          max={f.max}
          value={form[f.name] ?? ''}
          error={touched || form[f.name] !== String(initial[f.name] ?? '') ? errors[f.name] : undefined}
          onChange={(e) => {
            setServerErrors({});
            setForm((s) => ({ ...s, [f.name]: e.target.value }));
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
  const settings = useQuery(`${app.id}:settings-general`, (a, signal) => a.get<Record<string, unknown>>(`/${app.id}/settings/general`, { signal }));
  return (
    <ConfigPage app={app} title="General" lead={lead}>
      <Card>
        <QueryState query={settings}>{() => settings.data && <SettingsForm {...props} initial={settings.data} />}</QueryState>
      </Card>
    </ConfigPage>
  );
}
