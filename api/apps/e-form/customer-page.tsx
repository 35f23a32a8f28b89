/** @jsxImportSource hono/jsx */
import type { Context } from 'hono';
import { raw } from 'hono/html';
import type { Deps } from '../../deps';
import { registerCustomerPage, registerCustomerPageAction, type PageAnswer } from '../../customer-pages/frame';
import { evaluateForm, MAX_FILE_FIELDS, MAX_FILE_MB, type AnswerValue, type Answers, type FormField } from '../../contract/apps/e-form-rules';
import type { FormDefinition } from '../../contract/apps/e-form';
import { requestOrigin } from '../platform/request';
import { answersFromPost, FILL_PURPOSE, openRequest, submitRequest, type PostedAnswers } from './service';

// The customer's form at /c/<token>: the published version as a plain HTML form (it posts and
// is checked on the server even without a script); src/customer-pages/e-form.ts adds the live
// rules with the same evaluator, so what the page accepts is what the server accepts.

const CSS = `form{display:grid;gap:16px}.ef-field{display:grid;gap:4px}.ef-field[hidden]{display:none}
label,legend{font-weight:600}fieldset{border:0;margin:0;padding:0;display:grid;gap:6px}
input[type=text],input[type=email],input[type=tel],input[type=number],input[type=date],select,textarea{font:inherit;width:100%;min-height:44px;padding:8px 10px;border:1px solid #6B7280;border-radius:6px;background:#fff;color:#111827}
textarea{min-height:96px}.ef-option{display:flex;gap:8px;align-items:flex-start;font-weight:400}.ef-option input{width:20px;height:20px;margin-top:2px;flex:none}
.ef-help{margin:0;color:#4B5563;font-size:.9rem}.ef-error{margin:0;color:#B91C1C;font-size:.9rem}.ef-error:empty{display:none}
[aria-invalid=true]{border-color:#B91C1C}.ef-summary{border:1px solid #B91C1C;border-radius:6px;padding:8px 12px;color:#B91C1C}.ef-req{color:#B91C1C}`;

type Values = Answers;

function textOf(value: AnswerValue | undefined): string {
  return typeof value === 'string' || typeof value === 'number' ? String(value) : '';
}

function Control(props: { field: FormField; value: AnswerValue | undefined; error?: string; required: boolean }) {
  const { field, value, error } = props;
  const id = `f-${field.id}`;
  const described = [field.help ? `${id}-help` : '', `${id}-error`].filter(Boolean).join(' ');
  const common = { id, name: field.id, 'aria-describedby': described, 'aria-invalid': error ? 'true' : undefined, 'aria-required': props.required ? 'true' : undefined };
  const v = field.validation ?? {};
  switch (field.type) {
    case 'long_text':
      return <textarea {...common} maxlength={v.maxLength}>{textOf(value)}</textarea>;
    case 'dropdown':
      return (
        <select {...common}>
          <option value="">Choose…</option>
          {(field.options ?? []).map((o) => (
            <option value={o} selected={value === o}>
              {o}
            </option>
          ))}
        </select>
      );
    case 'file':
      return <input {...common} type="file" accept={v.accept?.join(',') || undefined} data-max-mb={String(v.maxSizeMb ?? 10)} />;
    default: {
      const type = { email: 'email', phone: 'tel', number: 'text', date: 'date' }[field.type as string] ?? 'text';
      const mode = field.type === 'number' ? 'decimal' : undefined;
      const auto = field.type === 'email' ? 'email' : field.type === 'phone' ? 'tel' : undefined;
      return <input {...common} type={type} inputmode={mode} autocomplete={auto} value={textOf(value)} maxlength={v.maxLength} min={v.minDate} max={v.maxDate} />;
    }
  }
}

function Field(props: { field: FormField; value: AnswerValue | undefined; error?: string; visible: boolean; required: boolean }) {
  const { field, value, error, required } = props;
  const id = `f-${field.id}`;
  // always there, so the script can show it when a condition makes the field required
  const mark = (
    <span class="ef-req" aria-hidden="true" hidden={!required}>
      {' *'}
    </span>
  );
  const help = field.help ? <p class="ef-help" id={`${id}-help`}>{field.help}</p> : null;
  const errorLine = <p class="ef-error" id={`${id}-error`} data-error-for={field.id}>{error ?? ''}</p>;
  const group = field.type === 'single_choice' || field.type === 'multiple_choice';
  if (group) {
    const list = Array.isArray(value) ? value : typeof value === 'string' ? [value] : [];
    return (
      <div class="ef-field" data-field={field.id} hidden={!props.visible}>
        <fieldset aria-describedby={[help ? `${id}-help` : '', `${id}-error`].filter(Boolean).join(' ')} aria-invalid={error ? 'true' : undefined}>
          <legend>
            {field.label}
            {mark}
          </legend>
          {help}
          {(field.options ?? []).map((o, i) => (
            <label class="ef-option">
              <input type={field.type === 'single_choice' ? 'radio' : 'checkbox'} name={field.id} value={o} id={`${id}-${i}`} checked={list.includes(o)} />
              <span>{o}</span>
            </label>
          ))}
          {errorLine}
        </fieldset>
      </div>
    );
  }
  if (field.type === 'consent') {
    return (
      <div class="ef-field" data-field={field.id} hidden={!props.visible}>
        <label class="ef-option">
          <input type="checkbox" id={id} name={field.id} value="yes" checked={value === true} aria-describedby={[help ? `${id}-help` : '', `${id}-error`].filter(Boolean).join(' ')} aria-invalid={error ? 'true' : undefined} />
          <span>
            {field.label}
            {mark}
          </span>
        </label>
        {help}
        {errorLine}
      </div>
    );
  }
  return (
    <div class="ef-field" data-field={field.id} hidden={!props.visible}>
      <label for={id}>
        {field.label}
        {mark}
      </label>
      {help}
      <Control field={field} value={value} error={error} required={required} />
      {errorLine}
    </div>
  );
}

