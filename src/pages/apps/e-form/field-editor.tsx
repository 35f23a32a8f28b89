import type { Condition, FieldType, FormField } from '../../../../api/contract/logic/e-form-rules';
import { CONDITION_OPS } from '../../../../api/contract/logic/e-form-rules';
import { Button } from '../../../ui/Button';
import { Field, TextField } from '../../../ui/Field';

// The builder's editor of one field: its settings, validation and condition; and the palette of
// field types it adds from.

export const PALETTE: { type: FieldType; label: string }[] = [
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
export const TYPE_LABEL = Object.fromEntries(PALETTE.map((p) => [p.type, p.label])) as Record<FieldType, string>;
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

export function newField(type: FieldType, taken: Set<string>): FormField {
  const base = type.replace(/_(\w)/g, (_, c: string) => c.toUpperCase());
  let n = 1;
  while (taken.has(`${base}${n}`)) n++;
  const field: FormField = {
    id: `${base}${n}`,
    type,
    label: type === 'consent' ? 'I agree to the terms' : TYPE_LABEL[type],
    required: false,
  };
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
    <TextField
      label={label}
      inputMode="decimal"
      value={val[key] ?? ''}
      onChange={(e) => set({ [key]: numberOrUndefined(e.target.value) })}
    />
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
          <TextField
            label="Pattern (regular expression)"
            value={val.pattern ?? ''}
            onChange={(e) => set({ pattern: e.target.value || undefined })}
            placeholder="P-\d{6}"
          />
          <TextField
            label="Message when the pattern does not match"
            value={val.patternMessage ?? ''}
            onChange={(e) => set({ patternMessage: e.target.value || undefined })}
          />
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
          <TextField
            label="Earliest"
            type="date"
            value={val.minDate ?? ''}
            onChange={(e) => set({ minDate: e.target.value || undefined })}
          />
          <TextField
            label="Latest"
            type="date"
            value={val.maxDate ?? ''}
            onChange={(e) => set({ maxDate: e.target.value || undefined })}
          />
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
            onChange={(e) =>
              set({
                accept: e.target.value
                  .split(',')
                  .map((x) => x.trim())
                  .filter(Boolean),
              })
            }
          />
        </>
      )}
    </div>
  );
}

type Rule = Condition['rules'][number];
/** What a condition can ask about: the questions above the field and the hidden fields. */
export type ConditionSources = { questions: FormField[]; hidden: { key: string; label: string }[] };

const optionsOf = (field: FormField | undefined) => (field?.options ?? []).map((o) => o.trim()).filter(Boolean);
const CONSENT_VALUES = [
  { value: 'yes', label: 'Ticked' },
  { value: 'false', label: 'Not ticked' },
];

/**
 * A new rule about a field: a choice question compares with its first option (a multiple choice
 * one asks whether the option is among the answers), a consent box whether it is ticked, others
 * with a value typed.
 */
function ruleAbout(fieldId: string, target: FormField | undefined): Rule {
  if (target && CHOICES.has(target.type))
    return { fieldId, op: target.type === 'multiple_choice' ? 'contains' : 'equals', value: optionsOf(target)[0] ?? '' };
  if (target?.type === 'consent') return { fieldId, op: 'equals', value: 'yes' };
  return { fieldId, op: 'equals', value: '' };
}

/**
 * The rule a new condition starts with: about the nearest question above (what a condition is
 * nearly always about), never a hidden field first, since hidden fields are often empty (a
 * condition on one that stays empty would never show its field). A field with no question above
 * it starts on the first hidden field.
 */
export function firstRule({ questions, hidden }: ConditionSources): Rule | null {
  const nearest = questions[questions.length - 1];
  if (nearest) return ruleAbout(nearest.id, nearest);
  return hidden[0] ? ruleAbout(hidden[0].key, undefined) : null;
}

