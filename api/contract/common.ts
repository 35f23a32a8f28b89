import * as v from 'valibot';
import { APP_IDS } from './apps';

export const AppIdSchema = v.picklist(APP_IDS);

export const ROLES = ['owner', 'admin', 'supervisor'] as const;
export const RoleSchema = v.picklist(ROLES);
export type Role = v.InferOutput<typeof RoleSchema>;

/** Roles that can be given to someone: the owner is never assigned, only created with the account. */
export const AssignableRoleSchema = v.picklist(['admin', 'supervisor']);
export type AssignableRole = v.InferOutput<typeof AssignableRoleSchema>;

export const BILLING_STATUSES = ['inactive', 'free-trial', 'subscription', 'enterprise', 'cancelled'] as const;
export const BillingStatusSchema = v.picklist(BILLING_STATUSES);
export type BillingStatus = v.InferOutput<typeof BillingStatusSchema>;

export const PLATFORMS = ['azure', 'google', 'webex', 'zoom', 'okta', 'oidc'] as const;
export const PlatformSchema = v.picklist(PLATFORMS);
export type Platform = v.InferOutput<typeof PlatformSchema>;

/**
 * NUL cannot be stored (PostgreSQL text refuses it) and a lone surrogate is not text at all (it
 * has no UTF-8 form): either one reaching the database would be a 500, or a CSV export cut off.
 */
const BAD_TEXT = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
export const TEXT_MESSAGE = 'Text may not contain NUL characters or unpaired surrogates';
export const isStorableText = (s: string) => !BAD_TEXT.test(s);

/**
 * Every text field of every request: a string without NUL or lone surrogates. `message` is the
 * message for a missing or non-string value, so a missing required field reads like an empty one.
 */
export const text = (message?: string) => v.pipe(v.string(message), v.check(isStorableText, TEXT_MESSAGE));

/**
 * The mark of a key the contract requires although valibot reads it missing as '' (presentText):
 * the OpenAPI generator (api/apps/platform/v1-routes.ts) lists the key as required and drops the
 * '' default, which the field's own checks refuse anyway.
 */
export const SENT_KEY = 'x-switchboard-sent';

/**
 * A text field that must be sent but may be judged like an empty one when it is missing: valibot
 * reports a missing object key with the object's generic message ('Invalid key: …'), so the key is
 * made optional with '' and the field's own checks answer with its SPEC message. Every use follows
 * it with a check that refuses '' (so the key is required in the contract: SENT_KEY).
 */
export const presentText = (message: string) => v.optional(v.pipe(text(message), v.metadata({ [SENT_KEY]: true })), '');

/** One way of giving an either/or body: these keys present, those absent. */
export type FieldsBranch = { required: readonly string[]; absent: readonly string[] };

/**
 * A body where exactly one of the branches fits (e.g. a product, or an amount with its
 * description): the server's check answers `message` on `field`, and the OpenAPI document says the
 * same as `oneOf` (each branch's required keys, and its absent ones as `false` schemas, which a
 * typed client reads as "never"): a body with both, or with neither, does not type-check.
 */
export function exactlyOneOf<S extends v.ObjectSchema<v.ObjectEntries, v.ErrorMessage<v.ObjectIssue> | undefined>>(
  schema: S,
  branches: readonly FieldsBranch[],
  message: string,
  field: keyof v.InferOutput<S> & string,
) {
  const fits = (body: Record<string, unknown>, b: FieldsBranch) =>
    b.required.every((k) => body[k] !== undefined) && b.absent.every((k) => body[k] === undefined);
  return v.pipe(
    schema,
    v.forward(
      v.check((body) => branches.filter((b) => fits(body as Record<string, unknown>, b)).length === 1, message),
      [field] as never,
    ),
    // a required key is named in the branch's properties too ({}: its schema is the object's), or
    // code generators drop the branch's `required`
    v.metadata({
      oneOf: branches.map((b) => ({
        required: [...b.required],
        properties: Object.fromEntries([...b.required.map((k) => [k, {}]), ...b.absent.map((k) => [k, false])]),
      })),
    }),
  );
}

/** A required text field: the same message when missing, blank or only spaces. */
export const requiredText = (message: string, max = 500, tooLong = 'This value is too long') =>
  v.pipe(presentText(message), v.trim(), v.nonEmpty(message), v.maxLength(max, tooLong));

