import * as v from 'valibot';
import { OptionalLocaleSchema } from '../locales';
import { PhoneNumberSchema } from '../sms';
import type { AppAction, TaskColumn } from '../platform';

// The Identity Verification app: a caller shows a government ID and a selfie through a link
// sent by SMS; automatic checks run on what can be checked here for real (the MRZ check digits,
// expiry, age, expected name and date of birth, a document number seen before in this account);
// a reviewer decides. No OCR, face match or liveness vendor is reachable: the reviewer types the
// MRZ from the image, and face match and liveness are reported as not available.

export const IDV_APP = 'identity-verification' as const;

export const IDV_STATUSES = [
  'created',
  'link_sent',
  'in_progress',
  'submitted',
  'needs_review',
  'approved',
  'declined',
  'resubmission_requested',
  'expired',
  'cancelled',
] as const;
export const IdvStatusSchema = v.picklist(IDV_STATUSES);
export type IdvStatus = v.InferOutput<typeof IdvStatusSchema>;

/** Waiting for the customer: the link works in these. */
export const IDV_CUSTOMER_STATUSES: readonly IdvStatus[] = ['created', 'link_sent', 'in_progress', 'resubmission_requested'];
/** Waiting for a reviewer. */
export const IDV_REVIEW_STATUSES: readonly IdvStatus[] = ['submitted', 'needs_review'];
export const IDV_FINAL_STATUSES: readonly IdvStatus[] = ['approved', 'declined', 'expired', 'cancelled'];

/** Documents a customer may show; `back` says whether the customer photographs a back side. */
export const IDV_DOCUMENT_TYPES = [
  { key: 'passport', label: 'Passport', back: false, mrz: 'TD3 (2 lines of 44)' },
  { key: 'id_card', label: 'National identity card', back: true, mrz: 'TD1 (3 lines of 30) on the back' },
  { key: 'residence_permit', label: 'Residence permit', back: true, mrz: 'TD1 (3 lines of 30) on the back' },
] as const;
export type IdvDocumentType = (typeof IDV_DOCUMENT_TYPES)[number]['key'];
export const IDV_DOCUMENT_TYPE_KEYS = IDV_DOCUMENT_TYPES.map((d) => d.key) as [IdvDocumentType, ...IdvDocumentType[]];
export const documentTypeOf = (key: string) => IDV_DOCUMENT_TYPES.find((d) => d.key === key);

export const IDV_SIDES = ['front', 'back', 'selfie'] as const;
export type IdvSide = (typeof IDV_SIDES)[number];
export const IDV_SIDE_LABELS: Record<IdvSide, string> = {
  front: 'Front of the document',
  back: 'Back of the document',
  selfie: 'Selfie',
};

/** The largest photo a customer may upload. */
export const IDV_MAX_IMAGE_BYTES = 8 * 1024 * 1024;

const int = (name: string, min: number, max: number) =>
  v.pipe(
    v.number(`${name} must be a number`),
    v.integer(`${name} must be a whole number`),
    v.minValue(min, `${name} is at least ${min}`),
    v.maxValue(max, `${name} is at most ${max}`),
  );

/** Configuration > General (GET/PUT /api/identity-verification/settings/general). */
export const IdvGeneralSettingsSchema = v.object({
  minimumAge: int('Minimum age', 0, 120),
  linkValidityMinutes: int('Link validity', 5, 10_080),
  documentTypes: v.pipe(
    v.array(
      v.picklist(IDV_DOCUMENT_TYPE_KEYS, 'Document types must be passport, id_card or residence_permit'),
      'Document types must be a list',
    ),
    v.minLength(1, 'Accept at least one document type'),
    v.check((list) => new Set(list).size === list.length, 'Each document type once'),
  ),
});
export type IdvGeneralSettings = v.InferOutput<typeof IdvGeneralSettingsSchema>;
export const IDV_DEFAULT_SETTINGS: IdvGeneralSettings = {
  minimumAge: 18,
  linkValidityMinutes: 60,
  documentTypes: ['passport', 'id_card', 'residence_permit'],
};

export const IDV_TEMPLATES = [
  {
    key: 'link',
    label: 'Verification link',
    defaultBody:
      '{{company}} asks you to verify your identity with a photo of your ID and a selfie: {{link}} (valid for {{ttl}} minutes)',
    placeholders: ['company', 'link', 'ttl'] as const,
    required: ['link'] as const,
  },
  {
    key: 'resubmission',
    label: 'New photos requested',
    defaultBody: '{{company}} needs new photos to verify your identity: {{link}} (valid for {{ttl}} minutes)',
    placeholders: ['company', 'link', 'ttl'] as const,
    required: ['link'] as const,
  },
];

