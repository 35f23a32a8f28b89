import * as v from 'valibot';
import { exactlyOneOf, text } from './common';
import { compactPhone, E164_PATTERN, PHONE_MESSAGE } from './sms';
import { RETENTION_KINDS, type RetentionKind } from './storage';

// A caller's data on request (issue 42): find it, erase it, export it. The caller is named in the
// body (never in a URL, which ends up in access logs) by phone number, in any spelling the SMS
// guard reads (spaces, dots, dashes, brackets), or by the customer reference the apps were given.

export const PRIVACY_STORE_KEYS = [
  'otp.verifications',
  'otp.sends',
  'passkeys.tasks',
  'passkeys.credentials',
  'idv.sessions',
  'eform.requests',
  'payments.payments',
  'signature.requests',
  'results',
  'sms.outbox',
  'sms.messages',
  'sms.guard',
  'api.idempotency',
  'webhooks.events',
  'webhooks.deliveries',
  'logs.shipments',
  'audit.entries',
  'notifications',
  'tasks.timeline',
] as const;
export type PrivacyStoreKey = (typeof PRIVACY_STORE_KEYS)[number];

export const SUBJECT_MESSAGE = 'Give either phoneNumber or customerRef';

const PhoneSchema = v.pipe(text(PHONE_MESSAGE), v.trim(), v.transform(compactPhone), v.regex(E164_PATTERN, PHONE_MESSAGE));
const RefSchema = v.pipe(
  text('customerRef must be text'),
  v.trim(),
  v.nonEmpty('customerRef must not be empty'),
  v.maxLength(200, 'customerRef is at most 200 characters'),
  v.check((s) => s !== '[erased]', 'customerRef must not be empty'),
);

/** One caller: `{ phoneNumber }` or `{ customerRef }`. */
export const PrivacySubjectSchema = exactlyOneOf(
  v.object({ phoneNumber: v.optional(PhoneSchema), customerRef: v.optional(RefSchema) }),
  [
    { required: ['phoneNumber'], absent: ['customerRef'] },
    { required: ['customerRef'], absent: ['phoneNumber'] },
  ],
  SUBJECT_MESSAGE,
  'phoneNumber',
);
export type PrivacySubject = v.InferOutput<typeof PrivacySubjectSchema>;

const StoreHoldingSchema = v.object({
  store: v.picklist(PRIVACY_STORE_KEYS),
  label: v.string(),
  count: v.number(),
});

/** What is held about one caller, by app ('platform': what the apps share: outbox, logs, webhooks, audit). */
export const CustomerDataSchema = v.object({
  total: v.number(),
  apps: v.array(v.object({ app: v.string(), title: v.string(), count: v.number(), stores: v.array(StoreHoldingSchema) })),
  /** signature requests of this caller under a legal hold (kept through erasure) */
  legalHolds: v.number(),
});
export type CustomerData = v.InferOutput<typeof CustomerDataSchema>;

/** A signed document kept under a legal hold (its reason stays in the console: it may name people). */
export const HeldDocumentSchema = v.object({ requestId: v.string(), since: v.string() });

/** An erasure or export request; its receipt holds no personal data (counts, ids, times, who asked). */
export const PrivacyRequestSchema = v.object({
  id: v.string(),
  kind: v.picklist(['erasure', 'export']),
  state: v.picklist(['pending', 'running', 'done']),
  subjectKind: v.picklist(['phone', 'customer_ref']),
  requestedBy: v.string(),
  requestedVia: v.picklist(['console', 'api']),
  createdAt: v.string(),
  finishedAt: v.nullable(v.string()),
  /** records redacted (erasure) or exported, by store */
  counts: v.record(v.string(), v.number()),
  /** signed documents kept under a legal hold */
  held: v.array(HeldDocumentSchema),
  /** an export's ZIP, through a short-lived signed link (null until done, or for an erasure) */
  downloadUrl: v.nullable(v.string()),
});
export type PrivacyRequest = v.InferOutput<typeof PrivacyRequestSchema>;
export const PrivacyRequestListSchema = v.array(PrivacyRequestSchema);

export const PrivacyRequestIdParamSchema = v.object({ id: v.pipe(text(), v.uuid('Not a request id')) });

export const LEGAL_HOLD_REASON_MESSAGE = 'Give the reason for the legal hold';
export const LegalHoldBodySchema = v.object({
  reason: v.pipe(
    v.optional(text(LEGAL_HOLD_REASON_MESSAGE), ''),
    v.trim(),
    v.nonEmpty(LEGAL_HOLD_REASON_MESSAGE),
    v.maxLength(500, 'The reason is at most 500 characters'),
  ),
});
export const LegalHoldSchema = v.object({
  requestId: v.string(),
  legalHold: v.nullable(v.object({ reason: v.string(), since: v.string(), by: v.string() })),
});

