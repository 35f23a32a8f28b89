import * as v from 'valibot';
import { EmailSchema, text } from './common';

// Added by the UI shell work for the sign-in screens; the identity work implements the routes.

/** Where the browser goes to start a provider sign-in; `?signup=1` starts a sign-up instead. */
export const SIGN_IN_START_PATHS = {
  google: '/api/auth/google/start',
  azure: '/api/auth/azure/start',
} as const;
export type SignInProvider = keyof typeof SIGN_IN_START_PATHS;

/** POST /sso/oauth/authorize: which account's SSO to use, found by the e-mail's domain. */
export const SsoAuthorizeBodySchema = v.object({ email: EmailSchema });
export type SsoAuthorizeBody = v.InferOutput<typeof SsoAuthorizeBodySchema>;

/** The identity provider's authorize URL the browser is sent to. */
export const SsoAuthorizeAnswerSchema = v.object({ url: v.pipe(v.string(), v.url()) });
export type SsoAuthorizeAnswer = v.InferOutput<typeof SsoAuthorizeAnswerSchema>;

/**
 * POST /sso/oauth/callback: what the identity provider sent back; answers TokenAnswerSchema.
 * `iss` is the provider's RFC 9207 issuer parameter, passed on when the return URL carries it.
 */
export const SsoCallbackBodySchema = v.object({
  code: v.pipe(text(), v.minLength(1), v.maxLength(4096)),
  state: v.pipe(text(), v.minLength(1), v.maxLength(512)),
  iss: v.optional(v.pipe(text(), v.maxLength(2000))),
});
export type SsoCallbackBody = v.InferOutput<typeof SsoCallbackBodySchema>;

/**
 * POST /oauth/{provider}/callback (Google-type return): the code plus the state and issuer the
 * provider sent back to `/`; the state must be the one this browser started. Answers a token.
 */
export const OAuthCallbackBodySchema = SsoCallbackBodySchema;
export type OAuthCallbackBody = v.InferOutput<typeof OAuthCallbackBodySchema>;

/** Where the Google-type provider sends the browser back: the sign-in page at the root. */
export const GOOGLE_RETURN_PATH = '/';

export const SSO_NOT_CONFIGURED = 'SSO_NOT_CONFIGURED';
export const ADMIN_NOT_FOUND = 'ADMIN_NOT_FOUND';
export { ACCOUNT_EXISTS } from './constants';