// RFC 5321 dot-atom local part (letters, digits and ! # $ % & ' * + - / = ? ^ _ ` { | } ~, dots
// between them), at most 64 characters; a domain of LDH labels whose top label is letters or an
// IDN in punycode (xn--…). Quoted local parts and address literals are refused: no mail system
// an admin signs in with hands them out.
const LOCAL_PART = /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/i;
const DOMAIN = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+([a-z]{2,63}|xn--[a-z0-9-]{1,59})$/i;
export const EMAIL_MESSAGE = 'Please provide a valid email address';
/** An empty address is missing, not wrong. */
export const EMAIL_REQUIRED_MESSAGE = 'E-mail address is required';

export function isEmailAddress(address: string): boolean {
  const at = address.lastIndexOf('@');
  if (at < 1 || address.length > 254) return false;
  const local = address.slice(0, at);
  return local.length <= 64 && LOCAL_PART.test(local) && DOMAIN.test(address.slice(at + 1));
}

// Checked before trimming: an address with a line break or control character around it is not
// that address with the character removed (RFC 5321 has no such characters), it is refused.
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
export const EMAIL_CONTROL_MESSAGE = 'An e-mail address cannot contain line breaks or other control characters';
export const EMAIL_QUOTED_MESSAGE =
  'E-mail addresses with a quoted part ("…"@example.com) are not supported: the sign-in providers and SMS senders we pass them to do not carry them';
export const EMAIL_NON_ASCII_MESSAGE =
  'E-mail addresses with non-ASCII characters (RFC 6531) are not supported yet: the sign-in providers we match them with use ASCII addresses. Use the ASCII form of the domain (xn--…) or another address';

/** Why an address that is not accepted is refused, when there is a more precise reason. */
function emailReason(address: string): string | null {
  if (address.trim().startsWith('"')) return EMAIL_QUOTED_MESSAGE;
  // eslint-disable-next-line no-control-regex
  if (/[^\x00-\x7f]/.test(address)) return EMAIL_NON_ASCII_MESSAGE;
  return null;
}

/** The one e-mail address rule: invitations, sign-in, SSO sign-in, identity provider claims. */
export const EmailSchema = v.pipe(
  presentText(EMAIL_MESSAGE),
  v.check((value) => !CONTROL.test(value), EMAIL_CONTROL_MESSAGE),
  v.check((value) => emailReason(value) !== EMAIL_QUOTED_MESSAGE, EMAIL_QUOTED_MESSAGE),
  v.check((value) => emailReason(value) !== EMAIL_NON_ASCII_MESSAGE, EMAIL_NON_ASCII_MESSAGE),
  v.trim(),
  v.nonEmpty(EMAIL_REQUIRED_MESSAGE),
  v.toLowerCase(),
  v.check(isEmailAddress, EMAIL_MESSAGE),
);

/** True for an absolute http(s) URL with a host; the scheme is case-insensitive (HTTPS://). */
export function urlScheme(value: string): 'https' | 'http' | null {
  try {
    const url = new URL(value);
    if (!url.hostname) return null;
    return url.protocol === 'https:' ? 'https' : url.protocol === 'http:' ? 'http' : null;
  } catch {
    return null;
  }
}

/**
 * The one URL rule: a required URL (`required` when missing or blank, `invalid` when not a URL)
 * that must be https unless `allowHttp`; `HTTPS://` counts as https.
 */
export const urlSchema = (
  messages: { required: string; invalid: string; https: string },
  options: { allowHttp?: boolean; max?: number } = {},
) =>
  v.pipe(
    requiredText(messages.required, options.max ?? 2000, 'URL is too long'),
    v.check((s) => urlScheme(s) !== null, messages.invalid),
    v.check((s) => options.allowHttp || urlScheme(s) === 'https', messages.https),
  );

/**
 * Every error answer of the API. `fields` names the failing inputs of a 400; `requestId` is the
 * answer's X-Request-Id, for support to find the request in the server's log.
 */
export const ErrorBodySchema = v.object({
  code: v.string(),
  message: v.string(),
  fields: v.optional(v.record(v.string(), v.string())),
  requestId: v.string(),
});
export type ErrorBody = v.InferOutput<typeof ErrorBodySchema>;

export { TIME_ZONE_HEADER } from './constants';
