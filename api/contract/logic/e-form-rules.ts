// The rules of a form, evaluated in one place: the builder's live preview, the customer page's
// script and the server all call these functions, so the same answers are valid in all three.
// No imports on purpose: the customer page bundles this file and must stay tiny.

export const FIELD_TYPES = [
  'short_text',
  'long_text',
  'email',
  'phone',
  'number',
  'date',
  'single_choice',
  'multiple_choice',
  'dropdown',
  'consent',
  'file',
] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

export const CONDITION_OPS = [
  'equals',
  'not_equals',
  'contains',
  'is_empty',
  'is_not_empty',
  'greater_than',
  'less_than',
] as const;
export type ConditionOp = (typeof CONDITION_OPS)[number];

export type ConditionRule = { fieldId: string; op: ConditionOp; value?: string };
/** show: only when the rules match; hide: unless they match; require: required when they match */
export type Condition = { action: 'show' | 'hide' | 'require'; match: 'all' | 'any'; rules: ConditionRule[] };

export type FieldValidation = {
  minLength?: number;
  maxLength?: number;
  min?: number;
  max?: number;
  pattern?: string;
  patternMessage?: string;
  /** YYYY-MM-DD */
  minDate?: string;
  maxDate?: string;
  minChoices?: number;
  maxChoices?: number;
  /** file upload: largest file in megabytes, and the kinds allowed (MIME types or .extensions) */
  maxSizeMb?: number;
  accept?: string[];
};

export type FormField = {
  id: string;
  type: FieldType;
  label: string;
  help?: string;
  required: boolean;
  options?: string[];
  validation?: FieldValidation;
  condition?: Condition;
};

export type HiddenField = { key: string; label: string };
export type FormDefinitionShape = {
  title: string;
  description?: string;
  submitLabel?: string;
  fields: FormField[];
  hiddenFields: HiddenField[];
};

/** A file as the evaluator sees it: what the browser knows before upload, plus the stored id after. */
export type FileAnswer = { name: string; size: number; type: string; fileId?: string };
export type AnswerValue = string | number | boolean | string[] | FileAnswer | null;
export type Answers = Record<string, AnswerValue | undefined>;

/**
 * How a field's `validation.pattern` is checked: a linear-time engine (./e-form-pattern.ts) on the
 * server and in the console, never the browser's backtracking RegExp. Without an engine (the
 * customer page) patterns are left to the server's check on submit.
 * problem: why the pattern cannot be used, or null; matches: null when the pattern cannot be used.
 */
export type PatternEngine = { problem(pattern: string): string | null; matches(pattern: string, text: string): boolean | null };

export const DEFAULT_MAX_FILE_MB = 10;
/** the most any form may take in one file (the customer page's body limit is sized from it) */
export const MAX_FILE_MB = 20;
export const TEXT_MAX = 5000;
export const MAX_FILE_FIELDS = 2;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