const optionalText = (name: string, max: number) =>
  v.optional(
    v.nullable(v.pipe(v.string(`${name} must be text`), v.trim(), v.maxLength(max, `${name} has at most ${max} characters`))),
  );

/** A calendar date, YYYY-MM-DD, that exists. */
export const IsoDateSchema = v.pipe(
  v.string('must be a date such as 1980-04-30'),
  v.regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date such as 1980-04-30'),
  v.check((s) => {
    const d = new Date(`${s}T00:00:00Z`);
    return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
  }, 'is not a real date'),
);

/** POST /api/v1/idv/sessions */
export const IdvStartBodySchema = v.object({
  customerRef: v.pipe(
    v.string('customerRef is required'),
    v.trim(),
    v.minLength(1, 'customerRef is required'),
    v.maxLength(200, 'customerRef has at most 200 characters'),
  ),
  phoneNumber: PhoneNumberSchema,
  expectedName: optionalText('expectedName', 200),
  expectedDateOfBirth: v.optional(
    v.nullable(
      v.pipe(
        v.string(),
        v.trim(),
        v.union([v.literal(''), IsoDateSchema], 'expectedDateOfBirth must be a date such as 1980-04-30'),
      ),
    ),
  ),
  agent: optionalText('agent', 200),
  /** the caller's language (SMS and page); the account's default when absent */
  locale: OptionalLocaleSchema,
});
export type IdvStartBody = v.InferOutput<typeof IdvStartBodySchema>;

/** POST /api/v1/idv/sessions/{id}/cancel (body optional) */
export const IdvCancelBodySchema = v.object({ agent: optionalText('agent', 200) });

export const IdvIdParamSchema = v.object({ id: v.pipe(v.string(), v.uuid('id is not a session id')) });

export const IDV_CHECKS = [
  { key: 'mrz', label: 'Machine-readable zone check digits' },
  { key: 'expiry', label: 'Document not expired' },
  { key: 'minimum_age', label: 'Minimum age' },
  { key: 'name', label: 'Name as expected' },
  { key: 'date_of_birth', label: 'Date of birth as expected' },
  { key: 'document_number', label: 'Document number not seen in another session' },
  { key: 'face_match', label: 'Face match (selfie against document photo)' },
  { key: 'liveness', label: 'Liveness' },
] as const;
export type IdvCheckKey = (typeof IDV_CHECKS)[number]['key'];
export const IDV_CHECK_STATUSES = ['passed', 'failed', 'not_run'] as const;

/** Reason codes of checks: stable, never personal data. */
export const IDV_CHECK_REASONS: Record<string, string> = {
  mrz_valid: 'Every check digit is right',
  mrz_not_entered: 'The MRZ has not been typed in yet',
  mrz_check_digit_mismatch: 'A check digit is wrong',
  mrz_unreadable: 'The lines are not a machine-readable zone',
  not_expired: 'The expiry date is in the future',
  document_expired: 'The document has expired',
  no_expiry_date: 'No expiry date was read',
  old_enough: 'Old enough',
  under_minimum_age: 'Younger than the minimum age',
  no_date_of_birth: 'No date of birth was read',
  name_matches: 'The name matches what the agent expected',
  name_mismatch: 'The name differs from what the agent expected',
  no_expected_name: 'The agent gave no name to compare',
  date_of_birth_matches: 'The date of birth matches what the agent expected',
  date_of_birth_mismatch: 'The date of birth differs from what the agent expected',
  no_expected_date_of_birth: 'The agent gave no date of birth to compare',
  not_seen_before: 'Not seen in another session of this account',
  seen_in_other_session: 'Seen in another session of this account',
  no_document_number: 'No document number was read',
  not_available: 'Not available: no face match or liveness service is connected',
  data_redacted: 'The extracted data was deleted under the retention settings',
};

export const IdvCheckSchema = v.object({
  key: v.string(),
  label: v.string(),
  status: v.picklist(IDV_CHECK_STATUSES),
  reason: v.string(),
  /** the reason in words */
  message: v.string(),
});
export type IdvCheck = v.InferOutput<typeof IdvCheckSchema>;

