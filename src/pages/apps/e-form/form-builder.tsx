import { useEffect, useMemo, useRef, useState, type DragEvent, type KeyboardEvent } from 'react';
import { useLocation, useParams } from 'wouter';
import type { AppDefinition } from '../../../../api/contract/apps';
import {
  FormDefinitionSchema,
  NEW_FORM,
  sameTitle,
  titleKey,
  type FormDefinition,
  type FormDetail,
  type FormSummary,
} from '../../../../api/contract/apps/e-form';
import {
  definitionProblems,
  unusablePatterns,
  type FieldType,
  type FormField,
} from '../../../../api/contract/logic/e-form-rules';
import { re2Patterns } from '../../../../api/contract/logic/e-form-pattern';
import { ApiError, errorMessage } from '../../../api/client';
import { useApi, useQuery } from '../../../api/hooks';
import { RequireRole } from '../../../app/guards';
import { Button } from '../../../ui/Button';
import { Card } from '../../../ui/Card';
import { ConfirmDialog } from '../../../ui/ConfirmDialog';
import { Field, TextField } from '../../../ui/Field';
import { InvalidFields } from '../../../ui/invalid-fields';
import { QueryState } from '../../../ui/QueryState';
import { toast } from '../../../ui/Toast';
import { FieldEditor, newField, PALETTE, TYPE_LABEL } from './field-editor';
import { FormStatus } from './forms';
import { RetireForm } from './retire-form';
import { FormPreview } from './FormPreview';
import * as v from 'valibot';

// The form builder (forms/new and forms/{id}): a palette, the field list (reorder by drag or by
// keyboard), the selected field's settings and conditions, hidden fields, and a live preview.
// A new form is stored when its author presses Save (or Publish), with the title they gave;
// leaving before that stores nothing. Once stored, every change is saved to the draft a moment
// later; Publish freezes it as a new version.

const AUTOSAVE_MS = 800;

/** Options typed one per line keep their blank lines while editing; the saved draft does not. */
function tidy(def: FormDefinition): FormDefinition {
  return { ...def, fields: def.fields.map((f) => (f.options ? { ...f, options: f.options.filter((o) => o.trim() !== '') } : f)) };
}

