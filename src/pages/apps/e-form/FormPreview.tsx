import { useState } from 'react';
import type { FormDefinition } from '../../../../api/contract/apps/e-form';
import {
  evaluateForm,
  fieldError,
  type AnswerValue,
  type Answers,
  type FormField,
} from '../../../../api/contract/logic/e-form-rules';
import { re2Patterns } from '../../../../api/contract/logic/e-form-pattern';

// The builder's live preview: the draft as the customer will see it, with the evaluator the
// customer page and the server use, so a condition or a rule behaves here as it will there.

function Control({
  field,
  value,
  onChange,
  invalid,
  describedBy,
}: {
  field: FormField;
  value: AnswerValue | undefined;
  onChange: (v: AnswerValue) => void;
  invalid: boolean;
  describedBy: string;
}) {
  const id = `preview-${field.id}`;
  const common = { id, 'aria-invalid': invalid || undefined, 'aria-describedby': describedBy };
  const text = typeof value === 'string' ? value : '';
  switch (field.type) {
    case 'long_text':
      return <textarea className="input" {...common} value={text} onChange={(e) => onChange(e.target.value)} />;
    case 'dropdown':
      return (
        <select className="input" {...common} value={text} onChange={(e) => onChange(e.target.value)}>
          <option value="">Choose…</option>
          {(field.options ?? []).map((o) => (
            <option key={o} value={o}>
              {o}
            </option>
          ))}
        </select>
      );
    case 'file':
      return (
        <input
          type="file"
          {...common}
          accept={field.validation?.accept?.join(',')}
          onChange={(e) => {
            const f = e.target.files?.[0];
            onChange(f ? { name: f.name, size: f.size, type: f.type || 'application/octet-stream' } : null);
          }}
        />
      );
    default: {
      const type = field.type === 'email' ? 'email' : field.type === 'phone' ? 'tel' : field.type === 'date' ? 'date' : 'text';
      return <input className="input" type={type} {...common} value={text} onChange={(e) => onChange(e.target.value)} />;
    }
  }
}

export function FormPreview({ definition }: { definition: FormDefinition }) {
  const [answers, setAnswers] = useState<Answers>({});
  const [touched, setTouched] = useState<Set<string>>(new Set());
  const { visible, required } = evaluateForm(definition, answers);
  const set = (id: string) => (value: AnswerValue) => {
    setAnswers((a) => ({ ...a, [id]: value }));
    setTouched((t) => new Set(t).add(id));
  };
  return (
    <form className="eform-preview" aria-label="Preview" noValidate onSubmit={(e) => e.preventDefault()}>
      <h3 className="eform-preview-title">{definition.title || 'Untitled form'}</h3>
      {definition.description && <p>{definition.description}</p>}
      {definition.fields.length === 0 && <p className="muted">Add fields from the palette to see them here.</p>}
      {definition.fields
        .filter((f) => visible.has(f.id))
        .map((field) => {
          const error = touched.has(field.id) ? fieldError(field, answers[field.id], required.has(field.id), re2Patterns) : null;
          const errorId = `preview-${field.id}-error`;
          const mark = required.has(field.id) ? <span className="field-required"> *</span> : null;
          const value = answers[field.id];
          const errorLine = error && (
            <p id={errorId} className="field-error" data-testid={`preview-error-${field.id}`}>
              {error}
            </p>
          );
          if (field.type === 'single_choice' || field.type === 'multiple_choice' || field.type === 'consent') {
            const list = Array.isArray(value) ? value : [];
            const options = field.type === 'consent' ? [field.label] : (field.options ?? []);
            return (
              <fieldset key={field.id} className="field eform-preview-group" aria-describedby={error ? errorId : undefined}>
                <legend className="field-label">
                  {field.type === 'consent' ? 'Consent' : field.label}
                  {mark}
                </legend>
                {field.help && <p className="field-hint">{field.help}</p>}
                {options.map((o) => (
                  <label key={o} className="eform-option">
                    <input
                      type={field.type === 'single_choice' ? 'radio' : 'checkbox'}
                      name={`preview-${field.id}`}
                      checked={
                        field.type === 'consent'
                          ? value === true
                          : field.type === 'single_choice'
                            ? value === o
                            : list.includes(o)
                      }
                      onChange={(e) =>
                        set(field.id)(
                          field.type === 'consent'
                            ? e.target.checked
                            : field.type === 'single_choice'
                              ? o
                              : e.target.checked
                                ? [...list, o]
                                : list.filter((x) => x !== o),
                        )
                      }
                    />
                    {o}
                  </label>
                ))}
                {errorLine}
              </fieldset>
            );
          }
          return (
            <div key={field.id} className="field">
              <label className="field-label" htmlFor={`preview-${field.id}`}>
                {field.label}
                {mark}
              </label>
              {field.help && <p className="field-hint">{field.help}</p>}
              <Control
                field={field}
                value={value}
                onChange={set(field.id)}
                invalid={!!error}
                describedBy={error ? errorId : ''}
              />
              {errorLine}
            </div>
          );
        })}
      <button type="submit" className="btn btn-primary" disabled>
        {definition.submitLabel?.trim() || 'Submit'}
      </button>
    </form>
  );
}