/** What the MRZ says, as the reviewer typed it. */
export const IdvExtractedSchema = v.object({
  format: v.string(),
  documentCode: v.nullable(v.string()),
  issuingState: v.nullable(v.string()),
  documentNumber: v.nullable(v.string()),
  lastName: v.nullable(v.string()),
  firstName: v.nullable(v.string()),
  nationality: v.nullable(v.string()),
  /** YYYY-MM-DD */
  dateOfBirth: v.nullable(v.string()),
  sex: v.nullable(v.string()),
  /** YYYY-MM-DD */
  expiryDate: v.nullable(v.string()),
  mrzLines: v.array(v.string()),
});
export type IdvExtracted = v.InferOutput<typeof IdvExtractedSchema>;

export const IDV_DECISIONS = ['approved', 'declined', 'resubmission_requested'] as const;
export type IdvDecision = (typeof IDV_DECISIONS)[number];

export const IDV_DECISION_REASONS: Record<IdvDecision, readonly { key: string; label: string }[]> = {
  approved: [
    { key: 'document_and_selfie_match', label: 'Document genuine and the selfie matches it' },
    { key: 'verified_with_minor_issues', label: 'Verified; minor issues explained by the customer' },
  ],
  declined: [
    { key: 'document_expired', label: 'Document expired' },
    { key: 'mrz_invalid', label: 'Machine-readable zone invalid' },
    { key: 'face_mismatch', label: 'Selfie does not match the document' },
    { key: 'details_mismatch', label: 'Name or date of birth differ from what was expected' },
    { key: 'under_minimum_age', label: 'Younger than the minimum age' },
    { key: 'suspected_fraud', label: 'Suspected fraud or tampering' },
  ],
  resubmission_requested: [
    { key: 'image_unreadable', label: 'Photo blurred, dark or with glare' },
    { key: 'document_cut_off', label: 'Document cut off in the photo' },
    { key: 'wrong_document', label: 'Not an accepted document' },
    { key: 'back_missing', label: 'Back of the document missing or wrong' },
    { key: 'selfie_unclear', label: 'Selfie unclear or face hidden' },
  ],
};

/** POST /api/identity-verification/sessions/{id}/decision */
export const IdvDecisionBodySchema = v.pipe(
  v.object({
    decision: v.picklist(IDV_DECISIONS, 'decision must be approved, declined or resubmission_requested'),
    reason: v.pipe(v.string('reason is required'), v.minLength(1, 'Choose a reason')),
    note: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(1000, 'note has at most 1000 characters'))),
  }),
  v.forward(
    v.check((b) => IDV_DECISION_REASONS[b.decision].some((r) => r.key === b.reason), 'Choose a reason from the list'),
    ['reason'],
  ),
);
export type IdvDecisionBody = v.InferOutput<typeof IdvDecisionBodySchema>;

/** POST /api/identity-verification/sessions/{id}/mrz: the lines as read from the image. */
export const IdvMrzBodySchema = v.object({
  lines: v.pipe(
    v.string('lines are required'),
    v.maxLength(200, 'At most 3 lines of 44 characters'),
    v.transform((s) =>
      s
        .toUpperCase()
        .replace(/[ \t\r]/g, '')
        .split('\n')
        .filter(Boolean),
    ),
    v.check((l) => l.length >= 2 && l.length <= 3, 'Type the 2 or 3 lines of the machine-readable zone, one per line'),
    v.check((l) => l.every((x) => /^[A-Z0-9<]+$/.test(x)), 'Only letters, digits and < appear in a machine-readable zone'),
  ),
});

export const IdvReviewerSchema = v.object({ id: v.nullable(v.string()), name: v.string() });

/** A session as /api/v1 answers it: no images, no extracted data. */
export const IdvSessionSchema = v.object({
  id: v.string(),
  status: IdvStatusSchema,
  /** masked: +1 •••• •• 4567 */
  phoneNumber: v.string(),
  customerRef: v.string(),
  agent: v.nullable(v.string()),
  documentType: v.nullable(v.string()),
  /** ISO 8601 */
  createdAt: v.string(),
  linkExpiresAt: v.nullable(v.string()),
  submittedAt: v.nullable(v.string()),
  decidedAt: v.nullable(v.string()),
  decisionReason: v.nullable(v.string()),
  redactedAt: v.nullable(v.string()),
  checks: v.array(IdvCheckSchema),
  failureReason: v.nullable(v.string()),
});
export type IdvSession = v.InferOutput<typeof IdvSessionSchema>;

