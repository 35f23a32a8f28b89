import { useState } from 'react';
import type { AppDefinition } from '../../../../api/contract/apps';
import { IDV_DOCUMENT_TYPES, IdvGeneralSettingsSchema, type IdvGeneralSettings } from '../../../../api/contract/apps/identity-verification';
import { errorMessage } from '../../../api/client';
import { useApi, useQuery } from '../../../api/hooks';
import { Button } from '../../../ui/Button';
import { Card } from '../../../ui/Card';
import { TextField } from '../../../ui/Field';
import { QueryState } from '../../../ui/QueryState';
import { toast } from '../../../ui/Toast';
import { apiFields, check, type FieldErrors } from '../../settings/form-errors';
import { ConfigPage } from '../_frame/ConfigNav';

function Form({ app, initial }: { app: AppDefinition; initial: IdvGeneralSettings }) {
  const api = useApi();
  const [age, setAge] = useState(String(initial.minimumAge));
  const [validity, setValidity] = useState(String(initial.linkValidityMinutes));
  const [types, setTypes] = useState<string[]>(initial.documentTypes);
  const [serverErrors, setServerErrors] = useState<FieldErrors>({});
  const value = { minimumAge: age.trim() === '' ? undefined : Number(age), linkValidityMinutes: validity.trim() === '' ? undefined : Number(validity), documentTypes: IDV_DOCUMENT_TYPES.map((d) => d.key).filter((k) => types.includes(k)) };
  const checked = check(IdvGeneralSettingsSchema, value);
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
      <TextField label="Minimum age" hint="The minimum age check fails for anyone younger, by the date of birth in the document." name="minimumAge" type="number" inputMode="numeric" min={0} max={120} required value={age} error={errors.minimumAge} onChange={(e) => (setServerErrors({}), setAge(e.target.value))} />
      <TextField label="Link validity (minutes)" hint="How long the customer's link works, 5 minutes to 7 days. A session not finished by then expires." name="linkValidityMinutes" type="number" inputMode="numeric" min={5} max={10080} required value={validity} error={errors.linkValidityMinutes} onChange={(e) => (setServerErrors({}), setValidity(e.target.value))} />
      <fieldset className="idv-choices" aria-describedby={errors.documentTypes ? 'idv-types-error' : undefined}>
        <legend>Documents customers may show</legend>
        {IDV_DOCUMENT_TYPES.map((d) => (
          <label key={d.key} className="checkbox">
            <input type="checkbox" checked={types.includes(d.key)} onChange={(e) => setTypes((list) => (e.target.checked ? [...list, d.key] : list.filter((k) => k !== d.key)))} /> {d.label}{' '}
            <span className="muted">({d.back ? 'front and back' : 'photo page'}; MRZ {d.mrz})</span>
          </label>
        ))}
        {errors.documentTypes && (
          <p className="field-error" id="idv-types-error" role="alert">
            {errors.documentTypes}
          </p>
        )}
      </fieldset>
      <div className="form-actions">
        <Button type="submit" variant="primary" onClick={save} successLabel="Saved" failureLabel="Not saved">
          Save
        </Button>
      </div>
    </form>
  );
}

export default function IdvGeneral({ app }: { app: AppDefinition }) {
  const settings = useQuery(`${app.id}:settings-general`, (a, signal) => a.get<IdvGeneralSettings>(`/${app.id}/settings/general`, { signal }));
  return (
    <ConfigPage app={app} title="General" lead="How identity verification works for your customers.">
      <Card>
        <QueryState query={settings}>{() => settings.data && <Form app={app} initial={settings.data} />}</QueryState>
      </Card>
    </ConfigPage>
  );
}
