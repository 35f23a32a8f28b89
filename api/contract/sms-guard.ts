import * as v from 'valibot';
import { text } from './common';

// The SMS fraud guard's settings (Settings > SMS Configuration): the countries SMS may go to and
// the pumping rules. Documented in docs/sms-guard.md.

const whole = (label: string, min: number, max: number) =>
  v.pipe(
    v.number(`${label} must be a number`),
    v.integer(`${label} must be a whole number`),
    v.minValue(min, `${label} must be at least ${min}`),
    v.maxValue(max, `${label} must be at most ${max}`),
  );

/** The pumping rules: a number range is held when either fires. */
export const SmsGuardRulesSchema = v.object({
  /** volume: sends to the range in the last hour above multiplier × the hourly baseline + allowance */
  volumeMultiplier: v.pipe(
    v.number('Multiplier must be a number'),
    v.minValue(1, 'Multiplier must be at least 1'),
    v.maxValue(1000, 'Multiplier must be at most 1000'),
  ),
  volumeAllowance: whole('Allowance', 1, 100_000),
  /** the baseline: average sends per hour to the range over this many days before the last hour */
  baselineDays: whole('Baseline days', 1, 30),
  /** conversion: of the last `conversionWindow` sends (old enough to have been answered), fewer than this percent answered */
  conversionWindow: whole('Window', 5, 1000),
  conversionMinPercent: whole('Minimum answered', 0, 100),
  /** how long a customer has to answer before a send counts as unanswered */
  conversionGraceSeconds: whole('Grace', 1, 86_400),
  /** how long a hold lasts unless an admin releases it first */
  holdMinutes: whole('Hold', 1, 10_080),
});
export type SmsGuardRules = v.InferOutput<typeof SmsGuardRulesSchema>;

export const SMS_GUARD_DEFAULT_RULES: SmsGuardRules = {
  volumeMultiplier: 5,
  volumeAllowance: 20,
  baselineDays: 7,
  conversionWindow: 30,
  conversionMinPercent: 10,
  conversionGraceSeconds: 300,
  holdMinutes: 60,
};

export const CountryCodeSchema = v.pipe(
  text('A country is an ISO 3166 code'),
  v.regex(/^[A-Z]{2}$/, 'A country is a two-letter ISO 3166 code'),
);

export const SmsGuardSaveBodySchema = v.object({
  allowedCountries: v.pipe(
    v.array(CountryCodeSchema, 'Choose the countries SMS may go to'),
    v.minLength(1, 'Allow at least one country'),
    v.maxLength(300),
  ),
  rules: v.optional(SmsGuardRulesSchema),
  /** whether the pumping rules hold ranges; left out, unchanged */
  pumpingGuard: v.optional(v.boolean('Pumping guard is on or off')),
});
export type SmsGuardSaveBody = v.InferOutput<typeof SmsGuardSaveBodySchema>;

export const SmsHoldSchema = v.object({
  prefix: v.string(),
  country: v.string(),
  heldAt: v.string(),
  heldUntil: v.string(),
  reason: v.string(),
});
export type SmsHold = v.InferOutput<typeof SmsHoldSchema>;

/** GET /sms/guard */
export const SmsGuardSchema = v.object({
  allowedCountries: v.array(v.string()),
  /** true while the account has not chosen: the sender number's country (development outbox: the demo data's) */
  isDefault: v.boolean(),
  rules: SmsGuardRulesSchema,
  /** whether the pumping rules hold ranges: by default on with Twilio, off with the development outbox (nothing is paid) */
  pumpingGuard: v.boolean(),
  /** ranges whose sends are held now */
  holds: v.array(SmsHoldSchema),
  /** every country the server can classify, with its calling code, to choose from */
  countries: v.array(v.object({ code: v.string(), callingCode: v.string() })),
});
export type SmsGuard = v.InferOutput<typeof SmsGuardSchema>;

/** a range (+ and digits), a country held by the spread rules (its ISO code), or the whole account ('all') */
export const SmsReleaseParamSchema = v.object({
  prefix: v.pipe(
    text(),
    v.regex(/^(\+\d{1,8}|[A-Z]{2}|all)$/, 'A hold is a number range (a plus and digits), a country code, or all'),
  ),
});