function RuleValue({
  rule,
  target,
  label,
  onChange,
}: {
  rule: Rule;
  target: FormField | undefined;
  label: string;
  onChange: (value: string) => void;
}) {
  const compares = rule.op === 'equals' || rule.op === 'not_equals' || rule.op === 'contains';
  const choices =
    target && CHOICES.has(target.type) && compares
      ? optionsOf(target).map((o) => ({ value: o, label: o }))
      : target?.type === 'consent' && compares
        ? CONSENT_VALUES
        : null;
  if (!choices) return <TextField label={label} value={rule.value ?? ''} onChange={(e) => onChange(e.target.value)} />;
  const current = rule.value ?? '';
  return (
    <Field label={label}>
      {(control) => (
        <select className="input" {...control} value={current} onChange={(e) => onChange(e.target.value)}>
          {!choices.some((c) => c.value === current) && (
            <option value={current}>{current ? `${current} (no longer an option)` : 'Choose an option'}</option>
          )}
          {choices.map((c) => (
            <option key={c.value} value={c.value}>
              {c.label}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

export function ConditionEditor({
  field,
  sources,
  onChange,
}: {
  field: FormField;
  sources: ConditionSources;
  onChange: (f: FormField) => void;
}) {
  const c = field.condition;
  const setCondition = (next: Condition | undefined) => onChange({ ...field, condition: next });
  const first = firstRule(sources);
  if (!c) {
    return (
      <Button size="sm" disabled={!first} onClick={() => first && setCondition({ action: 'show', match: 'all', rules: [first] })}>
        Add a condition
      </Button>
    );
  }
  const questionOf = (id: string) => sources.questions.find((q) => q.id === id);
  const setRule = (i: number, next: Rule) => setCondition({ ...c, rules: c.rules.map((r, j) => (j === i ? next : r)) });
  return (
    <div className="eform-condition" role="group" aria-label="Condition">
      <div className="eform-row">
        <Field label="This field is">
          {(control) => (
            <select
              className="input"
              {...control}
              value={c.action}
              onChange={(e) => setCondition({ ...c, action: e.target.value as Condition['action'] })}
            >
              <option value="show">Shown only when</option>
              <option value="hide">Hidden when</option>
              <option value="require">Required when</option>
            </select>
          )}
        </Field>
        <Field label="Match">
          {(control) => (
            <select
              className="input"
              {...control}
              value={c.match}
              onChange={(e) => setCondition({ ...c, match: e.target.value as Condition['match'] })}
            >
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
              <select
                className="input"
                {...control}
                value={rule.fieldId}
                onChange={(e) => setRule(i, ruleAbout(e.target.value, questionOf(e.target.value)))}
              >
                {sources.questions.length > 0 && (
                  <optgroup label="Questions above">
                    {sources.questions.map((q) => (
                      <option key={q.id} value={q.id}>
                        {q.label || q.id}
                      </option>
                    ))}
                  </optgroup>
                )}
                {sources.hidden.length > 0 && (
                  <optgroup label="Hidden fields (filled from the request)">
                    {sources.hidden.map((h) => (
                      <option key={h.key} value={h.key}>
                        {h.label} (hidden)
                      </option>
                    ))}
                  </optgroup>
                )}
              </select>
            )}
          </Field>
          <Field label="Comparison">
            {(control) => (
              <select
                className="input"
                {...control}
                value={rule.op}
                onChange={(e) => setRule(i, { ...rule, op: e.target.value as (typeof CONDITION_OPS)[number] })}
              >
                {CONDITION_OPS.map((op) => (
                  <option key={op} value={op}>
                    {OP_LABEL[op]}
                  </option>
                ))}
              </select>
            )}
          </Field>
          {rule.op !== 'is_empty' && rule.op !== 'is_not_empty' && (
            <RuleValue
              rule={rule}
              target={questionOf(rule.fieldId)}
              label="Value"
              onChange={(value) => setRule(i, { ...rule, value })}
            />
          )}
          <Button
            size="sm"
            variant="ghost"
            aria-label={`Remove rule ${i + 1}`}
            onClick={() => setCondition(c.rules.length === 1 ? undefined : { ...c, rules: c.rules.filter((_, j) => j !== i) })}
          >
            Remove
          </Button>
        </div>
      ))}
      <div className="eform-row">
        <Button size="sm" onClick={() => first && setCondition({ ...c, rules: [...c.rules, first] })}>
          Add a rule
        </Button>
        <Button size="sm" variant="ghost" onClick={() => setCondition(undefined)}>
          Remove the condition
        </Button>
      </div>
    </div>
  );
}

export function FieldEditor({
  field,
  sources,
  problem,
  onChange,
}: {
  field: FormField;
  sources: ConditionSources;
  problem?: string;
  onChange: (f: FormField) => void;
}) {
  return (
    <div className="eform-editor" aria-label={`Settings of ${field.label || field.id}`} role="group">
      {problem && (
        <p className="notice notice-error" role="alert">
          {problem}
        </p>
      )}
      <TextField
        label={field.type === 'consent' ? 'Consent text' : 'Label'}
        value={field.label}
        onChange={(e) => onChange({ ...field, label: e.target.value })}
      />
      <TextField
        label="Help text"
        value={field.help ?? ''}
        onChange={(e) => onChange({ ...field, help: e.target.value || undefined })}
      />
      <TextField
        label="Field id (in exports and webhooks)"
        value={field.id}
        onChange={(e) => onChange({ ...field, id: e.target.value.replace(/[^a-zA-Z0-9_]/g, '').slice(0, 40) })}
      />
      <label className="checkbox-row">
        <input type="checkbox" checked={field.required} onChange={(e) => onChange({ ...field, required: e.target.checked })} />{' '}
        Required
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
      <ConditionEditor field={field} sources={sources} onChange={onChange} />
    </div>
  );
}
