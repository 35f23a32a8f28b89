import { useEffect, useState, type FormEvent } from 'react';
import {
  CustomerLookupSettingsSchema,
  CustomerLookupTestBodySchema,
  type LOOKUP_METHODS,
  MAX_LOOKUP_HEADERS,
  isEmptyLookupBody,
  LOOKUP_MAPPING_FIELDS,
  type CustomerLookupAnswer,
  type CustomerLookupTestAnswer,
  type CustomerLookupView,
  type LookupCustomer,
} from '../../../../api/contract/customer-lookup';
import { useApi, useQuery } from '../../../api/hooks';
import { errorMessage } from '../../../api/client';
import { Button } from '../../../ui/Button';
import { Card } from '../../../ui/Card';
import { ConfirmDialog } from '../../../ui/ConfirmDialog';
import { Field, TextField } from '../../../ui/Field';
import { QueryState } from '../../../ui/QueryState';
import { Spinner } from '../../../ui/Spinner';
import { toast } from '../../../ui/Toast';
import { apiFields, check, useFormErrors, type FieldErrors } from '../../../ui/form';
import { FIELD_LABELS, SampleAnswer, type Pick } from './SampleAnswer';

/** A header row; `saved` marks a name whose value is on the server (kept when left blank). */
type HeaderRow = { key: string; value: string; saved: boolean };
type Form = {
  url: string;
  method: (typeof LOOKUP_METHODS)[number];
  headers: HeaderRow[];
  customerPath: string;
  customerId: string;
  titleTemplate: string;
  descriptionTemplate: string;
};

const EMPTY: Form = {
  url: '',
  method: 'GET',
  headers: [],
  customerPath: '',
  customerId: '',
  titleTemplate: '',
  descriptionTemplate: '',
};

function formOf(view: CustomerLookupView | null | undefined): Form {
  if (!view) return EMPTY;
  const { headerKeys, ...rest } = view;
  return { ...rest, headers: headerKeys.map((key) => ({ key, value: '', saved: true })) };
}

/** The body the API takes: a saved header left blank is sent without a value (keep it). */
function bodyOf(form: Form) {
  return {
    ...form,
    headers: form.headers.map((h) => (h.saved && h.value === '' ? { key: h.key } : { key: h.key, value: h.value })),
  };
}

/**
 * SPEC's states (not yet run, loading, failed, found n, no results), plus `sample`: the paths are
 * not all chosen yet, so the run fetched the sample answer only.
 */
type TestState =
  | { kind: 'idle' }
  | { kind: 'loading' }
  | { kind: 'failed'; message: string }
  | { kind: 'found'; customers: LookupCustomer[] }
  | { kind: 'sample'; missing: CustomerLookupTestAnswer['missing'] };