/** The review screen: the session with its images (signed links), extracted data and checks. */
export const IdvReviewSchema = v.object({
  session: IdvSessionSchema,
  expectedName: v.nullable(v.string()),
  expectedDateOfBirth: v.nullable(v.string()),
  images: v.array(
    v.object({
      side: v.picklist(IDV_SIDES),
      url: v.nullable(v.string()),
      contentType: v.nullable(v.string()),
      size: v.nullable(v.number()),
      uploadedAt: v.string(),
    }),
  ),
  imagesRedactedAt: v.nullable(v.string()),
  extracted: v.nullable(IdvExtractedSchema),
  dataRedactedAt: v.nullable(v.string()),
  assignedTo: v.nullable(IdvReviewerSchema),
  /** the case is held by whoever asks (the review screen says "Assigned to you" and offers Release) */
  assignedToYou: v.boolean(),
  decision: v.nullable(
    v.object({
      decision: v.picklist(IDV_DECISIONS),
      reason: v.string(),
      reasonLabel: v.string(),
      note: v.nullable(v.string()),
      reviewer: IdvReviewerSchema,
      at: v.string(),
    }),
  ),
  /** the session may be decided now */
  reviewable: v.boolean(),
});
export type IdvReview = v.InferOutput<typeof IdvReviewSchema>;

/** One case of the review queue (GET /api/identity-verification/queue), oldest submission first. */
export const IdvQueueItemSchema = v.object({
  id: v.string(),
  status: IdvStatusSchema,
  customerRef: v.string(),
  documentType: v.nullable(v.string()),
  submittedAt: v.nullable(v.string()),
  failedChecks: v.number(),
  assignedTo: v.nullable(IdvReviewerSchema),
  assignedToYou: v.boolean(),
});
export type IdvQueueItem = v.InferOutput<typeof IdvQueueItemSchema>;
export const IdvQueueSchema = v.object({ items: v.array(IdvQueueItemSchema), total: v.number() });
export type IdvQueue = v.InferOutput<typeof IdvQueueSchema>;
/** The most cases the queue answers at once (the oldest first; the rest follow as these are decided). */
export const IDV_QUEUE_LIMIT = 100;

/**
 * How each status reads at a glance: green only for approved, red for declined, attention for
 * what waits for a reviewer, neutral for what waits for the customer or ended without a verdict.
 */
export const IDV_STATUS_TONES: Record<IdvStatus, 'success' | 'danger' | 'warning' | 'info' | 'neutral'> = {
  created: 'neutral',
  link_sent: 'neutral',
  in_progress: 'neutral',
  submitted: 'info',
  needs_review: 'warning',
  approved: 'success',
  declined: 'danger',
  resubmission_requested: 'warning',
  expired: 'neutral',
  cancelled: 'neutral',
};

export const IDV_EVENT_TYPES = [
  'idv.session.submitted',
  'idv.session.approved',
  'idv.session.declined',
  'idv.session.resubmission_requested',
  'idv.session.expired',
  'idv.session.redacted',
] as const;

/** Retention kinds this app reads from storage settings (days per kind; missing = kept). */
export const IDV_RETENTION_KINDS = { images: 'idv.images', data: 'idv.data' } as const;

export const IDV_COLUMNS: TaskColumn[] = [
  { key: 'id', label: 'ID', kind: 'id' },
  { key: 'customerRef', label: 'Customer', kind: 'text' },
  { key: 'phoneNumber', label: 'Phone', kind: 'phone' },
  { key: 'status', label: 'Status', kind: 'status', tones: IDV_STATUS_TONES },
  { key: 'documentType', label: 'Document', kind: 'text' },
  { key: 'failedChecks', label: 'Failed checks', kind: 'number' },
  { key: 'reviewer', label: 'Reviewer', kind: 'text' },
  { key: 'agent', label: 'Agent', kind: 'text' },
  { key: 'createdAt', label: 'Started', kind: 'date' },
  { key: 'endedAt', label: 'Decided or ended', kind: 'date' },
];

export const IDV_ACTIONS: AppAction[] = [
  {
    key: 'start',
    label: 'Verify identity',
    description: 'Text the caller a link to photograph their ID and take a selfie; a reviewer decides.',
    needsTask: false,
    fields: [
      { name: 'phoneNumber', label: 'Phone number', kind: 'phone', required: true, placeholder: '+15551234567' },
      { name: 'locale', label: "Caller's language", kind: 'locale', required: false },
      { name: 'customerRef', label: 'Customer ID', kind: 'text', required: true },
      { name: 'expectedName', label: 'Expected name', kind: 'text', required: false, placeholder: 'Anna Maria Eriksson' },
      { name: 'expectedDateOfBirth', label: 'Expected date of birth', kind: 'text', required: false, placeholder: '1974-08-12' },
    ],
  },
];
