import * as v from 'valibot';
import { OptionalLocaleSchema } from '../locales';
import { PhoneNumberSchema } from '../sms';
import { TaskKeySchema, type AppAction, type TaskColumn } from '../platform';
import { CONDITION_OPS, FIELD_TYPES, MAX_FILE_MB, type AnswerValue, type FormDefinitionShape } from '../logic/e-form-rules';

// The eForm app: the one form definition schema (its rules are evaluated by ../logic/e-form-rules),
// the console's form and submission shapes, /api/v1 bodies, webhook events and agent actions.

export const EFORM_APP = 'e-form' as const;

/** A request's life: sent by SMS, opened by the customer, submitted, or it ran out / failed. */
export const EFORM_STATUSES = ['sent', 'opened', 'submitted', 'expired', 'failed'] as const;
export type EformStatus = (typeof EFORM_STATUSES)[number];
export const FORM_STATUSES = ['draft', 'published', 'closed'] as const;
export type FormStatus = (typeof FORM_STATUSES)[number];

const text = (name: string, max: number) =>
  v.pipe(v.string(`${name} must be text`), v.maxLength(max, `${name} has at most ${max} characters`));
const count = (name: string, max: number) =>
  v.optional(
    v.pipe(
      v.number(`${name} must be a number`),
      v.integer(`${name} must be a whole number`),
      v.minValue(0, `${name} is 0 or more`),
      v.maxValue(max, `${name} is at most ${max}`),
    ),
  );
const num = (name: string) => v.optional(v.pipe(v.number(`${name} must be a number`), v.finite(`${name} must be a number`)));
const day = (name: string) =>
  v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d{4}-\d{2}-\d{2}$/, `${name} must be a date such as 2026-01-31`),
      v.check(
        (d) =>
          d >= '1000' &&
          !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) &&
          new Date(`${d}T00:00:00Z`).toISOString().slice(0, 10) === d,
        `${name} must be a date such as 2026-01-31`,
      ),
    ),
  );
export const FIELD_ID_PATTERN = /^[a-zA-Z][a-zA-Z0-9_]{0,39}$/;
const fieldId = v.pipe(
  v.string('id is required'),
  v.regex(FIELD_ID_PATTERN, 'An id is a letter then up to 39 letters, digits or _'),
);

export const ConditionSchema = v.object({
  action: v.picklist(['show', 'hide', 'require'], 'action is show, hide or require'),
  match: v.picklist(['all', 'any'], 'match is all or any'),
  rules: v.pipe(
    v.array(
      v.object({ fieldId, op: v.picklist(CONDITION_OPS, 'op is not a comparison'), value: v.optional(text('value', 200)) }),
    ),
    v.maxLength(10, 'At most 10 rules'),
  ),
});

export const FormFieldSchema = v.object({
  id: fieldId,
  type: v.picklist(FIELD_TYPES, 'type is not a field type'),
  label: text('label', 300),
  help: v.optional(text('help', 1000)),
  required: v.boolean('required is true or false'),
  options: v.optional(v.pipe(v.array(text('An option', 200)), v.maxLength(50, 'At most 50 options'))),
  validation: v.optional(
    v.object({
      minLength: count('minLength', 5000),
      maxLength: count('maxLength', 5000),
      min: num('min'),
      max: num('max'),
      pattern: v.optional(text('pattern', 200)),
      patternMessage: v.optional(text('patternMessage', 200)),
      minDate: day('minDate'),
      maxDate: day('maxDate'),
      minChoices: count('minChoices', 50),
      maxChoices: count('maxChoices', 50),
      maxSizeMb: v.optional(
        v.pipe(
          v.number('maxSizeMb must be a number'),
          v.minValue(0.1, 'maxSizeMb is at least 0.1'),
          v.maxValue(MAX_FILE_MB, `maxSizeMb is at most ${MAX_FILE_MB}`),
        ),
      ),
      accept: v.optional(v.pipe(v.array(text('A file type', 100)), v.maxLength(20, 'At most 20 file types'))),
    }),
  ),
  condition: v.optional(ConditionSchema),
});

/** The form definition: what the builder edits, a version freezes and the customer page renders. */
export const FormDefinitionSchema = v.object({
  title: text('title', 200),
  description: v.optional(text('description', 2000)),
  submitLabel: v.optional(text('submitLabel', 60)),
  fields: v.pipe(v.array(FormFieldSchema), v.maxLength(100, 'A form has at most 100 fields')),
  hiddenFields: v.pipe(
    v.array(v.object({ key: fieldId, label: text('label', 200) })),
    v.maxLength(20, 'At most 20 hidden fields'),
  ),
});
export type FormDefinition = v.InferOutput<typeof FormDefinitionSchema>;
// the evaluator's own type is the schema's output (checked here, where both are known)
const _sameShape: FormDefinitionShape = {} as FormDefinition;
void _sameShape;

export const NEW_FORM: FormDefinition = {
  title: 'Untitled form',
  fields: [],
  hiddenFields: [
    { key: 'customerRef', label: 'Customer ID' },
    { key: 'caseId', label: 'Case ID' },
  ],
};

