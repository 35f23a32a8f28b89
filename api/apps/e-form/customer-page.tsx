/** @jsxImportSource hono/jsx */
import { customerDay } from '../../customer-pages/dates';
import type { Context } from 'hono';
import { raw } from 'hono/html';
import type { Deps } from '../../deps';
import { registerCustomerPage, registerCustomerPageAction, type PageAnswer } from '../../customer-pages/frame';
import type { Translate } from '../../customer-pages/i18n/index';
import {
  evaluateForm,
  MAX_FILE_FIELDS,
  MAX_FILE_MB,
  possibleProblems,
  type AnswerValue,
  type Answers,
  type FieldProblem,
  type FormField,
} from '../../contract/logic/e-form-rules';
import type { Locale } from '../../contract/locales';
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

/** A field's problem in the caller's language (dates and numbers as their language writes them). */
export function problemWords(p: FieldProblem, t: Translate, locale: Locale): string {
  switch (p.code) {
    case 'pattern':
      // the admin's own words for their pattern, else ours
      return p.message || t('eform.problem.pattern');
    case 'minDate':
    case 'maxDate': {
      const date = customerDay(p.date, locale);
      return t(`eform.problem.${p.code}`, { date });
    }
    case 'fileSize':
      return t('eform.problem.fileSize', { max: p.max });
    case 'fileType':
      return t('eform.problem.fileType', { types: p.types });
    case 'minChoices':
    case 'maxChoices':
    case 'min':
    case 'max':
    case 'minLength':
    case 'maxLength':
      return t(`eform.problem.${p.code}`, { n: p.n });
    default:
      return t(`eform.problem.${p.code}`);
  }
}

function textOf(value: AnswerValue | undefined): string {
  return typeof value === 'string' || typeof value === 'number' ? String(value) : '';
}

function Control(props: { field: FormField; value: AnswerValue | undefined; error?: string; required: boolean; t: Translate }) {
  const { field, value, error } = props;
  const id = `f-${field.id}`;
  const described = [field.help ? `${id}-help` : '', `${id}-error`].filter(Boolean).join(' ');
  const common = {
    id,
    name: field.id,
    'aria-describedby': described,
    'aria-invalid': error ? 'true' : undefined,
    'aria-required': props.required ? 'true' : undefined,
  };
  const v = field.validation ?? {};
  switch (field.type) {
    case 'long_text':
      return (
        <textarea {...common} maxlength={v.maxLength}>
          {textOf(value)}
        </textarea>
      );
    case 'dropdown':
      return (
        <select {...common}>
          <option value="">{props.t('eform.choose')}</option>
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
      return (
        <input
          {...common}
          type={type}
          inputmode={mode}
          autocomplete={auto}
          value={textOf(value)}
          maxlength={v.maxLength}
          min={v.minDate}
          max={v.maxDate}
        />
      );
    }
  }
}