function Builder({
  app,
  initial,
  onCreated,
}: {
  app: AppDefinition;
  initial: FormDetail | null;
  onCreated?: (id: string) => void;
}) {
  const api = useApi();
  const [, navigate] = useLocation();
  const [def, setDef] = useState<FormDefinition>(initial?.draft ?? NEW_FORM);
  // null until the first edit stores the form: opening forms/new stores nothing
  const [form, setForm] = useState<FormDetail | null>(initial);
  const [selected, setSelected] = useState(0);
  const [save, setSave] = useState<{ state: 'saved' | 'saving' | 'dirty' | 'error'; message?: string }>({ state: 'saved' });
  const [confirming, setConfirming] = useState(false);
  const [serverProblems, setServerProblems] = useState<Record<string, string>>({});
  // Problems show where the admin has been (the title, the field list, a field's settings), and
  // everywhere once they try to publish: a form just opened is not wrong yet, only unfinished.
  const [touched, setTouched] = useState<ReadonlySet<string>>(new Set());
  const [attempted, setAttempted] = useState(false);
  const touch = (...keys: string[]) => setTouched((t) => (keys.every((k) => t.has(k)) ? t : new Set([...t, ...keys])));
  const [dragging, setDragging] = useState<number | null>(null);
  const [announce, setAnnounce] = useState('');
  // a field moved by keyboard keeps the focus where it went
  const [moved, setMoved] = useState<string | null>(null);
  const listRef = useRef<HTMLOListElement>(null);
  const titleRef = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (!moved) return;
    listRef.current?.querySelector<HTMLElement>(`[data-key="${CSS.escape(moved)}"] .eform-field-select`)?.focus();
    setMoved(null);
  }, [moved]);
  const others = useQuery(`${app.id}:forms`, (a, signal) => a.get<FormSummary[]>(`/${app.id}/forms`, { signal }));

  // The form is created by its first save, once: edits made while that request is under way wait
  // for its id instead of creating a second form.
  const idRef = useRef<string | null>(initial?.id ?? null);
  const creating = useRef<Promise<string> | null>(null);
  const alive = useRef(true);
  const storedId = (first: FormDefinition): Promise<string> => {
    if (idRef.current) return Promise.resolve(idRef.current);
    creating.current ??= api.create<FormDetail>(`/${app.id}/forms`, { definition: first }).then(
      (created) => {
        idRef.current = created.id;
        // saved on the way out (below): the admin has moved on, the address stays where they went
        if (alive.current) {
          setForm(created);
          onCreated?.(created.id);
        }
        return created.id;
      },
      (err: unknown) => {
        creating.current = null;
        throw err;
      },
    );
    return creating.current;
  };
  const putDraft = async (d: FormDefinition) =>
    api.put<FormDetail>(`/${app.id}/forms/${await storedId(d)}/draft`, { definition: d });

  const problems = useMemo(() => ({ ...definitionProblems(tidy(def), re2Patterns), ...serverProblems }), [def, serverProblems]);
  // the server refuses a draft with a pattern its engine cannot run: wait until the pattern is fixed
  const valid =
    v.safeParse(FormDefinitionSchema, tidy(def)).success && Object.keys(unusablePatterns(tidy(def), re2Patterns)).length === 0;
  // the list answers at once while the title is typed; the saved form's own flag covers a list read before another form took the title
  const listed = sameTitle(others.data ?? [], form?.id ?? null, def.title);
  const twins = listed.length
    ? listed
    : form?.duplicateTitle && titleKey(form.draft.title) === titleKey(def.title)
      ? form.duplicateTitle.forms
      : [];
  const shown = useMemo(() => {
    if (attempted) return problems;
    const out: Record<string, string> = {};
    for (const [key, message] of Object.entries(problems)) {
      // the form's own problem is about its title first, then about having no field
      const about = key !== '_' ? key : !def.title.trim() ? 'title' : def.fields.length === 0 ? 'fields' : null;
      if (about === null || touched.has(about)) out[key] = message;
    }
    return out;
  }, [problems, attempted, touched, def.title, def.fields.length]);
  const titleWarning =
    twins.length > 0 && (form !== null || attempted || touched.has('title'))
      ? `Another form is already called "${twins[0]!.title.trim()}": give this one a title agents can tell apart.`
      : undefined;

  const change = (next: FormDefinition) => {
    setDef(next);
    setServerProblems({});
    setSave({ state: 'dirty' });
  };

  // autosave of a stored form: a moment after the last change, the draft goes to the server (a
  // new form waits for Save: typing a title is not asking for a form)
  useEffect(() => {
    if (save.state !== 'dirty' || !valid || !form) return;
    const timer = setTimeout(async () => {
      setSave({ state: 'saving' });
      try {
        setForm(await putDraft(tidy(def)));
        setSave((s) => (s.state === 'saving' ? { state: 'saved' } : s));
      } catch (err) {
        setSave({ state: 'error', message: errorMessage(err, 'The draft could not be saved') });
      }
    }, AUTOSAVE_MS);
    return () => clearTimeout(timer);
  }, [def, save.state, valid, api, app.id, form]); // eslint-disable-line react-hooks/exhaustive-deps

  // Leaving a stored form within the autosave's moment (a tab clicked right after typing) still
  // saves the change; a new form left unsaved stores nothing.
  const pending = useRef<FormDefinition | null>(null);
  pending.current = save.state === 'dirty' && valid && idRef.current ? def : null;

  // Save on a new form: the one way (with Publish) a form comes to exist. A title another form
  // has is asked about first, so no second form of the same name appears unnoticed.
  const [duplicateOf, setDuplicateOf] = useState<string | null>(null);
  const saveNew = async (confirmed = false) => {
    const d = tidy(def);
    const untitled = !d.title.trim() || (d.title === NEW_FORM.title && !touched.has('title'));
    if (untitled || !valid) {
      const found = untitled ? { title: 'Give the form a name before saving it' } : problems;
      setTouched((t) => new Set([...t, 'title', ...Object.keys(found)]));
      if (untitled) setServerProblems({ title: found.title! });
      focusFirstProblem(found);
      throw new InvalidFields(found);
    }
    if (!confirmed) {
      // the forms as they are now (the list on screen may still be loading, or be older than a
      // form another admin just saved)
      const now = await api.get<FormSummary[]>(`/${app.id}/forms`).catch(() => others.data ?? []);
      const same = sameTitle(now, null, d.title);
      if (same.length) {
        setDuplicateOf(same[0]!.title.trim());
        return;
      }
    }
    setDuplicateOf(null);
    try {
      setSave({ state: 'saving' });
      await storedId(d);
      setSave({ state: 'saved' });
      toast.success(`"${d.title.trim()}" saved`, 'It is a draft until you publish it.');
    } catch (err) {
      setSave({ state: 'error', message: errorMessage(err, 'The form could not be saved') });
      throw err;
    }
  };
  useEffect(() => {
    alive.current = true;
    return () => {
      alive.current = false;
      if (pending.current)
        putDraft(tidy(pending.current)).catch((err: unknown) =>
          toast.error('The last change to the form was not saved', errorMessage(err), err),
        );
    };
  }, []); // eslint-disable-line react-hooks/exhaustive-deps

  // a deleted draft has nothing left to save
  const leaveDeleted = () => {
    pending.current = null;
    navigate('/forms');
  };

  const fields = def.fields;
  // keys that follow a field when it moves (an id typed twice gets a suffix)
  const keys = fields.map((f, i) => `${f.id}#${fields.slice(0, i).filter((x) => x.id === f.id).length}`);
  const current = fields[selected];
  const setField = (i: number, f: FormField) => {
    touch(fields[i]!.id, f.id);
    change({ ...def, fields: fields.map((x, j) => (j === i ? f : x)) });
  };
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
    touch('fields');
    change({ ...def, fields: [...fields, f] });
    setSelected(fields.length);
    setAnnounce(`${TYPE_LABEL[type]} field added at position ${fields.length + 1}`);
  };
  const remove = (i: number) => {
    touch('fields');
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

  /** After a refused Publish, focus goes to the first thing to fix. */
  const focusFirstProblem = (found: Record<string, string>) => {
    setTimeout(() => {
      const first =
        found.title || (found._ && !def.title.trim())
          ? titleRef.current
          : found._
            ? document.getElementById('eform-form-problem')
            : fields
                .map((f, i) => (found[f.id] ? listRef.current?.querySelectorAll<HTMLElement>('.eform-field-select')[i] : null))
                .find(Boolean);
      first?.focus();
    });
  };

  const publish = async (confirm = false) => {
    setAttempted(true);
    if (Object.keys(problems).length) {
      focusFirstProblem(problems);
      throw new InvalidFields(problems);
    }
    try {
      if (!valid) throw new Error('The form has settings that are not valid yet');
      await putDraft(tidy(def));
      const id = await storedId(tidy(def));
      setSave({ state: 'saved' });
      const done = await api.post<FormDetail>(`/${app.id}/forms/${id}/publish`, { confirm });
      setForm(done);
      setConfirming(false);
      toast.success(`Version ${done.version} published`);
    } catch (err) {
      if (err instanceof ApiError && err.code === 'CONFIRM_REQUIRED') {
        setConfirming(true);
        return;
      }
      if (err instanceof ApiError && err.fields) {
        setServerProblems(err.fields);
        focusFirstProblem(err.fields);
        throw new InvalidFields(err.fields);
      }
      toast.error('The form could not be published', errorMessage(err), err);
      throw err;
    }
  };

  const close = async () => {
    try {
      setForm(await api.post<FormDetail>(`/${app.id}/forms/${form!.id}/close`));
      toast.success('The form is closed: it takes no new requests');
    } catch (err) {
      toast.error('The form could not be closed', errorMessage(err), err);
      throw err;
    }
  };

  // an untouched new form has nothing saved: its badge says so, and "All changes saved" beside it
  // would contradict it
  const saveText =
    !form && save.state === 'saved'
      ? ''
      : !form && save.state === 'dirty'
        ? 'Not saved yet'
        : {
            saved: 'All changes saved',
            saving: 'Saving…',
            dirty: valid ? 'Unsaved changes' : 'Fix the marked settings to save',
            error: save.message ?? 'Not saved',
          }[save.state];
  const hidden = def.hiddenFields;
  const sourcesOf = (i: number) => ({ questions: fields.slice(0, i), hidden });
  const titleError = shown.title ?? (shown._ && !def.title.trim() ? shown._ : undefined);
  const formProblem = shown._ && !titleError ? shown._ : undefined;

  return (
    <div className="page eform-builder-page">
      <div className="page-header">
        <h1 className="page-title">{def.title || 'Untitled form'}</h1>
        <div className="eform-actions">
          {form ? <FormStatus form={form} /> : <span className="badge badge-warning">New · not saved yet</span>}
          <span className="muted" role="status" data-testid="save-state">
            {saveText}
          </span>
          {form && <RetireForm app={app} form={form} onDone={(f) => (f ? setForm(f) : leaveDeleted())} />}
          {form?.status === 'published' && (
            <Button onClick={close} successLabel="Closed">
              Close
            </Button>
          )}
          {!form && (
            <Button onClick={() => saveNew(false)} successLabel="Saved">
              Save
            </Button>
          )}
          <Button variant="primary" onClick={() => publish(false)} disabled={Boolean(form?.archivedAt)} successLabel="Published">
            Publish
          </Button>
        </div>
      </div>
      {form?.archivedAt && (
        <p className="notice notice-warning" role="note">
          This form is archived: agents cannot send it and it is not in the Forms list. Its submissions stay in Submissions.
          Restore it to publish it again.
        </p>
      )}
      {form && form.submissions > 0 && (
        <p className="notice notice-warning" role="note">
          This form has {form.submissions} submission{form.submissions === 1 ? '' : 's'}. Your edits are saved as a draft;
          publishing makes version {(form.version ?? 0) + 1}, and earlier submissions keep the fields they answered.
        </p>
      )}
      {form?.warnings?.map((w) => (
        <p key={w} className="notice notice-warning" role="note" data-testid="pattern-warning">
          {w}
        </p>
      ))}
      {formProblem && (
        <p className="notice notice-error" role="alert" id="eform-form-problem" tabIndex={-1}>
          {formProblem}
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
            <Field
              label="Title"
              error={titleError}
              hint={
                titleWarning && (
                  <span className="field-warning" data-testid="title-warning">
                    {titleWarning}
                  </span>
                )
              }
            >
              {(control) => (
                <input
                  className="input"
                  {...control}
                  ref={titleRef}
                  value={def.title}
                  onChange={(e) => {
                    touch('title');
                    change({ ...def, title: e.target.value });
                  }}
                />
              )}
            </Field>
            <TextField
              label="Introduction"
              value={def.description ?? ''}
              onChange={(e) => change({ ...def, description: e.target.value || undefined })}
            />
            <TextField
              label="Submit button"
              value={def.submitLabel ?? ''}
              placeholder="Submit"
              onChange={(e) => change({ ...def, submitLabel: e.target.value || undefined })}
            />
          </Card>
          <Card title="Fields">
            <p className="muted">Drag a field, or focus it and press Alt+↑ or Alt+↓, to move it.</p>
            <ol className="eform-fields" aria-label="Fields" ref={listRef}>
              {fields.map((f, i) => (
                <li
                  key={keys[i]}
                  data-key={f.id}
                  className={`eform-field-item${i === selected ? ' eform-field-selected' : ''}${shown[f.id] ? ' eform-field-problem' : ''}`}
                  draggable
                  onDragStart={() => setDragging(i)}
                  onDragOver={(e) => e.preventDefault()}
                  onDrop={onDrop(i)}
                  data-testid={`field-${f.id}`}
                >
                  <button
                    type="button"
                    className="eform-field-select"
                    aria-pressed={i === selected}
                    onClick={() => setSelected(i)}
                    onKeyDown={onKey(i)}
                    aria-describedby={shown[f.id] ? `problem-${i}` : undefined}
                  >
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
                  {shown[f.id] && (
                    <span id={`problem-${i}`} className="field-error">
                      {shown[f.id]}
                    </span>
                  )}
                  <span className="eform-field-tools">
                    <Button
                      size="sm"
                      variant="ghost"
                      aria-label={`Move ${f.label} up`}
                      disabled={i === 0}
                      onClick={() => move(i, i - 1)}
                    >
                      ↑
                    </Button>
                    <Button
                      size="sm"
                      variant="ghost"
                      aria-label={`Move ${f.label} down`}
                      disabled={i === fields.length - 1}
                      onClick={() => move(i, i + 1)}
                    >
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
              <FieldEditor
                field={current}
                sources={sourcesOf(selected)}
                problem={shown[current.id]}
                onChange={(f) => setField(selected, f)}
              />
            </Card>
          )}
          <Card title="Hidden fields">
            <p className="muted">
              Filled from the request (customerRef, prefill in the API, Case ID in the agent action), never shown to the customer;
              kept with each submission.
            </p>
            {hidden.map((h, i) => (
              <div className="eform-row" key={i}>
                <TextField
                  label={`Hidden field ${i + 1} key`}
                  value={h.key}
                  onChange={(e) =>
                    change({
                      ...def,
                      hiddenFields: hidden.map((x, j) =>
                        j === i ? { ...x, key: e.target.value.replace(/[^a-zA-Z0-9_]/g, '').slice(0, 40) } : x,
                      ),
                    })
                  }
                />
                <TextField
                  label={`Hidden field ${i + 1} label`}
                  value={h.label}
                  onChange={(e) =>
                    change({ ...def, hiddenFields: hidden.map((x, j) => (j === i ? { ...x, label: e.target.value } : x)) })
                  }
                />
                <Button
                  size="sm"
                  variant="ghost"
                  aria-label={`Remove hidden field ${h.key}`}
                  onClick={() => change({ ...def, hiddenFields: hidden.filter((_, j) => j !== i) })}
                >
                  Remove
                </Button>
              </div>
            ))}
            <Button
              size="sm"
              onClick={() =>
                change({ ...def, hiddenFields: [...hidden, { key: `hidden${hidden.length + 1}`, label: 'Hidden field' }] })
              }
            >
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
        description={`This form already has ${form?.submissions ?? 0} submissions. They keep the fields they answered; new requests use version ${(form?.version ?? 0) + 1}.`}
        confirmLabel="Publish"
        destructive={false}
        onConfirm={() => publish(true)}
        onCancel={() => setConfirming(false)}
      />
      <ConfirmDialog
        open={duplicateOf !== null}
        title="Save a second form with this name?"
        description={`Another form is already called "${duplicateOf ?? ''}". Agents pick forms by name: a different name tells them apart.`}
        confirmLabel="Save anyway"
        destructive={false}
        onConfirm={() => saveNew(true)}
        onCancel={() => setDuplicateOf(null)}
      />
    </div>
  );
}

/**
 * forms/new shows an empty builder and stores nothing until Save or Publish (opening the page, or
 * typing a title, and leaving used to leave a form behind each time). Once created,
 * the address becomes forms/{id} and the same builder stays (the route keeps this page mounted).
 */
export default function FormBuilder({ app }: { app: AppDefinition }) {
  const params = useParams<{ id?: string }>();
  const [, navigate] = useLocation();
  const id = params.id && params.id !== 'new' ? params.id : null;
  const [createdHere, setCreatedHere] = useState<string | null>(null);
  const fresh = id === null || id === createdHere;
  const form = useQuery(fresh ? null : `${app.id}:form:${id}`, (a, signal) =>
    a.get<FormDetail>(`/${app.id}/forms/${id}`, { signal }),
  );
  const created = (newId: string) => {
    setCreatedHere(newId);
    navigate(`/forms/${newId}`, { replace: true });
  };
  return (
    <RequireRole role="admin">
      {fresh ? (
        <Builder key="new" app={app} initial={null} onCreated={created} />
      ) : (
        <QueryState query={form}>{() => form.data && <Builder key={form.data.id} app={app} initial={form.data} />}</QueryState>
      )}
    </RequireRole>
  );
}
