import { useEffect, useMemo, useRef, useState, type DragEvent, type KeyboardEvent } from 'react';
import { useLocation, useParams } from 'wouter';
import type { AppDefinition } from '../../../../api/contract/apps';
import { FormDefinitionSchema, NEW_FORM, type FormDefinition, type FormDetail } from '../../../../api/contract/apps/e-form';
import { CONDITION_OPS, definitionProblems, unusablePatterns, type Condition, type FieldType, type FormField } from '../../../../api/contract/apps/e-form-rules';
import { re2Patterns } from '../../../../api/contract/apps/e-form-pattern';
import { ApiError, errorMessage } from '../../../api/client';
import { useApi, useQuery } from '../../../api/hooks';
import { RequireRole } from '../../../app/guards';
import { Button } from '../../../ui/Button';
import { Card } from '../../../ui/Card';
import { ConfirmDialog } from '../../../ui/ConfirmDialog';
import { Field, TextField } from '../../../ui/Field';
import { QueryState } from '../../../ui/QueryState';
import { LoadingPanel } from '../../../ui/Spinner';
import { toast } from '../../../ui/Toast';
import { FormStatus } from './forms';
import { FormPreview } from './FormPreview';
import * as v from 'valibot';

// The form builder (forms/new and forms/{id}): a palette, the field list (reorder by drag or by
// keyboard), the selected field's settings and conditions, hidden fields, and a live preview.
// Every change is saved to the draft a moment later; Publish freezes it as a new version.

const PALETTE: { type: FieldType; label: string }[] = [
  { type: 'short_text', label: 'Short text' },
  { type: 'long_text', label: 'Long text' },
  { type: 'email', label: 'E-mail' },
  { type: 'phone', label: 'Phone' },
  { type: 'number', label: 'Number' },
  { type: 'date', label: 'Date' },
  { type: 'single_choice', label: 'Single choice' },
  { type: 'multiple_choice', label: 'Multiple choice' },
  { type: 'dropdown', label: 'Dropdown' },
  { type: 'consent', label: 'Consent checkbox' },
  { type: 'file', label: 'File upload' },
];
const TYPE_LABEL = Object.fromEntries(PALETTE.map((p) => [p.type, p.label])) as Record<FieldType, string>;
const CHOICES = new Set<FieldType>(['single_choice', 'multiple_choice', 'dropdown']);
const OP_LABEL: Record<(typeof CONDITION_OPS)[number], string> = {
  equals: 'is',
  not_equals: 'is not',
  contains: 'contains',
  is_empty: 'is empty',
  is_not_empty: 'is answered',
  greater_than: 'is more than',
  less_than: 'is less than',
};
const AUTOSAVE_MS = 800;

function newField(type: FieldType, taken: Set<string>): FormField {
  const base = type.replace(/_(\w)/g, (_, c: string) => c.toUpperCase());
  let n = 1;
  while (taken.has(`${base}${n}`)) n++;
  const field: FormField = { id: `${base}${n}`, type, label: type === 'consent' ? 'I agree to the terms' : TYPE_LABEL[type], required: false };
  if (CHOICES.has(type)) field.options = ['Option 1', 'Option 2'];
  return field;
}

const numberOrUndefined = (text: string) => (text.trim() === '' || Number.isNaN(Number(text)) ? undefined : Number(text));

