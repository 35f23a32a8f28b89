import { formatDateTime } from '../../../ui/format';
import { useState } from 'react';
import {
  SMS_GUARD_DEFAULT_RULES,
  SmsGuardSaveBodySchema,
  type SmsGuard,
  type SmsGuardRules,
} from '../../../../api/contract/sms-guard';
import { useApi, useQuery } from '../../../api/hooks';
import { errorMessage } from '../../../api/client';
import { Button } from '../../../ui/Button';
import { Card } from '../../../ui/Card';
import { ConfirmDialog } from '../../../ui/ConfirmDialog';
import { Field, TextField } from '../../../ui/Field';
import { QueryState } from '../../../ui/QueryState';
import { toast } from '../../../ui/Toast';
import { check, useFormErrors } from '../../../ui/form';

// The SMS fraud guard's part of Settings > SMS Configuration: where SMS may go, the pumping
// rules, and the number ranges held now (with Release).

const regionNames = new Intl.DisplayNames(['en'], { type: 'region' });
export const countryLabel = (code: string) => {
  try {
    return regionNames.of(code) ?? code;
  } catch {
    return code;
  }
};

const RULE_FIELDS: { key: keyof SmsGuardRules; label: string; hint: string }[] = [
  {
    key: 'volumeMultiplier',
    label: 'Volume: times the usual hour',
    hint: 'Hold a range when its sends in the last hour pass this many times its usual hour…',
  },
  {
    key: 'volumeAllowance',
    label: 'Volume: plus this many SMS',
    hint: '…plus this many (so a new range may send this many an hour).',
  },
  { key: 'baselineDays', label: 'Usual hour over (days)', hint: 'The usual hour is the average over these days.' },
  { key: 'conversionWindow', label: 'Answered: of the last (SMS)', hint: 'Hold a range when, of its last this-many SMS…' },
  {
    key: 'conversionMinPercent',
    label: 'Answered: at least (%)',
    hint: '…fewer than this share led to a verified code or a completed task.',
  },
  { key: 'conversionGraceSeconds', label: 'Time to answer (seconds)', hint: 'An SMS counts as unanswered only after this long.' },
  { key: 'holdMinutes', label: 'Hold for (minutes)', hint: 'How long a hold lasts unless you release it.' },
];