// ---------------------------------------------------------------- retention for every kind

/** The kinds of caller data the redaction job keeps to a period, with their defaults in days. */
export const CALLER_RETENTION_KINDS = [
  {
    kind: 'otp.tasks',
    app: 'one-time-passcode',
    label: 'One-Time Passcode verifications',
    covers: 'Phone numbers and customer references of passcode verifications, and the per-number send log.',
    defaultDays: 90,
  },
  {
    kind: 'passkeys.tasks',
    app: 'passkeys',
    label: 'Passkey enrolments and verifications',
    covers:
      'Phone numbers, customer references and display names of passkey tasks (the passkeys themselves stay until revoked or erased).',
    defaultDays: 90,
  },
  {
    kind: 'eform.answers',
    app: 'e-form',
    label: 'eForm answers and uploads',
    covers: "Callers' answers, uploaded files, prefilled values, phone numbers and customer references.",
    defaultDays: 365,
  },
  {
    kind: 'payments.records',
    app: 'payments',
    label: 'Payment records',
    covers:
      "Phone numbers, customer references and checkout links, counted from the payment's last change (paid, refunded, disputed, ended). Stripe keeps its own records.",
    defaultDays: 180,
  },
  {
    kind: 'sms.messages',
    app: 'platform',
    label: 'SMS outbox and message log',
    covers: "Each text's number and body (development outbox), the provider's message ids, and the SMS guard's per-number sends.",
    defaultDays: 90,
  },
  {
    kind: 'webhooks.events',
    app: 'platform',
    label: 'Webhook events and deliveries',
    covers: 'Events sent to your webhook destinations and their delivery records (never one still being delivered).',
    defaultDays: 30,
  },
] as const;
export type CallerRetentionKind = (typeof CALLER_RETENTION_KINDS)[number]['kind'];
export const CALLER_RETENTION_KIND_IDS = CALLER_RETENTION_KINDS.map((k) => k.kind) as unknown as readonly [
  CallerRetentionKind,
  ...CallerRetentionKind[],
];

/** Every kind an admin sets on Customer data: the caller kinds and the ones Storage settings keep too. */
export const ANY_RETENTION_KIND_IDS = [
  ...CALLER_RETENTION_KIND_IDS,
  ...RETENTION_KINDS.map((k) => k.kind),
] as unknown as readonly [CallerRetentionKind | RetentionKind, ...(CallerRetentionKind | RetentionKind)[]];

export type AnyRetentionKind = CallerRetentionKind | RetentionKind;

/** How long after a rule is enabled its first run comes, unless an admin confirms sooner. */
export const RETENTION_GRACE_DAYS = 30;

export const RetentionRuleSchema = v.object({
  kind: v.string(),
  app: v.string(),
  label: v.string(),
  covers: v.string(),
  /** null keeps */
  days: v.nullable(v.number()),
  defaultDays: v.nullable(v.number()),
  /** the first run may come from then on */
  startsAt: v.string(),
  confirmedBy: v.nullable(v.string()),
  /** the dry run: what a run now would redact with these days */
  wouldRedact: v.number(),
  /** kept in Storage settings too (Identity Verification, Document Signature): set here or there, with the same dry run and grace */
  setOnStorage: v.boolean(),
});
export type RetentionRule = v.InferOutput<typeof RetentionRuleSchema>;

const RETENTION_DAYS_MESSAGE = 'Enter a number of days from 1 to 3650, or keep';
export const RetentionRuleBodySchema = v.object({
  kind: v.picklist(ANY_RETENTION_KIND_IDS, 'Not a kind of caller data'),
  days: v.nullable(
    v.pipe(
      v.number(RETENTION_DAYS_MESSAGE),
      v.integer(RETENTION_DAYS_MESSAGE),
      v.minValue(1, RETENTION_DAYS_MESSAGE),
      v.maxValue(3650, RETENTION_DAYS_MESSAGE),
    ),
  ),
});
/** PUT /privacy/full-numbers/logging/{destination}: a logging destination's opt-in to full phone numbers. */
export const FullNumbersBodySchema = v.object({ fullPhoneNumbers: v.boolean('fullPhoneNumbers must be true or false') });
export const LoggingDestinationParamSchema = v.object({
  destination: v.picklist(['datadog', 'cloudwatch', 'sumologic', 'rapid7'], 'Not a logging destination'),
});

export const RetentionKindParamSchema = v.object({ kind: v.picklist(ANY_RETENTION_KIND_IDS, 'Not a kind of caller data') });