function ValidationEditor({ field, onChange }: { field: FormField; onChange: (f: FormField) => void }) {
  const val = field.validation ?? {};
  const set = (patch: Partial<NonNullable<FormField['validation']>>) => {
    const next = Object.fromEntries(Object.entries({ ...val, ...patch }).filter(([, x]) => x !== undefined && x !== ''));
    onChange({ ...field, validation: Object.keys(next).length ? next : undefined });
  };
  const num = (key: 'minLength' | 'maxLength' | 'min' | 'max' | 'minChoices' | 'maxChoices' | 'maxSizeMb', label: string) => (
    <TextField label={label} inputMode="decimal" value={val[key] ?? ''} onChange={(e) => set({ [key]: numberOrUndefined(e.target.value) })} />
  );
  const textLike = ['short_text', 'long_text', 'email', 'phone'].includes(field.type);
  return (
    <div className="eform-validation">
      {textLike && (
        <>
          {num('minLength', 'Shortest (characters)')}
          {num('maxLength', 'Longest (characters)')}
        </>
      )}
      {(field.type === 'short_text' || field.type === 'long_text') && (
        <>
          <TextField label="Pattern (regular expression)" value={val.pattern ?? ''} onChange={(e) => set({ pattern: e.target.value || undefined })} placeholder="P-\d{6}" />
          <TextField label="Message when the pattern does not match" value={val.patternMessage ?? ''} onChange={(e) => set({ patternMessage: e.target.value || undefined })} />
        </>
      )}
      {field.type === 'number' && (
        <>
          {num('min', 'Smallest')}
          {num('max', 'Largest')}
        </>
      )}
      {field.type === 'date' && (
        <>
          <TextField label="Earliest" type="date" value={val.minDate ?? ''} onChange={(e) => set({ minDate: e.target.value || undefined })} />
          <TextField label="Latest" type="date" value={val.maxDate ?? ''} onChange={(e) => set({ maxDate: e.target.value || undefined })} />
        </>
      )}
      {field.type === 'multiple_choice' && (
        <>
          {num('minChoices', 'At least (choices)')}
          {num('maxChoices', 'At most (choices)')}
        </>
      )}
      {field.type === 'file' && (
        <>
          {num('maxSizeMb', 'Largest file (MB, up to 20)')}
          <TextField
            label="Allowed types"
            hint="Comma separated: image/*, application/pdf, .docx"
            value={(val.accept ?? []).join(', ')}
            onChange={(e) => set({ accept: e.target.value.split(',').map((x) => x.trim()).filter(Boolean) })}
          />
        </>
      )}
    </div>
  );
}