function GuardForm({ guard, onSaved }: { guard: SmsGuard; onSaved: (g: SmsGuard) => void }) {
  const api = useApi();
  const [countries, setCountries] = useState<string[]>(guard.allowedCountries);
  const [adding, setAdding] = useState('');
  const [rules, setRules] = useState<Record<keyof SmsGuardRules, string>>(
    () => Object.fromEntries(Object.entries(guard.rules).map(([k, v]) => [k, String(v)])) as Record<keyof SmsGuardRules, string>,
  );
  const [pumping, setPumping] = useState(guard.pumpingGuard);
  const formErrors = useFormErrors();
  const fields = formErrors.errors;
  const [failure, setFailure] = useState<string | null>(null);
  const options = guard.countries
    .filter((c) => !countries.includes(c.code))
    .sort((a, b) => countryLabel(a.code).localeCompare(countryLabel(b.code)));

  const save = async () => {
    setFailure(null);
    const body = {
      allowedCountries: countries,
      pumpingGuard: pumping,
      rules: Object.fromEntries(Object.entries(rules).map(([k, v]) => [k, v.trim() === '' ? NaN : Number(v)])),
    };
    const checked = check(SmsGuardSaveBodySchema, body);
    if (!checked.ok) throw formErrors.invalid(checked.fields);
    formErrors.clear();
    try {
      onSaved(await api.put<SmsGuard>('/sms/guard', checked.value));
    } catch (error) {
      const invalid = formErrors.fromAnswer(error);
      if (invalid) throw invalid;
      setFailure(errorMessage(error));
      throw error;
    }
    toast.success('The SMS fraud guard has been saved');
  };

  return (
    <form className="form" noValidate aria-label="SMS fraud guard" onSubmit={(e) => e.preventDefault()} ref={formErrors.ref}>
      <Field
        label="Countries SMS may go to"
        hint={guard.isDefault ? 'Until you choose, the country of your sender number.' : undefined}
      >
        {(control) => (
          <ul className="country-list" id={control.id} aria-describedby={control['aria-describedby']}>
            {countries.length === 0 ? <li className="muted">No country: SMS cannot be sent.</li> : null}
            {countries.map((code) => (
              <li key={code} className="country-chip">
                {countryLabel(code)} ({code})
                <button
                  type="button"
                  className="country-remove"
                  aria-label={`Remove ${countryLabel(code)}`}
                  onClick={() => setCountries((c) => c.filter((x) => x !== code))}
                >
                  ×
                </button>
              </li>
            ))}
          </ul>
        )}
      </Field>
      {/* a problem with the list (none chosen) is said where a country is added, and focus goes there */}
      <Field label="Add a country" error={fields.allowedCountries}>
        {(control) => (
          <div className="inline-controls">
            <select className="input" {...control} value={adding} onChange={(e) => setAdding(e.target.value)}>
              <option value="">Choose a country…</option>
              {options.map((c) => (
                <option key={c.code} value={c.code}>
                  {countryLabel(c.code)} (+{c.callingCode})
                </option>
              ))}
            </select>
            <Button
              disabled={!adding}
              onClick={() => {
                setCountries((c) => [...c, adding]);
                setAdding('');
              }}
            >
              Add
            </Button>
          </div>
        )}
      </Field>
      <h3 className="guard-section-title">Pumping rules</h3>
      <p className="muted">
        SMS pumping is bots asking for codes to numbers whose operators pay them per message. A number range that trips either
        rule is held.
      </p>
      <label className="checkbox">
        <input type="checkbox" checked={pumping} onChange={(e) => setPumping(e.target.checked)} /> Hold number ranges that look
        like SMS pumping
      </label>
      {RULE_FIELDS.map((f) => (
        <TextField
          key={f.key}
          label={f.label}
          hint={`${f.hint} Default ${SMS_GUARD_DEFAULT_RULES[f.key]}.`}
          inputMode="decimal"
          value={rules[f.key]}
          error={fields[`rules.${f.key}`]}
          onChange={(e) => setRules((r) => ({ ...r, [f.key]: e.target.value }))}
        />
      ))}
      {failure ? (
        <p className="notice notice-error" role="alert">
          {failure}
        </p>
      ) : null}
      <div className="form-actions">
        <Button type="submit" variant="primary" onClick={save} successLabel="Saved" failureLabel="Not saved">
          Save
        </Button>
      </div>
    </form>
  );
}

function Holds({ guard, onReleased }: { guard: SmsGuard; onReleased: (g: SmsGuard) => void }) {
  const api = useApi();
  const [releasing, setReleasing] = useState<string | null>(null);
  if (guard.holds.length === 0) return <p className="muted">No number range is held.</p>;
  return (
    <>
      <ul className="hold-list">
        {guard.holds.map((h) => (
          <li key={h.prefix} className="hold">
            <div>
              <strong>
                {h.prefix}… ({countryLabel(h.country)})
              </strong>
              <p className="muted">
                Held until {formatDateTime(h.heldUntil)}: {h.reason}
              </p>
            </div>
            <Button size="sm" onClick={() => setReleasing(h.prefix)}>
              Release
            </Button>
          </li>
        ))}
      </ul>
      <ConfirmDialog
        open={releasing !== null}
        title={`Release ${releasing ?? ''}…?`}
        description="SMS to this range will be sent again at once. Release only traffic you recognise as your customers'."
        confirmLabel="Release"
        onCancel={() => setReleasing(null)}
        onConfirm={async () => {
          try {
            onReleased(await api.post<SmsGuard>(`/sms/guard/holds/${encodeURIComponent(releasing!)}/release`, {}));
            toast.success(`SMS to ${releasing}… are sent again`);
          } catch (error) {
            toast.error('The range could not be released', errorMessage(error), error);
            throw error;
          }
        }}
      />
    </>
  );
}

/** Settings > SMS Configuration: the fraud guard's card. */
export function FraudGuard() {
  const query = useQuery('sms-guard', (a, signal) => a.get<SmsGuard>('/sms/guard', { signal }));
  const [saved, setSaved] = useState<SmsGuard | null>(null);
  const guard = saved ?? query.data;
  return (
    <>
      <Card title="Held number ranges">
        <QueryState query={query}>{() => (guard ? <Holds guard={guard} onReleased={setSaved} /> : null)}</QueryState>
      </Card>
      <Card title="Fraud guard">
        <QueryState query={query}>
          {() => (guard ? <GuardForm key={JSON.stringify(guard.allowedCountries)} guard={guard} onSaved={setSaved} /> : null)}
        </QueryState>
      </Card>
    </>
  );
}
