import { useRef, useState, type ChangeEvent } from 'react';
import { useSetAtom } from 'jotai';
import {
  BRAND_COLOR_PATTERN,
  BrandingUpdateSchema,
  LOGO_MAX_BYTES,
  type Branding,
  type BrandingSettings,
} from '../../../../api/contract/branding';
import { useApi, useQuery } from '../../../api/hooks';
import { errorMessage } from '../../../api/client';
import { bootstrapAtom } from '../../../state/session';
import { Button } from '../../../ui/Button';
import { Card } from '../../../ui/Card';
import { Field, TextField } from '../../../ui/Field';
import { LoadingPanel } from '../../../ui/Spinner';
import { toast } from '../../../ui/Toast';
import { check, useFormErrors } from '../../../ui/form';
import { CustomerLanguageCard } from './CustomerLanguage';
import { TimeZoneCard } from './TimeZone';
import { fromBase64, LOGO_TYPE, logoColors, logoSrc, normaliseColorInput, prepareLogo, toBase64 } from './logo';

function BrandingForm({ initial }: { initial: BrandingSettings }) {
  const api = useApi();
  const setBootstrap = useSetAtom(bootstrapAtom);
  const [name, setName] = useState(initial.name);
  const [logo, setLogo] = useState(initial.logo);
  const [color, setColor] = useState(initial.color);
  const formErrors = useFormErrors();
  const errors = formErrors.errors;
  const fileInput = useRef<HTMLInputElement>(null);

  const suggestions = logo ? logoColors(fromBase64(logo)) : [];
  const colorValid = BRAND_COLOR_PATTERN.test(color);

  const onFile = async (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    e.target.value = '';
    // Only SVG is accepted; anything else is ignored without a word (SPEC section 5).
    if (!file || file.type !== LOGO_TYPE) return;
    if (file.size > LOGO_MAX_BYTES) {
      formErrors.invalid({ ...errors, logo: `The logo is larger than ${LOGO_MAX_BYTES / 1024} KB.` });
      return;
    }
    const prepared = prepareLogo(await file.text());
    if (!prepared) {
      formErrors.invalid({ ...errors, logo: 'This file is not a valid SVG image.' });
      return;
    }
    formErrors.clear('logo');
    setLogo(toBase64(prepared));
  };

  const save = async () => {
    const checked = check(BrandingUpdateSchema, { name, logo, color });
    if (!checked.ok) throw formErrors.invalid(checked.fields);
    formErrors.clear();
    try {
      const saved = await api.put<Branding>('/branding', checked.value);
      setName(saved.name);
      setLogo(saved.logo);
      setColor(saved.color);
      setBootstrap((b) => (b ? { ...b, branding: saved } : b));
      toast.success('Branding has been updated');
    } catch (err) {
      const invalid = formErrors.fromAnswer(err);
      if (invalid) throw invalid;
      toast.error('Branding could not be saved', errorMessage(err), err);
      throw err;
    }
  };

  return (
    <Card>
      <form
        className="form"
        aria-label="Branding"
        noValidate
        ref={formErrors.ref}
        onSubmit={(e) => {
          e.preventDefault();
        }}
      >
        <TextField
          label="Company name"
          value={name}
          maxLength={200}
          required
          error={errors.name}
          onChange={(e) => setName(e.target.value)}
        />

        <Field label="Logo" error={errors.logo} hint="An SVG file. It is shown in the header of the console.">
          {(control) => (
            <div className="logo-upload">
              <div className="logo-preview" aria-live="polite">
                {logo ? <img src={logoSrc(logo)} alt="Logo preview" /> : <span className="muted">No logo</span>}
              </div>
              <input
                ref={fileInput}
                type="file"
                accept={LOGO_TYPE}
                className="sr-only"
                tabIndex={-1}
                onChange={onFile}
                aria-hidden="true"
                data-testid="logo-file"
              />
              <Button {...control} onClick={() => fileInput.current?.click()}>
                Upload SVG logo
              </Button>
              {logo && (
                <Button variant="ghost" onClick={() => setLogo('')}>
                  Remove logo
                </Button>
              )}
            </div>
          )}
        </Field>

        <Field label="Brand color" error={errors.color} hint="A hex color such as #2563EB.">
          {(control) => (
            <div className="color-row">
              <span className="color-swatch" style={{ background: colorValid ? color : 'transparent' }} aria-hidden="true" />
              <input
                {...control}
                className="input input-color"
                value={color}
                maxLength={7}
                spellCheck={false}
                onChange={(e) => setColor(normaliseColorInput(e.target.value))}
              />
              <input
                type="color"
                aria-label="Pick a brand color"
                value={colorValid && color.length === 7 ? color.toLowerCase() : '#000000'}
                onChange={(e) => setColor(e.target.value.toUpperCase())}
              />
            </div>
          )}
        </Field>
        {suggestions.length > 0 && (
          <div className="color-suggestions" role="group" aria-label="Colors from your logo">
            <span className="muted">From your logo:</span>
            {suggestions.map((c) => (
              <button
                key={c}
                type="button"
                className="color-chip"
                aria-label={`Use ${c}`}
                aria-pressed={c === color}
                onClick={() => setColor(c)}
              >
                <span className="color-swatch" style={{ background: c }} aria-hidden="true" />
                {c}
              </button>
            ))}
          </div>
        )}

        <div className="form-actions">
          <Button variant="primary" type="submit" onClick={save} successLabel="Saved" failureLabel="Not saved">
            Save
          </Button>
        </div>
      </form>
    </Card>
  );
}

export default function BrandingPage() {
  const query = useQuery('branding', (api, signal) => api.get<BrandingSettings>('/branding', { signal }));
  return (
    <div className="page">
      <h1 className="page-title">Branding</h1>
      <p className="page-lead">Your company name, logo and color, as your admins see them in the console.</p>
      {query.data ? (
        <BrandingForm initial={query.data} />
      ) : query.error ? (
        <Card>
          <p role="alert">{errorMessage(query.error, 'The branding could not be loaded.')}</p>
          <Button onClick={query.reload}>Try again</Button>
        </Card>
      ) : (
        <LoadingPanel label="Loading branding" />
      )}
      <CustomerLanguageCard />
      <TimeZoneCard />
    </div>
  );
}
