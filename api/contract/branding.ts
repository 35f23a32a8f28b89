import * as v from 'valibot';
import { requiredText, text } from './common';
import { BrandingSchema } from './session';

export { BrandingSchema, type Branding } from './session';

/**
 * GET /branding: the branding plus what a custom domain's DNS must hold: a CNAME to the fixed
 * host `cnameTarget`, and a TXT record at `challengeName(domain)` whose value is this account's
 * `domainChallenge` (the proof that the domain is this account's, not merely pointed at us).
 */
export const BrandingSettingsSchema = v.object({
  ...BrandingSchema.entries,
  cnameTarget: v.string(),
  domainChallenge: v.string(),
});
export type BrandingSettings = v.InferOutput<typeof BrandingSettingsSchema>;

/** The largest SVG logo we keep, in bytes of SVG text (before base64). */
export const LOGO_MAX_BYTES = 256 * 1024;
/** The same cap as base64 characters: what travels in the JSON body. */
export const LOGO_MAX_BASE64 = Math.ceil(LOGO_MAX_BYTES / 3) * 4;

/** Brand colour: hex, at most 7 characters ('#' and six digits, or the three-digit form), uppercased. */
export const BRAND_COLOR_PATTERN = /^#(?:[0-9A-F]{3}|[0-9A-F]{6})$/;
export const BrandColorSchema = v.pipe(
  text('The brand color must be a hex color such as #2563EB'),
  v.trim(),
  v.toUpperCase(),
  v.maxLength(7, 'The brand color has at most 7 characters'),
  v.regex(BRAND_COLOR_PATTERN, 'The brand color must be a hex color such as #2563EB'),
);

/** PUT /branding. `logo` is the SVG text base64-encoded, or '' for no logo. */
export const BrandingUpdateSchema = v.object({
  name: requiredText('Company name is required', 200, 'The company name has at most 200 characters'),
  logo: v.pipe(
    text('The logo must be base64-encoded SVG'),
    v.maxLength(LOGO_MAX_BASE64, `The logo is larger than ${LOGO_MAX_BYTES / 1024} KB`),
    v.regex(/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/, 'The logo must be base64-encoded SVG'),
  ),
  color: BrandColorSchema,
});
export type BrandingUpdate = v.InferOutput<typeof BrandingUpdateSchema>;

/**
 * A custom domain: lowercase labels separated by dots or hyphens, ending in a 2-5 letter
 * top-level label (SPEC section 5). The UI enables the verify button on the same rule.
 */
export const DOMAIN_PATTERN = /^[a-z0-9]+(?:[.-][a-z0-9]+)*\.[a-z]{2,5}$/;
export const DomainNameSchema = v.pipe(
  text('Enter a domain such as console.example.com'),
  v.trim(),
  v.maxLength(253, 'A domain has at most 253 characters'),
  v.regex(DOMAIN_PATTERN, 'Enter a domain such as console.example.com'),
  v.check(
    (value) => value.split('.').every((label) => label.length <= 63),
    'Each part of a domain between dots has at most 63 characters',
  ),
);
export const isValidDomain = (value: string) =>
  value.length <= 253 && DOMAIN_PATTERN.test(value) && value.split('.').every((label) => label.length <= 63);

/** PUT /branding/domain: claim and verify a domain; null removes the custom domain. */
export const DomainUpdateSchema = v.object({ domain: v.nullable(DomainNameSchema) });
export type DomainUpdate = v.InferOutput<typeof DomainUpdateSchema>;

/** Where the ownership TXT record of a custom domain lives. */
export const CHALLENGE_LABEL = '_switchboard-challenge';
export const challengeName = (domain: string) => `${CHALLENGE_LABEL}.${domain}`;

/**
 * Error codes of PUT /branding/domain and what the console says for them. DNS_INVALID carries
 * `fields` naming the record(s) not found yet (`cname`, `txt`), so the console can say which.
 */
export const DNS_INVALID = 'DNS_INVALID';
export const DNS_INVALID_MESSAGE = "DNS settings are invalid or haven't propagated yet";
export const DNS_CHECK_FAILED = 'DNS_CHECK_FAILED';
export const DNS_CHECK_FAILED_MESSAGE = 'An error occurred while verifying the DNS settings';
export const DOMAIN_TAKEN = 'DOMAIN_TAKEN';

/** How often the console re-checks a domain that is not verified yet. */
export const DOMAIN_RECHECK_SECONDS = 10;