/** The form, filled with `values` (after a refused post) and with the server's messages. */
export function FormPage(props: { definition: FormDefinition; values: Values; errors: Record<string, string> }) {
  const { definition, values, errors } = props;
  const { visible, required } = evaluateForm(definition, values);
  const count = Object.keys(errors).filter((k) => k !== '_').length;
  // the script reads the definition from here ("<" escaped so no text can close the element),
  // with the prefilled values that conditions read and nothing else of the request
  const used = new Set(definition.fields.flatMap((f) => f.condition?.rules.map((r) => r.fieldId) ?? []));
  const prefill = Object.fromEntries(definition.hiddenFields.filter((h) => used.has(h.key) && values[h.key] !== undefined).map((h) => [h.key, values[h.key]]));
  const json = JSON.stringify({ definition, prefill }).replace(/</g, '\\u003c');
  return (
    <div>
      {definition.description ? <p>{definition.description}</p> : null}
      <div role="alert" id="ef-summary">
        {errors._ ? <p class="ef-summary">{errors._}</p> : count ? <p class="ef-summary">Please correct {count === 1 ? 'the answer' : `the ${count} answers`} marked below.</p> : null}
      </div>
      <form method="post" enctype="multipart/form-data" novalidate data-eform>
        {definition.fields.map((f) => (
          <Field field={f} value={values[f.id]} error={errors[f.id]} visible={visible.has(f.id)} required={required.has(f.id)} />
        ))}
        <p class="ef-help">
          Fields marked <span class="ef-req">*</span> are required.
        </p>
        <button type="submit">{definition.submitLabel?.trim() || 'Submit'}</button>
      </form>
      <script type="application/json" id="ef-definition">
        {raw(json)}
      </script>
    </div>
  );
}

const DONE: Record<string, PageAnswer> = {
  submitted: { title: 'This form has already been submitted', body: <p>Thank you: your answers were received. There is nothing more to do.</p>, status: 410 },
  expired: { title: 'This link has expired', body: <p>Links work for a limited time. Ask the person you are speaking with to send you a new one.</p>, status: 410 },
  failed: { title: 'This link does not work', body: <p>Ask the person you are speaking with to send you a new one.</p>, status: 410 },
};

const getDeps = (c: Context) => c.get('deps' as never) as Deps;

registerCustomerPage(FILL_PURPOSE, async (c, link) => {
  const { request, definition } = await openRequest(getDeps(c), link.accountId, link.taskId!, requestOrigin(c as never));
  if (DONE[request.status]) return DONE[request.status]!;
  return { title: definition.title, body: <FormPage definition={definition} values={request.prefill ?? {}} errors={{}} />, script: 'e-form', css: CSS };
});

registerCustomerPageAction(
  FILL_PURPOSE,
  async (c, link, branding) => {
    const deps = getDeps(c);
    const body = await c.req.parseBody({ all: true });
    const posted: PostedAnswers = { values: {}, files: {} };
    for (const [key, raw] of Object.entries(body)) {
      const list = Array.isArray(raw) ? raw : [raw];
      const file = list.find((x): x is File => typeof x !== 'string');
      if (file) posted.files[key] = { name: file.name, type: file.type, bytes: new Uint8Array(await file.arrayBuffer()) };
      else posted.values[key] = list.length === 1 ? (list[0] as string) : (list as string[]);
    }
    const outcome = await submitRequest(deps, link.accountId, link.taskId!, link.token, posted, requestOrigin(c as never));
    if (outcome.ok) return { title: 'Thank you', body: <p>Your answers were sent to {branding.name}. You can close this page.</p> };
    const { request, definition } = await openRequest(deps, link.accountId, link.taskId!, requestOrigin(c as never));
    if (outcome.status === 410) return DONE[request.status] ?? { title: 'This form can no longer be submitted', body: <p>{outcome.errors._}</p>, status: 410 };
    // files are never echoed back: the customer chooses them again
    const values = answersFromPost(definition, { ...posted, files: {} }, request.prefill ?? {});
    return { title: definition.title, body: <FormPage definition={definition} values={values} errors={outcome.errors} />, script: 'e-form', css: CSS, status: 400 };
  },
  (MAX_FILE_FIELDS * MAX_FILE_MB + 1) * 1024 * 1024,
);