function TestPanel({
  form,
  onFieldErrors,
  onPick,
}: {
  form: Form;
  onFieldErrors: (f: FieldErrors) => void;
  onPick: (pick: Pick) => void;
}) {
  const api = useApi();
  const [phoneNumber, setPhoneNumber] = useState('');
  const phone = useFormErrors();
  const phoneError = phone.errors.phoneNumber;
  const [state, setState] = useState<TestState>({ kind: 'idle' });
  /** the endpoint's last answer, kept while the admin picks paths from it */
  const [sample, setSample] = useState<{ text: string; run: number } | null>(null);

  const run = async (e?: FormEvent) => {
    e?.preventDefault();
    const checked = check(CustomerLookupTestBodySchema, { ...bodyOf(form), phoneNumber });
    if (!checked.ok) {
      const { phoneNumber: phoneMessage, ...rest } = checked.fields;
      if (phoneMessage) phone.invalid({ phoneNumber: phoneMessage });
      else phone.clear();
      onFieldErrors(rest);
      const first = Object.values(rest)[0];
      if (first) setState({ kind: 'failed', message: `Fix the settings first: ${first}` });
      return;
    }
    phone.clear();
    onFieldErrors({});
    setState({ kind: 'loading' });
    try {
      const answer = await api.post<CustomerLookupTestAnswer>('/customer-lookup/test', checked.value);
      setSample((s) => ({ text: answer.sample, run: (s?.run ?? 0) + 1 }));
      setState(answer.customers ? { kind: 'found', customers: answer.customers } : { kind: 'sample', missing: answer.missing });
    } catch (err) {
      const f = apiFields(err);
      if (f) onFieldErrors(f);
      // the fields are marked inline; the API's message names them by path (headers.0.value)
      const first = f ? Object.values(f)[0] : undefined;
      setState({ kind: 'failed', message: first ? `Fix the settings first: ${first}` : errorMessage(err) });
    }
  };

  return (
    <Card title="Test your endpoint" aria-label="Test panel">
      <p className="muted">
        Runs the settings above, saved or not, against your endpoint with a phone number. The paths may still be empty: the test
        then fetches a sample answer, and you click the values to use.
      </p>
      <form className="form" onSubmit={run} noValidate ref={phone.ref}>
        <TextField
          label="Phone number"
          type="tel"
          value={phoneNumber}
          onChange={(e) => setPhoneNumber(e.target.value)}
          placeholder="+14155550100"
          error={phoneError}
          hint="In E.164 format: a plus, the country code and the number."
        />
        <Button type="submit" variant="secondary" disabled={state.kind === 'loading'}>
          Run test
        </Button>
      </form>
      <div aria-live="polite" className="lookup-result">
        {state.kind === 'idle' ? (
          <p className="muted">Run a test to see which customers your endpoint finds for a phone number.</p>
        ) : null}
        {state.kind === 'loading' ? <Spinner label="Calling your endpoint" /> : null}
        {state.kind === 'failed' ? (
          <div className="notice notice-error" role="alert">
            <p style={{ fontWeight: 600 }}>Request Failed</p>
            <p>{state.message}</p>
          </div>
        ) : null}
        {state.kind === 'sample' ? (
          <div className="notice notice-success">
            <p style={{ fontWeight: 600 }}>Sample answer received</p>
            <p>
              Still to fill in: {state.missing.map((f) => FIELD_LABELS[f]).join(', ')}. Choose a field below, then click its value
              in the sample answer.
            </p>
          </div>
        ) : null}
        {state.kind === 'found' && state.customers.length === 0 ? (
          <div className="notice notice-warning">
            <p style={{ fontWeight: 600 }}>No Results</p>
            <p>API succeeded but found no customers. Check your path configuration.</p>
          </div>
        ) : null}
        {state.kind === 'found' && state.customers.length > 0 ? (
          <div>
            <p style={{ fontWeight: 600 }}>
              Found {state.customers.length} customer{state.customers.length === 1 ? '' : 's'}
            </p>
            <ul className="result-list" aria-label="Customers found">
              {state.customers.map((c) => (
                <li key={c.id}>
                  <p style={{ fontWeight: 600 }}>{c.title}</p>
                  <p className="muted">{c.description}</p>
                  <p className="muted" style={{ fontSize: '0.8125rem' }}>
                    ID: <code>{c.id}</code>
                  </p>
                </li>
              ))}
            </ul>
          </div>
        ) : null}
      </div>
      {sample ? (
        <SampleAnswer
          key={sample.run}
          sample={sample.text}
          customerPath={form.customerPath}
          initialField={LOOKUP_MAPPING_FIELDS.find((f) => form[f].trim() === '') ?? 'customerPath'}
          onPick={onPick}
        />
      ) : null}
    </Card>
  );
}

