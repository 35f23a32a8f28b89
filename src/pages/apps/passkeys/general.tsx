import { useState } from 'react';
import type { AppDefinition } from '../../../../api/contract/apps';
import { PasskeyGeneralSettingsSchema, type PasskeyGeneralSettings } from '../../../../api/contract/apps/passkeys';
import { errorMessage } from '../../../api/client';
import { useApi, useQuery } from '../../../api/hooks';
import { Button } from '../../../ui/Button';
import { Card } from '../../../ui/Card';
import { Field, TextField } from '../../../ui/Field';
import { QueryState } from '../../../ui/QueryState';
import { toast } from '../../../ui/Toast';
import { apiFields, check, type FieldErrors } from '../../settings/form-errors';
import { ConfigPage } from '../_frame/ConfigNav';

type Choice = { name: 'userVerification' | 'attestation' | 'attachment'; label: string; hint: string; options: [string, string][] };

const CHOICES: Choice[] = [
  {
    name: 'userVerification',
    label: 'User verification',
    hint: 'Required: the customer must unlock the passkey with a fingerprint, face or PIN. Preferred: asked for where the device can.',
    options: [['required', 'Required'], ['preferred', 'Preferred']],
  },
  {
    name: 'attestation',
    label: 'Attestation',
    hint: 'Direct asks the authenticator to say what it is (some show a prompt); none keeps enrollment simplest.',
    options: [['none', 'None'], ['direct', 'Direct']],
  },
  {
    name: 'attachment',
    label: 'Authenticator',
    hint: 'Platform: the phone or computer itself. Cross-platform: a security key or another phone.',
    options: [['any', 'Any'], ['platform', 'Platform (this device)'], ['cross-platform', 'Cross-platform (security key)']],
  },
];

function SettingsForm({ app, initial }: { app: AppDefinition; initial: PasskeyGeneralSettings }) {
  const api = useApi();
  const [form, setForm] = useState({ ...initial, linkValidityMinutes: String(initial.linkValidityMinutes) });
  const [serverErrors, setServerErrors] = useState<FieldErrors>({});
  const raw = form.linkValidityMinutes.trim();
  const checked = check(PasskeyGeneralSettingsSchema, { ...form, linkValidityMinutes: raw === '' ? undefined : Number(raw) });
  const errors: FieldErrors = { ...(checked.ok ? {} : checked.fields), ...serverErrors };

  const save = async () => {
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
      {CHOICES.map((c) => (
        <Field key={c.name} label={c.label} hint={c.hint} error={errors[c.name]} required>
          {(control) => (
            <select className="input" name={c.name} value={form[c.name]} onChange={(e) => setForm((s) => ({ ...s, [c.name]: e.target.value }))} {...control}>
              {c.options.map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          )}
        </Field>
      ))}
      <TextField
        label="Link validity (minutes)"
        hint="How long an enrollment or verification link works, 5 to 1440 minutes."
        name="linkValidityMinutes"
        required
        type="number"
        inputMode="numeric"
        min={5}
        max={1440}
        value={form.linkValidityMinutes}
        error={errors.linkValidityMinutes}
        onChange={(e) => {
          setServerErrors({});
          setForm((s) => ({ ...s, linkValidityMinutes: e.target.value }));
        }}
      />
      <div className="form-actions">
        <Button type="submit" variant="primary" onClick={save} successLabel="Saved" failureLabel="Not saved">
          Save
        </Button>
      </div>
    </form>
  );
}

export default function PasskeysGeneral({ app }: { app: AppDefinition }) {
  const settings = useQuery(`${app.id}:settings-general`, (a, signal) => a.get<PasskeyGeneralSettings>(`/${app.id}/settings/general`, { signal }));
  return (
    <ConfigPage app={app} title="General" lead="How passkeys are created and checked for your callers.">
      <Card>
        <QueryState query={settings}>{() => settings.data && <SettingsForm app={app} initial={settings.data} />}</QueryState>
      </Card>
    </ConfigPage>
  );
}
