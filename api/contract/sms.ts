import * as v from 'valibot';

/** E.164: a plus, then 1-9, then 1-14 digits. */
export const E164_PATTERN = /^\+[1-9]\d{1,14}$/;
export const E164_MESSAGE = 'Phone number must be in e164 format (with leading + and country code)';

export const PhoneNumberSchema = v.pipe(v.string(), v.trim(), v.regex(E164_PATTERN, E164_MESSAGE));

const required = (message: string) => v.pipe(v.string(message), v.trim(), v.nonEmpty(message), v.maxLength(200, 'This value is too long'));

export const TwilioSettingsSchema = v.object({
  accountSid: required('Account SID is required'),
  authToken: required('Auth Token is required'),
  phoneNumber: PhoneNumberSchema,
});
export type TwilioSettings = v.InferOutput<typeof TwilioSettingsSchema>;

export const SMS_PROVIDERS = ['twilio', 'cisco', 'zoom'] as const;

/** POST /sms: only Twilio can be configured by the account itself. */
export const SmsSaveBodySchema = v.object({
  provider: v.literal('twilio', 'Only Twilio can be configured'),
  twilio: TwilioSettingsSchema,
});
export type SmsSaveBody = v.InferOutput<typeof SmsSaveBodySchema>;

/** GET /sms and the answer of POST /sms: never the auth token. */
export const SmsSettingsSchema = v.object({
  provider: v.nullable(v.literal('twilio')),
  twilio: v.optional(v.object({ accountSid: v.string(), phoneNumber: v.string() })),
});
export type SmsSettings = v.InferOutput<typeof SmsSettingsSchema>;
