import * as v from 'valibot';
import { RoleSchema, text } from './common';

// Sign-in from the embedded desktop hosts (Zoom, Webex): the host SDK hands the UI a credential,
// the API verifies it and answers a session token.

/** POST /zoom/context: the encrypted app context from the Zoom Apps SDK's getAppContext(). */
export const ZoomContextBodySchema = v.object({
  context: v.pipe(
    text('The Zoom app context is required'),
    v.minLength(1, 'The Zoom app context is required'),
    v.maxLength(8192, 'The Zoom app context is too long'),
  ),
});
export type ZoomContextBody = v.InferOutput<typeof ZoomContextBodySchema>;

/** The Zoom sign-in also answers the role: a non-admin gets the 'not yet authorized' card. */
/** role 'agent': a non-admin of an account that proved the user's e-mail domain (agent actions only) */
export const ZoomLoginAnswerSchema = v.object({ token: v.string(), role: v.union([RoleSchema, v.literal('agent')]) });
export type ZoomLoginAnswer = v.InferOutput<typeof ZoomLoginAnswerSchema>;

/** POST /webex/authenticate: the user's JWT from the Webex embedded-app SDK; answers TokenAnswerSchema. */
export const WebexAuthenticateBodySchema = v.object({
  accessToken: v.pipe(
    text('The Webex token is required'),
    v.minLength(1, 'The Webex token is required'),
    v.maxLength(16384, 'The Webex token is too long'),
  ),
});
export type WebexAuthenticateBody = v.InferOutput<typeof WebexAuthenticateBodySchema>;

/** Error codes of the host sign-ins; ACCOUNT_EXISTS (api/contract/sign-in.ts) may come back too. */
export const HOST_ERRORS = {
  ZOOM_NOT_CONFIGURED: 'ZOOM_NOT_CONFIGURED',
  ZOOM_CONTEXT_INVALID: 'ZOOM_CONTEXT_INVALID',
  ZOOM_CONTEXT_EXPIRED: 'ZOOM_CONTEXT_EXPIRED',
  ZOOM_GUEST: 'ZOOM_GUEST',
  ZOOM_USER_UNVERIFIED: 'ZOOM_USER_UNVERIFIED',
  ZOOM_UNAVAILABLE: 'ZOOM_UNAVAILABLE',
  WEBEX_NOT_CONFIGURED: 'WEBEX_NOT_CONFIGURED',
  WEBEX_TOKEN_INVALID: 'WEBEX_TOKEN_INVALID',
  WEBEX_TOKEN_EXPIRED: 'WEBEX_TOKEN_EXPIRED',
  WEBEX_ISSUER_NOT_ALLOWED: 'WEBEX_ISSUER_NOT_ALLOWED',
  WEBEX_UNAVAILABLE: 'WEBEX_UNAVAILABLE',
} as const;