function ConditionEditor({ field, earlier, onChange }: { field: FormField; earlier: { id: string; label: string }[]; onChange: (f: FormField) => void }) {
  const c = field.condition;
  const setCondition = (next: Condition | undefined) => onChange({ ...field, condition: next });
  if (!c) {
    return (
      <Button size="sm" disabled={earlier.length === 0} onClick={() => setCondition({ action: 'show', match: 'all', rules: [{ fieldId: earlier[0]!.id, op: 'equals', value: '' }] })}>
        Add a condition
      </Button>
    );
  }
  const setRule = (i: number, patch: Partial<Condition['rules'][number]>) => setCondition({ ...c, rules: c.rules.map((r, j) => (j === i ? { ...r, ...patch } : r)) });
  return (
    <div className="eform-condition" role="group" aria-label="Condition">
      <div className="eform-row">
        <Field label="This field is">
          {(control) => (
            <select className="input" {...control} value={c.action} onChange={(e) => setCondition({ ...c, action: e.target.value as Condition['action'] })}>
              <option value="show">Shown only when</option>
              <option value="hide">Hidden when</option>
              <option value="require">Required when</option>
            </select>
          )}
        </Field>
        <Field label="Match">
          {(control) => (
            <select className="input" {...control} value={c.match} onChange={(e) => setCondition({ ...c, match: e.target.value as Condition['match'] })}>
              <option value="all">all rules (and)</option>
              <option value="any">any rule (or)</option>
            </select>
          )}
        </Field>
      </div>
      {c.rules.map((rule, i) => (
        <div className="eform-row eform-rule" key={i}>
          <Field label={`Rule ${i + 1}: answer to`}>
            {(control) => (
              <select className="input" {...control} value={rule.fieldId} onChange={(e) => setRule(i, { fieldId: e.target.value })}>
                {earlier.map((f) => (
                  <option key={f.id} value={f.id}>
                    {f.label}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field label="Comparison">
            {(control) => (
              <select className="input" {...control} value={rule.op} onChange={(e) => setRule(i, { op: e.target.value as (typeof CONDITION_OPS)[number] })}>
                {CONDITION_OPS.map((op) => (
                  <option key={op} value={op}>
                    {OP_LABEL[op]}
                  </option>
                ))}
              </select>
            )}
          </Field>
          {rule.op !== 'is_empty' && rule.op !== 'is_not_empty' && <TextField label="Value" value={rule.value ?? ''} onChange={(e) => setRule(i, { value: e.target.value })} />}
          <Button size="sm" variant="ghost" aria-label={`Remove rule ${i + 1}`} onClick={() => setCondition(c.rules.length === 1 ? undefined : { ...c, rules: c.rules.filter((_, j) => j !== i) })}>
            Remove
          </Button>
        </div>
      ))}
      <div className="eform-row">
        <Button size="sm" onClick={() => setCondition({ ...c, rules: [...c.rules, { fieldId: earlier[0]!.id, op: 'equals', value: '' }] })}>
          Add a rule
        </Button>
        <Button size="sm" variant="ghost" onClick={() => setCondition(undefined)}>
          Remove the condition
        </Button>
      </div>
    </div>
  );
}

function FieldEditor({ field, earlier, problem, onChange }: { field: FormField; earlier: { id: string; label: string }[]; problem?: string; onChange: (f: FormField) => void }) {
  return (
    <div className="eform-editor" aria-label={`Settings of ${field.label || field.id}`} role="group">
      {problem && (
        <p className="notice notice-error" role="alert">
          {problem}
        </p>
      )}
      <TextField label={field.type === 'consent' ? 'Consent text' : 'Label'} value={field.label} onChange={(e) => onChange({ ...field, label: e.target.value })} />
      <TextField label="Help text" value={field.help ?? ''} onChange={(e) => onChange({ ...field, help: e.target.value || undefined })} />
      <TextField label="Field id (in exports and webhooks)" value={field.id} onChange={(e) => onChange({ ...field, id: e.target.value.replace(/[^a-zA-Z0-9_]/g, '').slice(0, 40) })} />
      <label className="checkbox-row">
        <input type="checkbox" checked={field.required} onChange={(e) => onChange({ ...field, required: e.target.checked })} /> Required
      </label>
      {CHOICES.has(field.type) && (
        <Field label="Options" hint="One per line">
          {(control) => (
            <textarea
              className="input"
              rows={4}
              {...control}
              value={(field.options ?? []).join('\n')}
              onChange={(e) => onChange({ ...field, options: e.target.value.split('\n').map((o) => o.slice(0, 200)) })}
            />
          )}
        </Field>
      )}
      <h4 className="eform-subtitle">Validation</h4>
      <ValidationEditor field={field} onChange={onChange} />
      <h4 className="eform-subtitle">Condition</h4>
      <ConditionEditor field={field} earlier={earlier} onChange={onChange} />
    </div>
  );
}

/** Options typed one per line keep their blank lines while editing; the saved draft does not. */
function tidy(def: FormDefinition): FormDefinition {
  return { ...def, fields: def.fields.map((f) => (f.options ? { ...f, options: f.options.filter((o) => o.trim() !== '') } : f)) };
}

function Builder({ app, initial }: { app: AppDefinition; initial: FormDetail }) {
  const api = useApi();
  const [def, setDef] = useState<FormDefinition>(initial.draft);
  const [form, setForm] = useState<FormDetail>(initial);
  const [selected, setSelected] = useState(0);
  const [save, setSave] = useState<{ state: 'saved' | 'saving' | 'dirty' | 'error'; message?: string }>({ state: 'saved' });
  const [confirming, setConfirming] = useState(false);
  const [serverProblems, setServerProblems] = useState<Record<string, string>>({});
  const [dragging, setDragging] = useState<number | null>(null);
  const [announce, setAnnounce] = useState('');
  // a field moved by keyboard keeps the focus where it went
  const [moved, setMoved] = useState<string | null>(null);
  const listRef = useRef<HTMLOListElement>(null);
  useEffect(() => {
    if (!moved) return;
    listRef.current?.querySelector<HTMLElement>(`[data-key="${CSS.escape(moved)}"] .eform-field-select`)?.focus();
    setMoved(null);
  }, [moved]);
  const id = initial.id;

  const problems = useMemo(() => ({ ...definitionProblems(tidy(def), re2Patterns), ...serverProblems }), [def, serverProblems]);
  // the server refuses a draft with a pattern its engine cannot run: wait until the pattern is fixed
  const valid = v.safeParse(FormDefinitionSchema, tidy(def)).success && Object.keys(unusablePatterns(tidy(def), re2Patterns)).length === 0;

  const change = (next: FormDefinition) => {
    setDef(next);
    setServerProblems({});
    setSave({ state: 'dirty' });
  };

  // autosave: a moment after the last change, the draft goes to the server
  useEffect(() => {
    if (save.state !== 'dirty' || !valid) return;
    const timer = setTimeout(async () => {
      setSave({ state: 'saving' });
      try {
        setForm(await api.put<FormDetail>(`/${app.id}/forms/${id}/draft`, { definition: tidy(def) }));
        setSave((s) => (s.state === 'saving' ? { state: 'saved' } : s));
      } catch (err) {
        setSave({ state: 'error', message: errorMessage(err, 'The draft could not be saved') });
      }
    }, AUTOSAVE_MS);
    return () => clearTimeout(timer);
  }, [def, save.state, valid, api, app.id, id]);

  const fields = def.fields;
  // keys that follow a field when it moves (an id typed twice gets a suffix)
  const keys = fields.map((f, i) => `${f.id}#${fields.slice(0, i).filter((x) => x.id === f.id).length}`);
  const current = fields[selected];
  const setField = (i: number, f: FormField) => change({ ...def, fields: fields.map((x, j) => (j === i ? f : x)) });
  const move = (from: number, to: number) => {
    if (to < 0 || to >= fields.length || from === to) return;
    const next = [...fields];
    const [f] = next.splice(from, 1);
    next.splice(to, 0, f!);
    change({ ...def, fields: next });
    setSelected(to);
    setMoved(f!.id);
    setAnnounce(`${f!.label} moved to position ${to + 1} of ${fields.length}`);
  };
  const add = (type: FieldType) => {
    const f = newField(type, new Set([...fields.map((x) => x.id), ...def.hiddenFields.map((h) => h.key)]));
    change({ ...def, fields: [...fields, f] });
    setSelected(fields.length);
    setAnnounce(`${TYPE_LABEL[type]} field added at position ${fields.length + 1}`);
  };
  const remove = (i: number) => {
    change({ ...def, fields: fields.filter((_, j) => j !== i) });
    setSelected(Math.max(0, i - 1));
  };
  const onKey = (i: number) => (e: KeyboardEvent) => {
    if (e.altKey && e.key === 'ArrowUp') {
      e.preventDefault();
      move(i, i - 1);
    } else if (e.altKey && e.key === 'ArrowDown') {
      e.preventDefault();
      move(i, i + 1);
    }
  };
  const onDrop = (i: number) => (e: DragEvent) => {
    e.preventDefault();
    if (dragging !== null) move(dragging, i);
    setDragging(null);
  };

  const flush = async () => {
    if (!valid) throw new Error('The form has settings that are not valid yet');
    await api.put<FormDetail>(`/${app.id}/forms/${id}/draft`, { definition: tidy(def) });
    setSave({ state: 'saved' });
  };

  const publish = async (confirm = false) => {
    try {
      await flush();
      const done = await api.post<FormDetail>(`/${app.id}/forms/${id}/publish`, { confirm });
      setForm(done);
      setConfirming(false);
      toast.success(`Version ${done.version} published`);
    } catch (err) {
      if (err instanceof ApiError && err.code === 'CONFIRM_REQUIRED') {
        setConfirming(true);
        return;
      }
      if (err instanceof ApiError && err.fields) setServerProblems(err.fields);
      toast.error('The form could not be published', errorMessage(err));
      throw err;
    }
  };

  const close = async () => {
    try {
      setForm(await api.post<FormDetail>(`/${app.id}/forms/${id}/close`));
      toast.success('The form is closed: it takes no new requests');
    } catch (err) {
      toast.error('The form could not be closed', errorMessage(err));
      throw err;
    }
  };

  const saveText = { saved: 'All changes saved', saving: 'Saving…', dirty: valid ? 'Unsaved changes' : 'Fix the marked settings to save', error: save.message ?? 'Not saved' }[save.state];
  const hidden = def.hiddenFields;
  const earlierOf = (i: number) => [...hidden.map((h) => ({ id: h.key, label: `${h.label} (hidden)` })), ...fields.slice(0, i).map((f) => ({ id: f.id, label: f.label || f.id }))];

  return (
    <div className="page eform-builder-page">
      <div className="page-header">
        <h1 className="page-title">{def.title || 'Untitled form'}</h1>
        <div className="eform-actions">
          <FormStatus form={form} />
          <span className="muted" role="status" data-testid="save-state">
            {saveText}
          </span>
          {form.status === 'published' && (
            <Button onClick={close} successLabel="Closed">
              Close
            </Button>
          )}
          <Button variant="primary" onClick={() => publish(false)} disabled={Object.keys(problems).length > 0} successLabel="Published">
            Publish
          </Button>
        </div>
      </div>
      {form.submissions > 0 && (
        <p className="notice notice-warning" role="note">
          This form has {form.submissions} submission{form.submissions === 1 ? '' : 's'}. Your edits are saved as a draft; publishing makes version {(form.version ?? 0) + 1}, and earlier
          submissions keep the fields they answered.
        </p>
      )}
      {form.warnings?.map((w) => (
        <p key={w} className="notice notice-warning" role="note" data-testid="pattern-warning">
          {w}
        </p>
      ))}
      {problems._ && (
        <p className="notice notice-error" role="alert">
          {problems._}
        </p>
      )}
      <p className="sr-only" aria-live="polite">
        {announce}
      </p>
      <div className="eform-builder">
        <Card title="Add a field" className="eform-palette">
          <ul className="eform-palette-list">
            {PALETTE.map((p) => (
              <li key={p.type}>
                <Button size="sm" onClick={() => add(p.type)}>
                  {p.label}
                </Button>
              </li>
            ))}
          </ul>
        </Card>
        <div className="eform-middle">
          <Card title="Form">
            <TextField label="Title" value={def.title} onChange={(e) => change({ ...def, title: e.target.value })} />
            <TextField label="Introduction" value={def.description ?? ''} onChange={(e) => change({ ...def, description: e.target.value || undefined })} />
            <TextField label="Submit button" value={def.submitLabel ?? ''} placeholder="Submit" onChange={(e) => change({ ...def, submitLabel: e.target.value || undefined })} />
          </Card>
          <Card title="Fields">
            <p className="muted">Drag a field, or focus it and press Alt+↑ or Alt+↓, to move it.</p>
            <ol className="eform-fields" aria-label="Fields" ref={listRef}>
              {fields.map((f, i) => (
                <li
                  key={keys[i]}
                  data-key={f.id}
                  className={`eform-field-item${i === selected ? ' eform-field-selected' : ''}${problems[f.id] ? ' eform-field-problem' : ''}`}
                  draggable
                  onDragStart={() => setDragging(i)}
                  onDragOver={(e) => e.preventDefault()}
                  onDrop={onDrop(i)}
                  data-testid={`field-${f.id}`}
                >
                  <button type="button" className="eform-field-select" aria-pressed={i === selected} onClick={() => setSelected(i)} onKeyDown={onKey(i)} aria-describedby={problems[f.id] ? `problem-${i}` : undefined}>
                    <span className="eform-drag" aria-hidden="true">
                      ⋮⋮
                    </span>
                    <span>
                      {f.label || f.id}
                      {f.required && ' *'}
                    </span>
                    <span className="muted">
                      {TYPE_LABEL[f.type]}
                      {f.condition && ' · conditional'}
                    </span>
                  </button>
                  {problems[f.id] && (
                    <span id={`problem-${i}`} className="field-error">
                      {problems[f.id]}
                    </span>
                  )}
                  <span className="eform-field-tools">
                    <Button size="sm" variant="ghost" aria-label={`Move ${f.label} up`} disabled={i === 0} onClick={() => move(i, i - 1)}>
                      ↑
                    </Button>
                    <Button size="sm" variant="ghost" aria-label={`Move ${f.label} down`} disabled={i === fields.length - 1} onClick={() => move(i, i + 1)}>
                      ↓
                    </Button>
                    <Button size="sm" variant="ghost" aria-label={`Remove ${f.label}`} onClick={() => remove(i)}>
                      Remove
                    </Button>
                  </span>
                </li>
              ))}
            </ol>
            {fields.length === 0 && <p className="muted">No fields yet: pick one from "Add a field".</p>}
          </Card>
          {current && (
            <Card title={`Field: ${current.label || current.id}`}>
              <FieldEditor field={current} earlier={earlierOf(selected)} problem={problems[current.id]} onChange={(f) => setField(selected, f)} />
            </Card>
          )}
          <Card title="Hidden fields">
            <p className="muted">Filled from the request (customerRef, prefill in the API, Case ID in the agent action), never shown to the customer; kept with each submission.</p>
            {hidden.map((h, i) => (
              <div className="eform-row" key={i}>
                <TextField label={`Hidden field ${i + 1} key`} value={h.key} onChange={(e) => change({ ...def, hiddenFields: hidden.map((x, j) => (j === i ? { ...x, key: e.target.value.replace(/[^a-zA-Z0-9_]/g, '').slice(0, 40) } : x)) })} />
                <TextField label={`Hidden field ${i + 1} label`} value={h.label} onChange={(e) => change({ ...def, hiddenFields: hidden.map((x, j) => (j === i ? { ...x, label: e.target.value } : x)) })} />
                <Button size="sm" variant="ghost" aria-label={`Remove hidden field ${h.key}`} onClick={() => change({ ...def, hiddenFields: hidden.filter((_, j) => j !== i) })}>
                  Remove
                </Button>
              </div>
            ))}
            <Button size="sm" onClick={() => change({ ...def, hiddenFields: [...hidden, { key: `hidden${hidden.length + 1}`, label: 'Hidden field' }] })}>
              Add a hidden field
            </Button>
          </Card>
        </div>
        <Card title="Preview" className="eform-preview-card">
          <FormPreview definition={tidy(def)} />
        </Card>
      </div>
      <ConfirmDialog
        open={confirming}
        title="Publish a new version?"
        description={`This form already has ${form.submissions} submissions. They keep the fields they answered; new requests use version ${(form.version ?? 0) + 1}.`}
        confirmLabel="Publish"
        destructive={false}
        onConfirm={() => publish(true)}
        onCancel={() => setConfirming(false)}
      />
    </div>
  );
}

/** forms/new: the form is created at once (an untitled draft) and the builder opens on its id. */
function NewForm({ app }: { app: AppDefinition }) {
  const api = useApi();
  const [, navigate] = useLocation();
  const [error, setError] = useState<unknown>(null);
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    api.create<FormDetail>(`/${app.id}/forms`, { definition: NEW_FORM }).then(
      (created) => navigate(`/forms/${created.id}`, { replace: true }),
      (err) => setError(err),
    );
  }, [api, app.id, navigate]);
  if (error) {
    return (
      <div className="page" role="alert">
        <p>{errorMessage(error, 'The form could not be created.')}</p>
      </div>
    );
  }
  return <LoadingPanel label="Creating the form" />;
}

export default function FormBuilder({ app }: { app: AppDefinition }) {
  const params = useParams<{ id?: string }>();
  const id = params.id && params.id !== 'new' ? params.id : null;
  const form = useQuery(id ? `${app.id}:form:${id}` : null, (a, signal) => a.get<FormDetail>(`/${app.id}/forms/${id}`, { signal }));
  return (
    <RequireRole role="admin">
      {id ? <QueryState query={form}>{() => form.data && <Builder key={form.data.id} app={app} initial={form.data} />}</QueryState> : <NewForm app={app} />}
    </RequireRole>
  );
}
