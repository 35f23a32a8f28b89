import * as v from 'valibot';
import { presentText } from './common';
import { keptSecret, requiredSecret } from './secret-text';

/** E.164: a plus, then 1-9, then 1-14 digits. */
export const E164_PATTERN = /^\+[1-9]\d{1,14}$/;
/** SPEC's words for the Twilio sender number (Settings > SMS Configuration). */
export const E164_MESSAGE = 'Phone number must be in e164 format (with leading + and country code)';

// A customer's number as people type it: spaces, dots, dashes and brackets between the digits are
// taken out (+44 20 7946 0018 is +442079460018), then it must be E.164. The messages say what to
// type, not the name of a standard.
export const PHONE_REQUIRED_MESSAGE = 'Phone number is required';
export const PHONE_MESSAGE = 'Enter the number with its country code, e.g. +44 20 7946 0018';
export const compactPhone = (typed: string) => typed.replace(/[\s().-]/g, '');
export const isPhoneNumber = (typed: string) => E164_PATTERN.test(compactPhone(typed.trim()));

export const PhoneNumberSchema = v.pipe(
  presentText(PHONE_REQUIRED_MESSAGE),
  v.trim(),
  v.nonEmpty(PHONE_REQUIRED_MESSAGE),
  v.transform(compactPhone),
  v.regex(E164_PATTERN, PHONE_MESSAGE),
);
/** Twilio's own sender number, with SPEC's message. */
export const TwilioPhoneNumberSchema = v.pipe(presentText(E164_MESSAGE), v.trim(), v.regex(E164_PATTERN, E164_MESSAGE));

const required = (message: string) => requiredSecret(message, 200);

/** Blank keeps the stored token: a connected Twilio is managed without typing the token again. */
const keptToken = (message: string) => keptSecret(message, 200);

/**
 * Twilio's settings. `connected` says whether Twilio is already configured for the account: then
 * the auth token is optional (blank keeps the stored one); on a first connect it is required.
 */
export function twilioSettingsSchema(connected: boolean) {
  return v.object({
    accountSid: required('Account SID is required'),
    authToken: connected ? keptToken('Auth Token is required') : required('Auth Token is required'),
    phoneNumber: TwilioPhoneNumberSchema,
  });
}
export const TwilioSettingsSchema = twilioSettingsSchema(false);
export type TwilioSettings = v.InferOutput<typeof TwilioSettingsSchema>;

export const SMS_PROVIDERS = ['twilio', 'cisco', 'zoom'] as const;

/**
 * The development outbox: messages are stored, not sent, and listed at GET /api/dev/sms-outbox.
 * Offered only outside production (GET /sms says so in `devOutboxAvailable`); POST /sms with it
 * in production answers 400.
 */
export const DEV_OUTBOX_PROVIDER = 'dev-outbox' as const;
export const DevOutboxSaveBodySchema = v.object({ provider: v.literal(DEV_OUTBOX_PROVIDER) });

/** POST /sms: only Twilio can be configured by the account itself (see twilioSettingsSchema). */
export function smsSaveBodySchema(connected: boolean) {
  return v.object({
    provider: v.literal('twilio', 'Only Twilio can be configured'),
    // Left out, the settings read as empty: each field answers its own message.
    twilio: v.optional(twilioSettingsSchema(connected), {}),
  });
}
/** A first connect: every field required. */
export const SmsSaveBodySchema = smsSaveBodySchema(false);
/** Managing a configured Twilio: a blank auth token keeps the stored one. */
export const SmsManageBodySchema = smsSaveBodySchema(true);
export type SmsSaveBody = v.InferOutput<typeof SmsManageBodySchema>;

/** GET /sms and the answer of POST /sms: never the auth token. */
export const SmsSettingsSchema = v.object({
  provider: v.nullable(v.picklist(['twilio', DEV_OUTBOX_PROVIDER])),
  twilio: v.optional(v.object({ accountSid: v.string(), phoneNumber: v.string() })),
  /** true outside production: the "Development outbox" card may be offered */
  devOutboxAvailable: v.optional(v.boolean()),
});
export type SmsSettings = v.InferOutput<typeof SmsSettingsSchema>;