function Field(props: {
  field: FormField;
  value: AnswerValue | undefined;
  error?: string;
  visible: boolean;
  required: boolean;
  t: Translate;
}) {
  const { field, value, error, required } = props;
  const id = `f-${field.id}`;
  // always there, so the script can show it when a condition makes the field required
  const mark = (
    <span class="ef-req" aria-hidden="true" hidden={!required}>
      {' *'}
    </span>
  );
  const help = field.help ? (
    <p class="ef-help" id={`${id}-help`}>
      {field.help}
    </p>
  ) : null;
  const errorLine = (
    <p class="ef-error" id={`${id}-error`} data-error-for={field.id}>
      {error ?? ''}
    </p>
  );
  const group = field.type === 'single_choice' || field.type === 'multiple_choice';
  if (group) {
    const list = Array.isArray(value) ? value : typeof value === 'string' ? [value] : [];
    return (
      <div class="ef-field" data-field={field.id} hidden={!props.visible}>
        <fieldset
          aria-describedby={[help ? `${id}-help` : '', `${id}-error`].filter(Boolean).join(' ')}
          aria-invalid={error ? 'true' : undefined}
        >
          <legend>
            {field.label}
            {mark}
          </legend>
          {help}
          {(field.options ?? []).map((o, i) => (
            <label class="ef-option">
              <input
                type={field.type === 'single_choice' ? 'radio' : 'checkbox'}
                name={field.id}
                value={o}
                id={`${id}-${i}`}
                checked={list.includes(o)}
              />
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
          <input
            type="checkbox"
            id={id}
            name={field.id}
            value="yes"
            checked={value === true}
            aria-describedby={[help ? `${id}-help` : '', `${id}-error`].filter(Boolean).join(' ')}
            aria-invalid={error ? 'true' : undefined}
          />
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
      <Control field={field} value={value} error={error} required={required} t={props.t} />
      {errorLine}
    </div>
  );
}

/** The form, filled with `values` (after a refused post) and with the server's messages. */
export function FormPage(props: {
  definition: FormDefinition;
  values: Values;
  problems: Record<string, FieldProblem>;
  t: Translate;
  locale: Locale;
}) {
  const { definition, values, t, locale } = props;
  const errors = Object.fromEntries(Object.entries(props.problems).map(([id, p]) => [id, problemWords(p, t, locale)]));
  const { visible, required } = evaluateForm(definition, values);
  const count = Object.keys(errors).length;
  // the script reads the definition from here ("<" escaped so no text can close the element),
  // with the prefilled values that conditions read and nothing else of the request
  const used = new Set(definition.fields.flatMap((f) => f.condition?.rules.map((r) => r.fieldId) ?? []));
  const prefill = Object.fromEntries(
    definition.hiddenFields.filter((h) => used.has(h.key) && values[h.key] !== undefined).map((h) => [h.key, values[h.key]]),
  );
  // and each field's possible messages in the page's language, so the script words a problem
  // exactly as the server would, without a message library
  const messages = Object.fromEntries(
    definition.fields.map((f) => [
      f.id,
      Object.fromEntries(possibleProblems(f).map((p) => [p.code, problemWords(p, t, locale)])),
    ]),
  );
  const json = JSON.stringify({ definition, prefill, messages }).replace(/</g, '\\u003c');
  // the script's summary for each possible count, in the page's language (plural rules differ:
  // Arabic has a dual, Japanese none), so the script carries no message library
  const correctMessages = JSON.stringify(
    Object.fromEntries(definition.fields.map((_, i) => [i + 1, t('eform.correct', { n: i + 1 })])),
  );
  return (
    <div>
      {definition.description ? <p>{definition.description}</p> : null}
      <div role="alert" id="ef-summary">
        {count ? <p class="ef-summary">{t('eform.correct', { n: count })}</p> : null}
      </div>
      <form method="post" enctype="multipart/form-data" novalidate data-eform data-correct={correctMessages}>
        {definition.fields.map((f) => (
          <Field
            field={f}
            value={values[f.id]}
            error={errors[f.id]}
            visible={visible.has(f.id)}
            required={required.has(f.id)}
            t={t}
          />
        ))}
        <p class="ef-help">{t('eform.requiredNote')}</p>
        <button type="submit">{definition.submitLabel?.trim() || t('eform.submit')}</button>
      </form>
      {/* as a string: hono/jsx renders a <script> element through a render context of its own (api/http/render-html.ts) */}
      {raw(`<script type="application/json" id="ef-definition">${json}</script>`)}
    </div>
  );
}

/** A request that takes no more answers, in the page's language. */
function donePage(status: string, t: Translate): PageAnswer | null {
  if (status === 'submitted') return { title: t('eform.submitted.title'), body: <p>{t('eform.submitted.text')}</p>, status: 410 };
  if (status === 'expired') return { title: t('state.expired.title'), body: <p>{t('state.expired.text')}</p>, status: 410 };
  if (status === 'failed') return { title: t('state.unknown.title'), body: <p>{t('eform.failed.text')}</p>, status: 410 };
  return null;
}

const getDeps = (c: Context) => c.get('deps' as never) as Deps;

registerCustomerPage(FILL_PURPOSE, async (c, link) => {
  const { request, definition } = await openRequest(getDeps(c), link.accountId, link.taskId!, requestOrigin(c as never));
  const done = donePage(request.status, link.t);
  if (done) return done;
  return {
    title: definition.title,
    body: <FormPage definition={definition} values={request.prefill ?? {}} problems={{}} t={link.t} locale={link.pageLocale} />,
    script: 'e-form',
    css: CSS,
  };
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
    if (outcome.ok)
      return { title: link.t('eform.thanks.title'), body: <p>{link.t('eform.thanks.text', { company: branding.name })}</p> };
    const { request, definition } = await openRequest(deps, link.accountId, link.taskId!, requestOrigin(c as never));
    if (outcome.status === 410) {
      const done = donePage(request.status, link.t);
      if (done) return done;
      return outcome.closed === 'link-used'
        ? { title: link.t('state.used.title'), body: <p>{link.t('state.used.text')}</p>, status: 410 }
        : { title: link.t('eform.closed.title'), body: <p>{link.t('eform.failed.text')}</p>, status: 410 };
    }
    // files are never echoed back: the customer chooses them again
    const values = answersFromPost(definition, { ...posted, files: {} }, request.prefill ?? {});
    return {
      title: definition.title,
      body: <FormPage definition={definition} values={values} problems={outcome.problems} t={link.t} locale={link.pageLocale} />,
      script: 'e-form',
      css: CSS,
      status: 400,
    };
  },
  (MAX_FILE_FIELDS * MAX_FILE_MB + 1) * 1024 * 1024,
);