export default function CustomerLookupSettings() {
  const api = useApi();
  const query = useQuery('customer-lookup', (a, signal) => a.get<CustomerLookupAnswer>('/customer-lookup', { signal }));
  const [form, setForm] = useState<Form>(EMPTY);
  const formErrors = useFormErrors();
  const fields = formErrors.errors;
  /** why removal is being confirmed: the Remove button, or Save with every field empty */
  const [confirmRemove, setConfirmRemove] = useState<'button' | 'empty-save' | null>(null);
  const configured = Boolean(query.data?.settings);

  useEffect(() => {
    if (query.data) setForm(formOf(query.data.settings));
  }, [query.data]);

  const set = <K extends keyof Form>(key: K, value: Form[K]) => setForm((f) => ({ ...f, [key]: value }));
  const setHeader = (i: number, patch: Partial<HeaderRow>) =>
    set(
      'headers',
      form.headers.map((h, j) =>
        j === i ? { ...h, ...patch, saved: patch.key !== undefined && patch.key !== h.key ? false : h.saved } : h,
      ),
    );

  const remove = async () => {
    try {
      await api.delete('/customer-lookup');
    } catch (err) {
      toast.error('Failed to remove customer lookup settings', errorMessage(err), err);
      throw err;
    }
    toast.success('Customer lookup settings have been removed');
    formErrors.clear();
    query.reload();
  };

  /**
   * Saving empty values removes the settings (SPEC), which is not what "Save" suggests: ask
   * first, and never flash "Saved" for it. Nothing saved yet and nothing typed: say what is needed.
   */
  const onSave = () => {
    if (isEmptyLookupBody(bodyOf(form)) && configured) {
      setConfirmRemove('empty-save');
      return undefined;
    }
    return save();
  };

  const save = async () => {
    const body = bodyOf(form);
    const checked = check(CustomerLookupSettingsSchema, body);
    if (!checked.ok) throw formErrors.invalid(checked.fields);
    formErrors.clear();
    try {
      await api.post<CustomerLookupAnswer>('/customer-lookup', checked.value);
    } catch (err) {
      const invalid = formErrors.fromAnswer(err);
      if (invalid) throw invalid;
      toast.error('Failed to save customer lookup settings', errorMessage(err), err);
      throw err;
    }
    toast.success('Customer lookup settings have been saved');
    query.reload();
  };

  return (
    <div className="page">
      <h1 className="page-title">Customer Lookup</h1>
      <p className="page-lead">
        When a call comes in, Switchboard asks your system which customers have the caller's phone number.
      </p>
      <QueryState query={query}>
        {() => (
          <>
            <Card title="Endpoint">
              <form
                className="form"
                noValidate
                ref={formErrors.ref}
                onSubmit={(e) => {
                  e.preventDefault();
                  void save().catch(() => {});
                }}
              >
                <TextField
                  label="URL"
                  type="url"
                  required
                  value={form.url}
                  onChange={(e) => set('url', e.target.value)}
                  error={fields.url}
                  placeholder="https://crm.example.com/api/customers"
                />
                <Field label="Method" error={fields.method}>
                  {(c) => (
                    <select
                      className="input"
                      {...c}
                      value={form.method}
                      onChange={(e) => set('method', e.target.value as Form['method'])}
                    >
                      <option value="GET">GET (phone number as the phoneNumber query parameter)</option>
                      <option value="POST">POST (JSON body {'{"phoneNumber": "…"}'})</option>
                    </select>
                  )}
                </Field>
                <fieldset className="fieldset">
                  <legend className="field-label">Headers</legend>
                  {form.headers.length === 0 ? (
                    <p className="muted">No headers. Add one for an API key or a bearer token.</p>
                  ) : null}
                  {form.headers.map((h, i) => (
                    <div key={i} className="grid-2" style={{ alignItems: 'end' }}>
                      <TextField
                        label={`Header ${i + 1} name`}
                        value={h.key}
                        onChange={(e) => setHeader(i, { key: e.target.value })}
                        error={fields[`headers.${i}.key`]}
                        placeholder="Authorization"
                      />
                      <div style={{ display: 'flex', gap: 8, alignItems: 'end' }}>
                        <div style={{ flex: 1 }}>
                          <TextField
                            label={`Header ${i + 1} value`}
                            type="password"
                            autoComplete="off"
                            value={h.value}
                            onChange={(e) => setHeader(i, { value: e.target.value })}
                            error={fields[`headers.${i}.value`]}
                            placeholder={h.saved ? 'Saved (leave blank to keep)' : ''}
                          />
                        </div>
                        <Button
                          size="sm"
                          variant="ghost"
                          aria-label={`Remove header ${i + 1}`}
                          onClick={() =>
                            set(
                              'headers',
                              form.headers.filter((_, j) => j !== i),
                            )
                          }
                        >
                          Remove
                        </Button>
                      </div>
                    </div>
                  ))}
                  {fields.headers ? <p className="field-error">{fields.headers}</p> : null}
                  <Button
                    size="sm"
                    disabled={form.headers.length >= MAX_LOOKUP_HEADERS}
                    onClick={() => set('headers', [...form.headers, { key: '', value: '', saved: false }])}
                  >
                    Add header
                  </Button>
                  {form.headers.length >= MAX_LOOKUP_HEADERS ? (
                    <p className="muted">You can add up to {MAX_LOOKUP_HEADERS} headers</p>
                  ) : null}
                </fieldset>
                <TextField
                  label="Customers array path"
                  required
                  value={form.customerPath}
                  onChange={(e) => set('customerPath', e.target.value)}
                  error={fields.customerPath}
                  placeholder="data.customers"
                  hint="A GJSON path to the list of customers in the answer, e.g. data.customers or results.#(active==true)#."
                />
                <TextField
                  label="Customer ID path"
                  required
                  value={form.customerId}
                  onChange={(e) => set('customerId', e.target.value)}
                  error={fields.customerId}
                  placeholder="id"
                  hint="A GJSON path inside one customer."
                />
                <TextField
                  label="Title template"
                  required
                  value={form.titleTemplate}
                  onChange={(e) => set('titleTemplate', e.target.value)}
                  error={fields.titleTemplate}
                  placeholder="{firstName} {lastName}"
                  hint="Use {fieldName} (or a path such as {name.first}) to insert a customer's value."
                />
                <TextField
                  label="Description template"
                  required
                  value={form.descriptionTemplate}
                  onChange={(e) => set('descriptionTemplate', e.target.value)}
                  error={fields.descriptionTemplate}
                  placeholder="{email}"
                />
                <div className="form-actions">
                  <Button type="button" variant="primary" onClick={onSave} successLabel="Saved" failureLabel="Not saved">
                    Save
                  </Button>
                </div>
              </form>
            </Card>
            {configured ? (
              <Card title="Remove customer lookup">
                <p className="muted">
                  Agents stop seeing customer details for incoming calls. The endpoint, headers and paths are deleted.
                </p>
                <div className="form-actions">
                  <Button variant="danger" onClick={() => setConfirmRemove('button')}>
                    Remove settings
                  </Button>
                </div>
              </Card>
            ) : null}
            <TestPanel
              form={form}
              onFieldErrors={(f) => (Object.keys(f).length ? formErrors.invalid(f) : formErrors.clear())}
              onPick={(pick) =>
                setForm((f) => ({
                  ...f,
                  [pick.field]:
                    pick.mode === 'replace' || !f[pick.field].trim() ? pick.value : `${f[pick.field].trimEnd()} ${pick.value}`,
                }))
              }
            />
          </>
        )}
      </QueryState>
      <ConfirmDialog
        open={confirmRemove !== null}
        title="Remove the customer lookup settings?"
        description={
          confirmRemove === 'empty-save'
            ? 'Every field is empty, and saving empty settings removes them. Agents will no longer see customer details for incoming calls until you set it up again.'
            : 'Agents will no longer see customer details for incoming calls until you set it up again.'
        }
        confirmLabel="Remove settings"
        onCancel={() => setConfirmRemove(null)}
        onConfirm={remove}
      />
    </div>
  );
}
