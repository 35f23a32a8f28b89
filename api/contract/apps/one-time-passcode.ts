import * as v from 'valibot';
import { OptionalLocaleSchema } from '../locales';
import { PhoneNumberSchema } from '../sms';
import type { AppAction, TaskColumn } from '../platform';

// The One-Time Passcode app: its settings, its /api/v1 bodies and answers, its webhook events,
// its activity columns and its agent actions.

export const OTP_APP = 'one-time-passcode' as const;

export const OTP_STATUSES = ['pending', 'approved', 'canceled', 'max_attempts_reached', 'expired', 'failed'] as const;
export const OtpStatusSchema = v.picklist(OTP_STATUSES);
export type OtpStatus = v.InferOutput<typeof OtpStatusSchema>;

const int = (name: string, min: number, max: number) =>
  v.pipe(
    v.number(`${name} must be a number`),
    v.integer(`${name} must be a whole number`),
    v.minValue(min, `${name} is at least ${min}`),
    v.maxValue(max, `${name} is at most ${max}`),
  );

/** Configuration > General (GET/PUT /api/one-time-passcode/settings/general). */
export const OtpGeneralSettingsSchema = v.object({
  codeLength: int('Code length', 4, 10),
  validityMinutes: int('Validity', 2, 30),
  maxChecks: int('Check attempts', 1, 20),
  sendsPer10Minutes: int('Sends per 10 minutes', 1, 20),
});
export type OtpGeneralSettings = v.InferOutput<typeof OtpGeneralSettingsSchema>;
export const OTP_DEFAULT_SETTINGS: OtpGeneralSettings = {
  codeLength: 6,
  validityMinutes: 10,
  maxChecks: 5,
  sendsPer10Minutes: 5,
};

export const OTP_TEMPLATES = [
  {
    key: 'passcode',
    label: 'Passcode',
    defaultBody: 'Your {{company}} code is {{code}}. It expires in {{ttl}} minutes. Never share it with anyone.',
    placeholders: ['code', 'company', 'ttl'] as const,
    required: ['code'] as const,
  },
];

const optionalText = (name: string, max: number) =>
  v.optional(
    v.nullable(v.pipe(v.string(`${name} must be text`), v.trim(), v.maxLength(max, `${name} has at most ${max} characters`))),
  );

/** POST /api/v1/otp/send: a resend to a number with a pending verification sends the same code. */
export const OtpSendBodySchema = v.object({
  phoneNumber: PhoneNumberSchema,
  customerRef: optionalText('customerRef', 200),
  agent: optionalText('agent', 200),
  /** the language of the SMS; the account's default when absent */
  locale: OptionalLocaleSchema,
});
export type OtpSendBody = v.InferOutput<typeof OtpSendBodySchema>;

/** POST /api/v1/otp/check */
export const OtpCheckBodySchema = v.object({
  id: v.pipe(v.string('id is required'), v.uuid('id is not a verification id')),
  code: v.pipe(v.string('code is required'), v.trim(), v.regex(/^\d{1,10}$/, 'code is 4 to 10 digits')),
  agent: optionalText('agent', 200),
});
export type OtpCheckBody = v.InferOutput<typeof OtpCheckBodySchema>;

/** POST /api/v1/otp/{id}/cancel (body optional) */
export const OtpCancelBodySchema = v.object({ agent: optionalText('agent', 200) });

export const OtpIdParamSchema = v.object({ id: v.pipe(v.string(), v.uuid('id is not a verification id')) });

/** A verification as /api/v1 answers it. Never the code. */
export const OtpVerificationSchema = v.object({
  id: v.string(),
  status: OtpStatusSchema,
  /** masked: +1 •••• •• 4567 */
  phoneNumber: v.string(),
  customerRef: v.nullable(v.string()),
  agent: v.nullable(v.string()),
  sends: v.number(),
  checks: v.number(),
  /** wrong codes still allowed before the passcode stops working */
  attemptsLeft: v.number(),
  /** ISO 8601 */
  createdAt: v.string(),
  expiresAt: v.string(),
  verifiedAt: v.nullable(v.string()),
  /** failed: the SMS provider's reason */
  failureReason: v.nullable(v.string()),
});
export type OtpVerification = v.InferOutput<typeof OtpVerificationSchema>;

export const OTP_EVENT_TYPES = ['otp.sent', 'otp.verified', 'otp.failed', 'otp.expired'] as const;
export type OtpEventType = (typeof OTP_EVENT_TYPES)[number];

export const OTP_COLUMNS: TaskColumn[] = [
  { key: 'id', label: 'ID', kind: 'id' },
  { key: 'phoneNumber', label: 'Phone', kind: 'phone' },
  { key: 'status', label: 'Status', kind: 'status' },
  { key: 'sends', label: 'Sends', kind: 'number' },
  { key: 'checks', label: 'Checks', kind: 'number' },
  { key: 'agent', label: 'Agent', kind: 'text' },
  { key: 'customerRef', label: 'Customer', kind: 'text' },
  { key: 'createdAt', label: 'Created', kind: 'date' },
  { key: 'endedAt', label: 'Verified or expired at', kind: 'date' },
];

export const OTP_ACTIONS: AppAction[] = [
  {
    key: 'send',
    label: 'Send passcode',
    description: "Text a one-time passcode to the caller's phone.",
    needsTask: false,
    fields: [
      { name: 'phoneNumber', label: 'Phone number', kind: 'phone', required: true, placeholder: '+15551234567' },
      { name: 'locale', label: "Caller's language", kind: 'locale', required: false },
      { name: 'customerRef', label: 'Customer ID', kind: 'text', required: false },
    ],
  },
  {
    key: 'check',
    label: 'Check code',
    description: 'Check the code the caller reads out.',
    needsTask: true,
    fields: [{ name: 'code', label: 'Code', kind: 'code', required: true }],
  },
];

/** OTP dashboard tiles, by key: sent, verified, conversion (percent), credits. */
export const OTP_TILES = ['sent', 'verified', 'conversion', 'credits'] as const;