/** POST /api/e-form/forms and PUT /api/e-form/forms/{id}/draft (autosave) */
export const FormDraftBodySchema = v.object({ definition: FormDefinitionSchema });
/** POST /api/e-form/forms/{id}/publish: `confirm` acknowledges that the form already has submissions */
export const PublishBodySchema = v.object({ confirm: v.optional(v.boolean('confirm is true or false')) });

export const FormSummarySchema = v.object({
  id: v.string(),
  title: v.string(),
  status: v.picklist(FORM_STATUSES),
  /** the latest published version, null before the first Publish */
  version: v.nullable(v.number()),
  /** the draft differs from the latest published version */
  hasDraftChanges: v.boolean(),
  submissions: v.number(),
  lastSubmissionAt: v.nullable(v.string()),
  updatedAt: v.string(),
  /** set once a retired form is archived: out of the Forms list and the Send picker, its submissions kept */
  archivedAt: v.nullable(v.string()),
});
export type FormSummary = v.InferOutput<typeof FormSummarySchema>;

export const FormDetailSchema = v.object({
  ...FormSummarySchema.entries,
  draft: FormDefinitionSchema,
  versions: v.array(v.object({ version: v.number(), publishedAt: v.string(), publishedBy: v.string() })),
  /** what the published version does not check (a pattern the engine cannot run), in words */
  warnings: v.optional(v.array(v.string())),
  /** other forms (not archived) with the same title: a warning, the form is saved and publishes as usual */
  duplicateTitle: v.optional(
    v.object({
      code: v.literal('DUPLICATE_TITLE'),
      message: v.string(),
      forms: v.array(v.object({ id: v.string(), title: v.string() })),
    }),
  ),
});
export type FormDetail = v.InferOutput<typeof FormDetailSchema>;

/**
 * DELETE /api/e-form/forms/{id}: a form that was never published is deleted for good (nothing
 * was ever sent with it). One that was published is archived instead (POST .../archive).
 */
export const FormDeletedSchema = v.object({ id: v.string(), deleted: v.literal(true) });
export type FormDeleted = v.InferOutput<typeof FormDeletedSchema>;

/** Titles are told apart ignoring case and the spaces around them (agents pick forms by title). */
export const titleKey = (title: string) => title.trim().toLowerCase();

/** The other forms (not archived) whose title is this one's: what the builder and the Forms list flag (the API's DUPLICATE_TITLE). */
export function sameTitle(
  forms: Pick<FormSummary, 'id' | 'title' | 'archivedAt'>[],
  id: string | null,
  title: string,
): Pick<FormSummary, 'id' | 'title'>[] {
  const key = titleKey(title);
  return key ? forms.filter((f) => f.id !== id && f.archivedAt === null && titleKey(f.title) === key) : [];
}

const optionalText = (name: string, max: number) =>
  v.optional(
    v.nullable(v.pipe(v.string(`${name} must be text`), v.trim(), v.maxLength(max, `${name} has at most ${max} characters`))),
  );

/** POST /api/v1/forms/{id}/requests (and the agent action "Send a form") */
export const FormRequestBodySchema = v.object({
  phoneNumber: PhoneNumberSchema,
  customerRef: optionalText('customerRef', 200),
  /** values of the form's hidden fields, by key (customerRef fills itself) */
  prefill: v.optional(
    v.record(
      v.pipe(v.string(), v.regex(FIELD_ID_PATTERN, 'prefill keys are hidden field keys')),
      v.pipe(v.string('prefill values are text'), v.maxLength(500, 'prefill values have at most 500 characters')),
    ),
  ),
  agent: optionalText('agent', 200),
  /** the caller's language (SMS and page); the account's default when absent */
  locale: OptionalLocaleSchema,
});
export type FormRequestBody = v.InferOutput<typeof FormRequestBodySchema>;

export const FormIdParamSchema = v.object({ id: v.pipe(v.string(), v.uuid('id is not a form id')) });
export const FormRequestIdParamSchema = v.object({ id: v.pipe(v.string(), v.uuid('id is not a form request id')) });

const AnswerSchema = v.nullable(
  v.union([
    v.string(),
    v.number(),
    v.boolean(),
    v.array(v.string()),
    v.object({ name: v.string(), size: v.number(), type: v.string(), fileId: v.optional(v.string()) }),
  ]),
);

/** A form request as /api/v1 answers it; `answers` once submitted. */
export const FormRequestSchema = v.object({
  id: v.string(),
  formId: v.string(),
  formTitle: v.string(),
  version: v.number(),
  status: v.picklist(EFORM_STATUSES),
  phoneNumber: v.string(),
  customerRef: v.nullable(v.string()),
  agent: v.nullable(v.string()),
  prefill: v.record(v.string(), v.string()),
  createdAt: v.string(),
  expiresAt: v.string(),
  openedAt: v.nullable(v.string()),
  submittedAt: v.nullable(v.string()),
  failureReason: v.nullable(v.string()),
  answers: v.nullable(v.record(v.string(), AnswerSchema)),
});
export type FormRequest = v.InferOutput<typeof FormRequestSchema>;
export type StoredAnswers = Record<string, AnswerValue>;

