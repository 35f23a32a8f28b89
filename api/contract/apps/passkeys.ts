import * as v from 'valibot';
import { OptionalLocaleSchema } from '../locales';
import { PhoneNumberSchema } from '../sms';
import { isTaskKey, type AppAction, type TaskColumn } from '../platform';

// The Passkeys app: its settings, its /api/v1 bodies and answers, the customer page's ceremony
// calls, the Enrollments list, its webhook events, its activity columns and its agent actions.

export const PASSKEYS_APP = 'passkeys' as const;

/** enrollment: the customer creates a passkey; verification: the customer proves it is them with one */
export const PASSKEY_TASK_KINDS = ['enrollment', 'verification'] as const;
export type PasskeyTaskKind = (typeof PASSKEY_TASK_KINDS)[number];

/**
 * link_sent: waiting for the customer; started: the page asked for a ceremony; succeeded;
 * failed (a refused ceremony, ends the task); expired (the link ran out); not_delivered (the SMS
 * provider refused); cancelled (by the agent, the link stops working).
 */
export const PASSKEY_STATUSES = ['link_sent', 'started', 'succeeded', 'failed', 'expired', 'not_delivered', 'cancelled'] as const;
export type PasskeyStatus = (typeof PASSKEY_STATUSES)[number];

/** Why a ceremony or a task failed, as the timeline, the list and webhooks name it. */
export const PASSKEY_FAILURE_REASONS = {
  cancelled: 'Cancelled or timed out',
  unsupported: 'Browser without passkeys',
  unknown_credential: 'Unknown credential',
  bad_signature: 'Bad signature',
  wrong_origin: 'Wrong origin',
  counter_regression: 'Counter went backwards',
  invalid_response: 'Malformed response',
  no_passkey: 'No passkey',
  expired: 'Link expired',
  not_delivered: 'SMS not delivered',
} as const;
export type PasskeyFailureReason = keyof typeof PASSKEY_FAILURE_REASONS;

const int = (name: string, min: number, max: number) =>
  v.pipe(
    v.number(`${name} must be a number`),
    v.integer(`${name} must be a whole number`),
    v.minValue(min, `${name} is at least ${min}`),
    v.maxValue(max, `${name} is at most ${max}`),
  );

/** Configuration > General (GET/PUT /api/passkeys/settings/general). */
export const PasskeyGeneralSettingsSchema = v.object({
  userVerification: v.picklist(['required', 'preferred'], 'User verification is required or preferred'),
  attestation: v.picklist(['none', 'direct'], 'Attestation is none or direct'),
  attachment: v.picklist(['any', 'platform', 'cross-platform'], 'Authenticator is any, platform or cross-platform'),
  linkValidityMinutes: int('Link validity', 5, 1440),
});
export type PasskeyGeneralSettings = v.InferOutput<typeof PasskeyGeneralSettingsSchema>;
export const PASSKEY_DEFAULT_SETTINGS: PasskeyGeneralSettings = {
  userVerification: 'preferred',
  attestation: 'none',
  attachment: 'any',
  linkValidityMinutes: 15,
};

export const PASSKEY_TEMPLATES = [
  {
    key: 'enrollment',
    label: 'Enrollment',
    defaultBody: '{{company}}: create a passkey so we can recognise you next time. Open {{link}} (valid {{ttl}} minutes).',
    placeholders: ['link', 'company', 'ttl'] as const,
    required: ['link'] as const,
  },
  {
    key: 'verification',
    label: 'Verification',
    defaultBody: '{{company}}: confirm it is you with your passkey. Open {{link}} (valid {{ttl}} minutes).',
    placeholders: ['link', 'company', 'ttl'] as const,
    required: ['link'] as const,
  },
];

const text = (name: string, max: number) =>
  v.pipe(
    v.string(`${name} is required`),
    v.trim(),
    v.nonEmpty(`${name} is required`),
    v.maxLength(max, `${name} has at most ${max} characters`),
  );