function isFile(value: AnswerValue | undefined): value is FileAnswer {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function isEmpty(value: AnswerValue | undefined): boolean {
  if (value === undefined || value === null || value === false) return true;
  if (typeof value === 'string') return value.trim() === '';
  if (Array.isArray(value)) return value.length === 0;
  return false;
}

function asText(value: AnswerValue | undefined): string {
  if (value === undefined || value === null) return '';
  if (Array.isArray(value)) return value.join(', ');
  if (isFile(value)) return value.name;
  return String(value);
}

function ruleMatches(rule: ConditionRule, value: AnswerValue | undefined): boolean {
  const expected = (rule.value ?? '').trim().toLowerCase();
  const list = Array.isArray(value) ? value.map((v) => v.toLowerCase()) : null;
  const text = asText(value).trim().toLowerCase();
  switch (rule.op) {
    case 'is_empty':
      return isEmpty(value);
    case 'is_not_empty':
      return !isEmpty(value);
    case 'equals':
      return list
        ? list.length === 1 && list[0] === expected
        : typeof value === 'boolean'
          ? String(value) === expected || (value && expected === 'yes')
          : text === expected;
    case 'not_equals':
      return !ruleMatches({ ...rule, op: 'equals' }, value);
    case 'contains':
      return list ? list.includes(expected) : text.includes(expected);
    case 'greater_than':
    case 'less_than': {
      if (isEmpty(value)) return false;
      const a = DATE.test(text) ? text : Number(text);
      const b = DATE.test(expected) ? expected : Number(expected);
      if (typeof a === 'number' && (Number.isNaN(a) || typeof b !== 'number' || Number.isNaN(b))) return false;
      return rule.op === 'greater_than' ? a > b : a < b;
    }
  }
}

/**
 * Which fields are on screen and which are required, in order. A rule reads an earlier answer
 * only while that field is itself shown: an answer the customer can no longer see counts as empty.
 */
export function evaluateForm(def: FormDefinitionShape, answers: Answers): { visible: Set<string>; required: Set<string> } {
  const visible = new Set<string>();
  const required = new Set<string>();
  const hidden = new Set(def.hiddenFields.map((h) => h.key));
  const seen = (id: string) => (visible.has(id) || hidden.has(id) ? answers[id] : undefined);
  for (const field of def.fields) {
    const c = field.condition;
    const matched =
      c && c.rules.length
        ? c.match === 'all'
          ? c.rules.every((r) => ruleMatches(r, seen(r.fieldId)))
          : c.rules.some((r) => ruleMatches(r, seen(r.fieldId)))
        : null;
    const shown = matched === null || !c ? true : c.action === 'show' ? matched : c.action === 'hide' ? !matched : true;
    if (!shown) continue;
    visible.add(field.id);
    if (field.required || (c?.action === 'require' && matched)) required.add(field.id);
  }
  return { visible, required };
}

function validDate(text: string): boolean {
  if (!DATE.test(text)) return false;
  const d = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === text;
}

function accepts(accept: string[], file: FileAnswer): boolean {
  const name = file.name.toLowerCase();
  const type = file.type.toLowerCase();
  return accept.some((a) => {
    const rule = a.trim().toLowerCase();
    if (rule.startsWith('.')) return name.endsWith(rule);
    if (rule.endsWith('/*')) return type.startsWith(rule.slice(0, -1));
    return type === rule;
  });
}

/**
 * What is wrong with one answer, as a code and the values its message names: the console and the
 * API word it in English (`problemText`); customer pages word it in the caller's language from
 * their catalogue (`eform.problem.<code>`, api/customer-pages/i18n), so the rules stay here once.
 */
export type FieldProblem =
  | {
      code:
        | 'required'
        | 'requiredConsent'
        | 'requiredFile'
        | 'requiredChoice'
        | 'options'
        | 'email'
        | 'phone'
        | 'number'
        | 'date';
    }
  | { code: 'fileSize'; max: number }
  | { code: 'fileType'; types: string }
  | { code: 'minChoices' | 'maxChoices' | 'min' | 'max' | 'minLength' | 'maxLength'; n: number }
  | { code: 'minDate' | 'maxDate'; date: string }
  | { code: 'pattern'; message: string };
export type FieldProblemCode = FieldProblem['code'];

/** What is wrong with one field's answer, or null when it is fine. */
export function fieldProblem(
  field: FormField,
  value: AnswerValue | undefined,
  required: boolean,
  patterns?: PatternEngine,
): FieldProblem | null {
  const v = field.validation ?? {};
  if (isEmpty(value)) {
    if (!required) return null;
    if (field.type === 'consent') return { code: 'requiredConsent' };
    if (field.type === 'file') return { code: 'requiredFile' };
    if (field.type === 'multiple_choice' || field.type === 'single_choice' || field.type === 'dropdown')
      return { code: 'requiredChoice' };
    return { code: 'required' };
  }
  switch (field.type) {
    case 'consent':
      return value === true || value === 'yes' || value === 'true' ? null : { code: 'requiredConsent' };
    case 'file': {
      if (!isFile(value)) return { code: 'requiredFile' };
      const max = v.maxSizeMb ?? DEFAULT_MAX_FILE_MB;
      if (value.size > max * 1024 * 1024) return { code: 'fileSize', max };
      if (v.accept?.length && !accepts(v.accept, value)) return { code: 'fileType', types: v.accept.join(', ') };
      return null;
    }
    case 'multiple_choice': {
      const list = Array.isArray(value) ? value : [asText(value)];
      if (list.some((x) => !(field.options ?? []).includes(x))) return { code: 'options' };
      if (v.minChoices !== undefined && list.length < v.minChoices) return { code: 'minChoices', n: v.minChoices };
      if (v.maxChoices !== undefined && list.length > v.maxChoices) return { code: 'maxChoices', n: v.maxChoices };
      return null;
    }
    case 'single_choice':
    case 'dropdown':
      return typeof value === 'string' && (field.options ?? []).includes(value) ? null : { code: 'options' };
    default:
  }
  const text = asText(value).trim();
  if (text.length > TEXT_MAX) return { code: 'maxLength', n: Math.min(v.maxLength ?? TEXT_MAX, TEXT_MAX) };
  switch (field.type) {
    case 'email':
      if (!EMAIL.test(text)) return { code: 'email' };
      break;
    case 'phone': {
      const digits = text.replace(/\D/g, '');
      if (!/^\+?[\d\s().-]+$/.test(text) || digits.length < 7 || digits.length > 15) return { code: 'phone' };
      break;
    }
    case 'number': {
      const n = typeof value === 'number' ? value : Number(text.replace(',', '.'));
      if (!/^-?\d+([.,]\d+)?$/.test(text) || Number.isNaN(n)) return { code: 'number' };
      if (v.min !== undefined && n < v.min) return { code: 'min', n: v.min };
      if (v.max !== undefined && n > v.max) return { code: 'max', n: v.max };
      break;
    }
    case 'date':
      if (!validDate(text)) return { code: 'date' };
      if (v.minDate && text < v.minDate) return { code: 'minDate', date: v.minDate };
      if (v.maxDate && text > v.maxDate) return { code: 'maxDate', date: v.maxDate };
      break;
    default:
  }
  if (v.minLength !== undefined && text.length < v.minLength) return { code: 'minLength', n: v.minLength };
  if (v.maxLength !== undefined && text.length > v.maxLength) return { code: 'maxLength', n: v.maxLength };
  // a published pattern the engine cannot run is dropped from checking (the form's page warns)
  if (v.pattern && patterns && patterns.matches(v.pattern, text) === false)
    return { code: 'pattern', message: v.patternMessage ?? '' };
  return null;
}

/** The problems a field can have, each with the values of this field (a page words them all ahead). */
export function possibleProblems(field: FormField): FieldProblem[] {
  const v = field.validation ?? {};
  const list: FieldProblem[] = [];
  const add = (p: FieldProblem | false | undefined) => p && list.push(p);
  switch (field.type) {
    case 'consent':
      add({ code: 'requiredConsent' });
      break;
    case 'file':
      add({ code: 'requiredFile' });
      add({ code: 'fileSize', max: v.maxSizeMb ?? DEFAULT_MAX_FILE_MB });
      add(!!v.accept?.length && { code: 'fileType', types: v.accept.join(', ') });
      break;
    case 'multiple_choice':
      add({ code: 'requiredChoice' });
      add({ code: 'options' });
      add(v.minChoices !== undefined && { code: 'minChoices', n: v.minChoices });
      add(v.maxChoices !== undefined && { code: 'maxChoices', n: v.maxChoices });
      break;
    case 'single_choice':
    case 'dropdown':
      add({ code: 'requiredChoice' });
      add({ code: 'options' });
      break;
    default:
      add({ code: 'required' });
      add({ code: 'maxLength', n: Math.min(v.maxLength ?? TEXT_MAX, TEXT_MAX) });
      add(field.type === 'email' && { code: 'email' });
      add(field.type === 'phone' && { code: 'phone' });
      add(field.type === 'number' && { code: 'number' });
      add(field.type === 'number' && v.min !== undefined && { code: 'min', n: v.min });
      add(field.type === 'number' && v.max !== undefined && { code: 'max', n: v.max });
      add(field.type === 'date' && { code: 'date' });
      add(field.type === 'date' && !!v.minDate && { code: 'minDate', date: v.minDate });
      add(field.type === 'date' && !!v.maxDate && { code: 'maxDate', date: v.maxDate });
      add(v.minLength !== undefined && { code: 'minLength', n: v.minLength });
      add(!!v.pattern && { code: 'pattern', message: v.patternMessage ?? '' });
  }
  return list;
}

/** A problem in English (the console's preview, the API's answers). */
export function problemText(p: FieldProblem): string {
  switch (p.code) {
    case 'required':
      return 'This field is required';
    case 'requiredConsent':
      return 'Please tick this box to continue';
    case 'requiredFile':
      return 'Please choose a file';
    case 'requiredChoice':
      return 'Please choose an answer';
    case 'options':
      return 'Choose from the options given';
    case 'email':
      return 'Enter an e-mail address such as name@example.com';
    case 'phone':
      return 'Enter a phone number such as +1 555 123 4567';
    case 'number':
      return 'Enter a number';
    case 'date':
      return 'Enter a date such as 2026-01-31';
    case 'fileSize':
      return `The file is larger than ${p.max} MB`;
    case 'fileType':
      return `Choose a file of type ${p.types}`;
    case 'minChoices':
      return `Choose at least ${p.n}`;
    case 'maxChoices':
      return `Choose at most ${p.n}`;
    case 'min':
      return `Enter ${p.n} or more`;
    case 'max':
      return `Enter ${p.n} or less`;
    case 'minLength':
      return `Use at least ${p.n} characters`;
    case 'maxLength':
      return `Use at most ${p.n} characters`;
    case 'minDate':
      return `Enter ${p.date} or later`;
    case 'maxDate':
      return `Enter ${p.date} or earlier`;
    case 'pattern':
      return p.message || 'This answer is not in the expected format';
  }
}

/** The message for one field's answer in English, or null when it is fine. */
export function fieldError(
  field: FormField,
  value: AnswerValue | undefined,
  required: boolean,
  patterns?: PatternEngine,
): string | null {
  const problem = fieldProblem(field, value, required, patterns);
  return problem ? problemText(problem) : null;
}

/** An answer as stored: numbers as numbers, consent as true, trimmed text, no empty values. */
function normalised(field: FormField, value: AnswerValue | undefined): AnswerValue {
  if (isEmpty(value)) return null;
  if (field.type === 'number') return typeof value === 'number' ? value : Number(asText(value).trim().replace(',', '.'));
  if (field.type === 'consent') return true;
  if (field.type === 'multiple_choice') return Array.isArray(value) ? value : [asText(value)];
  if (field.type === 'file') return value as FileAnswer;
  return asText(value).trim();
}

/**
 * Checks a whole submission. Fields that are not shown are neither required nor kept; hidden
 * fields keep their prefilled values. `answers` is what is stored when `errors` is empty.
 */
export function validateSubmission(
  def: FormDefinitionShape,
  input: Answers,
  patterns?: PatternEngine,
): { errors: Record<string, string>; problems: Record<string, FieldProblem>; answers: Record<string, AnswerValue> } {
  const { visible, required } = evaluateForm(def, input);
  const errors: Record<string, string> = {};
  const problems: Record<string, FieldProblem> = {};
  const answers: Record<string, AnswerValue> = {};
  for (const h of def.hiddenFields) {
    const value = input[h.key];
    if (!isEmpty(value)) answers[h.key] = asText(value).slice(0, 500);
  }
  for (const field of def.fields) {
    if (!visible.has(field.id)) continue;
    const problem = fieldProblem(field, input[field.id], required.has(field.id), patterns);
    if (problem) {
      problems[field.id] = problem;
      errors[field.id] = problemText(problem);
    } else {
      const value = normalised(field, input[field.id]);
      if (value !== null) answers[field.id] = value;
    }
  }
  return { errors, problems, answers };
}

/** What stops a definition from being published, by field id (or '_' for the form). */
export function definitionProblems(def: FormDefinitionShape, patterns?: PatternEngine): Record<string, string> {
  const problems: Record<string, string> = {};
  if (!def.title.trim()) problems._ = 'Give the form a title';
  if (def.fields.length === 0) problems._ ??= 'Add at least one field';
  if (def.fields.filter((f) => f.type === 'file').length > MAX_FILE_FIELDS)
    problems._ ??= `A form has at most ${MAX_FILE_FIELDS} file uploads`;
  const earlier = new Set(def.hiddenFields.map((h) => h.key));
  for (const field of def.fields) {
    const fail = (m: string) => (problems[field.id] ??= m);
    if (earlier.has(field.id)) fail(`Another field already uses the id ${field.id}`);
    if (!field.label.trim()) fail('Give the field a label');
    if (
      (field.type === 'single_choice' || field.type === 'multiple_choice' || field.type === 'dropdown') &&
      (field.options ?? []).filter((o) => o.trim()).length < 2
    )
      fail('Give at least two options');
    if (field.options && new Set(field.options).size !== field.options.length) fail('Options must differ');
    const v = field.validation ?? {};
    if (v.minLength !== undefined && v.maxLength !== undefined && v.minLength > v.maxLength)
      fail('The shortest length is more than the longest');
    if (v.min !== undefined && v.max !== undefined && v.min > v.max) fail('The smallest value is more than the largest');
    const patternProblem = v.pattern && patterns ? patterns.problem(v.pattern) : null;
    if (patternProblem) fail(patternProblem);
    for (const rule of field.condition?.rules ?? []) {
      if (!earlier.has(rule.fieldId)) fail('A condition can only use fields above this one');
    }
    if (field.condition && field.condition.rules.length === 0) fail('Add a rule to the condition or remove it');
    earlier.add(field.id);
  }
  return problems;
}

/** Fields whose pattern the engine cannot run, with why: a published form keeps working without them. */
export function unusablePatterns(def: FormDefinitionShape, patterns: PatternEngine): Record<string, string> {
  const found: Record<string, string> = {};
  for (const field of def.fields) {
    const problem = field.validation?.pattern ? patterns.problem(field.validation.pattern) : null;
    if (problem) found[field.id] = problem;
  }
  return found;
}