/** An answer as one cell of text (lists, the CSV export): lists joined, a file by its name, consent as Yes. */
export function answerText(a: AnswerValue | undefined): string {
  if (a === undefined || a === null) return '';
  if (Array.isArray(a)) return a.join('; ');
  if (typeof a === 'object') return a.name;
  if (a === true) return 'Yes';
  return String(a);
}

/** One column of the Submissions list: a field of any version of the form. */
export type SubmissionColumn = { id: string; label: string; type: string; removed: boolean };
/** "Answer contains" searches needles of at least this many characters (a trigram each). */
export const CONTAINS_MIN_CHARS = 3;
export const CONTAINS_TOO_SHORT = `Type at least ${CONTAINS_MIN_CHARS} characters to search the answers`;

/** GET /api/e-form/submissions (x-count / x-last-key paging as the activity lists) */
export const SubmissionQuerySchema = v.object({
  formId: v.optional(v.pipe(v.string(), v.uuid('formId is not a form id'))),
  status: v.optional(v.picklist(EFORM_STATUSES, 'status is not a status of this app')),
  from: day('from'),
  to: day('to'),
  agent: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(200, 'agent has at most 200 characters'))),
  q: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(200, 'q has at most 200 characters'))),
  contains: v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.maxLength(200, 'contains has at most 200 characters'),
      // the trigram index (1250) finds needles of 3 characters or more; a shorter one would scan
      v.check((s) => s === '' || [...s].length >= CONTAINS_MIN_CHARS, CONTAINS_TOO_SHORT),
    ),
  ),
  lastKey: v.optional(TaskKeySchema),
  limit: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d{1,3}$/, 'limit is a number from 1 to 200'),
      v.transform(Number),
      v.minValue(1, 'limit is a number from 1 to 200'),
      v.maxValue(200, 'limit is a number from 1 to 200'),
    ),
  ),
});
export type SubmissionQuery = v.InferOutput<typeof SubmissionQuerySchema>;

export type SubmissionRow = {
  id: string;
  formId: string;
  formTitle: string;
  version: number;
  status: EformStatus;
  phoneNumber: string;
  customerRef: string | null;
  agent: string | null;
  createdAt: string;
  submittedAt: string | null;
  answers: StoredAnswers | null;
};
export type SubmissionPage = { columns: SubmissionColumn[]; rows: SubmissionRow[] };
/** GET /api/e-form/submissions/{id}: the row, the fields of its version, file links and timeline */
export type SubmissionDetail = SubmissionRow & {
  fields: { id: string; label: string; type: string }[];
  hiddenFields: { key: string; label: string }[];
  files: Record<string, { url: string; name: string; size: number }>;
  events: { time: string; description: string; actor: string }[];
};

/** Configuration > General */
export const EformGeneralSettingsSchema = v.object({
  linkValidityDays: v.pipe(
    v.number('Link validity must be a number'),
    v.integer('Link validity must be a whole number'),
    v.minValue(1, 'Link validity is at least 1 day'),
    v.maxValue(30, 'Link validity is at most 30 days'),
  ),
});
export type EformGeneralSettings = v.InferOutput<typeof EformGeneralSettingsSchema>;
export const EFORM_DEFAULT_SETTINGS: EformGeneralSettings = { linkValidityDays: 7 };

export const EFORM_TEMPLATES = [
  {
    key: 'form',
    label: 'Form link',
    defaultBody: '{{company}} asks you to fill in a short form: {{link}}',
    placeholders: ['company', 'link'] as const,
    required: ['link'] as const,
  },
];

export const EFORM_EVENT_TYPES = ['form.sent', 'form.opened', 'form.submitted'] as const;

export const EFORM_COLUMNS: TaskColumn[] = [
  { key: 'id', label: 'ID', kind: 'id' },
  { key: 'form', label: 'Form', kind: 'text' },
  { key: 'status', label: 'Status', kind: 'status' },
  { key: 'phoneNumber', label: 'Phone', kind: 'phone' },
  { key: 'customerRef', label: 'Customer', kind: 'text' },
  { key: 'agent', label: 'Agent', kind: 'text' },
  { key: 'createdAt', label: 'Sent', kind: 'date' },
  { key: 'endedAt', label: 'Submitted or ended at', kind: 'date' },
];

export const EFORM_ACTIONS: AppAction[] = [
  {
    key: 'send',
    label: 'Send a form',
    description: 'Text the customer a link to one of your published forms.',
    needsTask: false,
    fields: [
      {
        name: 'form',
        label: 'Form',
        kind: 'choice',
        required: true,
        placeholder: 'Search published forms',
        empty: 'No form is published yet: an admin publishes one under Forms.',
      },
      { name: 'phoneNumber', label: 'Phone number', kind: 'phone', required: true, placeholder: '+15551234567' },
      { name: 'locale', label: "Caller's language", kind: 'locale', required: false },
      { name: 'customerRef', label: 'Customer ID', kind: 'text', required: false },
      { name: 'caseId', label: 'Case ID', kind: 'text', required: false },
    ],
  },
];