const optionalText = (name: string, max: number) =>
  v.optional(
    v.nullable(v.pipe(v.string(`${name} must be text`), v.trim(), v.maxLength(max, `${name} has at most ${max} characters`))),
  );

/** POST /api/v1/passkeys/enrollments */
export const PasskeyEnrollBodySchema = v.object({
  customerRef: text('customerRef', 200),
  phoneNumber: PhoneNumberSchema,
  /** the name the customer's device shows for the passkey; customerRef when absent */
  displayName: optionalText('displayName', 100),
  agent: optionalText('agent', 200),
  locale: OptionalLocaleSchema,
});
export type PasskeyEnrollBody = v.InferOutput<typeof PasskeyEnrollBodySchema>;

/** POST /api/v1/passkeys/verifications: 409 NO_PASSKEY when the customer has none. */
export const PasskeyVerifyBodySchema = v.object({
  customerRef: text('customerRef', 200),
  phoneNumber: PhoneNumberSchema,
  agent: optionalText('agent', 200),
  locale: OptionalLocaleSchema,
});
export type PasskeyVerifyBody = v.InferOutput<typeof PasskeyVerifyBodySchema>;

/** POST /api/v1/passkeys/{enrollments|verifications}/{id}/cancel: the agent who cancels, if any. */
export const PasskeyCancelBodySchema = v.object({ agent: optionalText('agent', 200) });

export const PasskeyIdParamSchema = v.object({ id: v.pipe(v.string(), v.uuid('id is not a task id')) });

/** An enrollment or verification as /api/v1 answers it. */
export const PasskeyTaskSchema = v.object({
  id: v.string(),
  kind: v.picklist(PASSKEY_TASK_KINDS),
  status: v.picklist(PASSKEY_STATUSES),
  customerRef: v.string(),
  /** masked: +1 •••• •• 4567 */
  phoneNumber: v.string(),
  agent: v.nullable(v.string()),
  createdAt: v.string(),
  expiresAt: v.string(),
  endedAt: v.nullable(v.string()),
  /** failed, expired, not_delivered (and the last cancelled attempt of a started task) */
  failureReason: v.nullable(
    v.picklist(Object.keys(PASSKEY_FAILURE_REASONS) as [PasskeyFailureReason, ...PasskeyFailureReason[]]),
  ),
  /** the credential created (enrollment) or used (verification), shortened per SPEC in the UI */
  credentialId: v.nullable(v.string()),
});
export type PasskeyTask = v.InferOutput<typeof PasskeyTaskSchema>;

// ---------------------------------------------------------------- the customer page's calls

/** POST /api/c/{token}/passkey/options: no body. The answer is the WebAuthn options JSON. */
export const PasskeyCeremonyOptionsSchema = v.object({
  kind: v.picklist(PASSKEY_TASK_KINDS),
  options: v.record(v.string(), v.unknown()),
});

/** POST /api/c/{token}/passkey/verify: the browser's RegistrationResponseJSON or AuthenticationResponseJSON. */
export const PasskeyCeremonyResponseSchema = v.object({
  id: v.pipe(v.string(), v.maxLength(1400)),
  rawId: v.pipe(v.string(), v.maxLength(1400)),
  type: v.literal('public-key'),
  response: v.record(
    v.string(),
    v.union([v.pipe(v.string(), v.maxLength(64_000)), v.array(v.pipe(v.string(), v.maxLength(32))), v.number(), v.null()]),
  ),
  authenticatorAttachment: v.optional(v.nullable(v.string())),
  clientExtensionResults: v.optional(v.record(v.string(), v.unknown())),
});
export type PasskeyCeremonyResponse = v.InferOutput<typeof PasskeyCeremonyResponseSchema>;

/** POST /api/c/{token}/passkey/abandoned: the browser refused or the customer cancelled. */
export const PasskeyCeremonyAbandonedSchema = v.object({ reason: v.picklist(['cancelled', 'unsupported']) });

export const PasskeyCeremonyResultSchema = v.object({
  ok: v.boolean(),
  /** shown to the customer */
  title: v.string(),
  message: v.string(),
  /** the customer may try again with the same link */
  retry: v.boolean(),
});
export type PasskeyCeremonyResult = v.InferOutput<typeof PasskeyCeremonyResultSchema>;

// ---------------------------------------------------------------- Enrollments (console)

export const PasskeyCredentialSchema = v.object({
  id: v.string(),
  customerRef: v.string(),
  displayName: v.string(),
  /** the WebAuthn credential id, base64url (the UI shortens it) */
  credentialId: v.string(),
  aaguid: v.string(),
  /** from the AAGUID list; "Unknown authenticator" for all zeros or an unlisted one */
  authenticator: v.string(),
  /** backup eligible: a synced passkey; otherwise bound to one device */
  synced: v.boolean(),
  backedUp: v.boolean(),
  transports: v.array(v.string()),
  rpId: v.string(),
  createdAt: v.string(),
  lastUsedAt: v.nullable(v.string()),
  signCount: v.number(),
  revokedAt: v.nullable(v.string()),
});
export type PasskeyCredential = v.InferOutput<typeof PasskeyCredentialSchema>;

/** GET /api/passkeys/credentials?q=&revoked=&lastKey= (newest first, 50 a page, x-last-key header) */
export const PasskeyCredentialQuerySchema = v.object({
  q: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(200, 'Search has at most 200 characters'))),
  revoked: v.optional(v.picklist(['true', 'false'], 'revoked is true or false')),
  lastKey: v.optional(v.pipe(v.string(), v.check(isTaskKey, 'lastKey is not a key of this list'))),
});
export type PasskeyCredentialQuery = v.InferOutput<typeof PasskeyCredentialQuerySchema>;
export const PasskeyCredentialListSchema = v.array(PasskeyCredentialSchema);
export const PASSKEY_CREDENTIAL_PAGE = 50;

export const PASSKEY_EVENT_TYPES = ['passkey.enrolled', 'passkey.verified', 'passkey.failed', 'passkey.revoked'] as const;

export const PASSKEY_COLUMNS: TaskColumn[] = [
  { key: 'id', label: 'ID', kind: 'id' },
  { key: 'kind', label: 'Type', kind: 'text' },
  { key: 'customerRef', label: 'Customer', kind: 'text' },
  { key: 'phoneNumber', label: 'Phone', kind: 'phone' },
  { key: 'status', label: 'Status', kind: 'status' },
  { key: 'reason', label: 'Reason', kind: 'text' },
  { key: 'agent', label: 'Agent', kind: 'text' },
  { key: 'createdAt', label: 'Created', kind: 'date' },
  { key: 'endedAt', label: 'Ended', kind: 'date' },
];

export const PASSKEY_ACTIONS: AppAction[] = [
  {
    key: 'enroll',
    label: 'Enroll a passkey',
    description: 'Text the caller a link to create a passkey for next time.',
    needsTask: false,
    fields: [
      { name: 'customerRef', label: 'Customer ID', kind: 'text', required: true },
      { name: 'phoneNumber', label: 'Phone number', kind: 'phone', required: true, placeholder: '+15551234567' },
      { name: 'locale', label: "Caller's language", kind: 'locale', required: false },
      { name: 'displayName', label: 'Name on the passkey', kind: 'text', required: false },
    ],
  },
  {
    key: 'verify',
    label: 'Verify with a passkey',
    description: 'Text the caller a link to confirm it is them with their passkey.',
    needsTask: false,
    fields: [
      { name: 'customerRef', label: 'Customer ID', kind: 'text', required: true },
      { name: 'phoneNumber', label: 'Phone number', kind: 'phone', required: true, placeholder: '+15551234567' },
      { name: 'locale', label: "Caller's language", kind: 'locale', required: false },
    ],
  },
  {
    key: 'cancel',
    label: 'Cancel the link',
    description: 'Cancel the link when the caller no longer needs it: it stops working at once.',
    needsTask: true,
    fields: [],
    secondary: true,
  },
];
