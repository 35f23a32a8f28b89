import { HOST_ERRORS, type ZoomLoginAnswer } from '../contract/hosts';
import type { TokenAnswer } from '../contract/session';
import type { OidcClientSettings } from '../config';
import type { Session } from '../auth/context';
import { endSession } from '../auth/sessions';
import type { Deps } from '../deps';
import { ApiError } from '../http/errors';
import { hostSignIn } from '../identity/agent-sign-in';
import { discover } from './oidc';
import { verifyWebexToken, webexKeysFor } from './webex';
import { verifyZoomContext, zoomApiFor } from './zoom';

// Sign-in and sign-out: the steps that do not depend on the browser's cookies (those are in
// ./flows.ts, driven by ./routes.ts).

export const SIGN_IN_PROVIDERS = ['google', 'azure'] as const;
export type SignInProvider = (typeof SIGN_IN_PROVIDERS)[number];
export const isSignInProvider = (p: string): p is SignInProvider => (SIGN_IN_PROVIDERS as readonly string[]).includes(p);

export async function discoverOrFail(deps: Deps, settings: OidcClientSettings) {
  try {
    return await discover(deps, settings);
  } catch (err) {
    deps.log(`OpenID Connect discovery failed for ${settings.issuer}`, err);
    throw new ApiError(502, 'IDP_UNREACHABLE', 'The identity provider could not be reached. Please try again later.');
  }
}

export function providerSettings(deps: Deps, provider: SignInProvider): OidcClientSettings {
  const settings = deps.config.signIn[provider];
  if (!settings)
    throw new ApiError(
      404,
      'PROVIDER_NOT_CONFIGURED',
      `Sign-in with ${provider === 'google' ? 'Google' : 'Microsoft'} is not configured on this server.`,
    );
  return settings;
}

const zoomNotConfigured = () =>
  new ApiError(503, HOST_ERRORS.ZOOM_NOT_CONFIGURED, 'Sign-in from Zoom is not set up on this server.');

/** The Zoom app signs in with its encrypted app context (no session yet). */
export async function signInWithZoom(deps: Deps, context: string, timeZone?: string): Promise<ZoomLoginAnswer> {
  const zoom = deps.config.zoom;
  if (!zoom.clientId || !zoom.clientSecret) throw zoomNotConfigured();
  const ctx = verifyZoomContext(context, zoom, deps.now());
  if (!zoom.accountId || !zoom.apiClientId || !zoom.apiClientSecret) throw zoomNotConfigured();
  const user = await zoomApiFor(zoom).user(ctx.uid, deps.now());
  // An unconfirmed address proves nothing about who owns it: never sign it in as that admin.
  if (user.verified === 0 || (user.status !== undefined && user.status !== 'active')) {
    throw new ApiError(
      403,
      HOST_ERRORS.ZOOM_USER_UNVERIFIED,
      'Please confirm your e-mail address with Zoom, then reopen the app.',
    );
  }
  // non-admins of an account that proved the e-mail's domain get an agent session
  return hostSignIn(deps, {
    email: user.email,
    firstName: user.first_name,
    lastName: user.last_name,
    platform: 'zoom',
    timeZone,
  });
}

/** The Webex embedded app signs in with the user's JWT from the SDK (no session yet). */
export async function signInWithWebex(deps: Deps, accessToken: string, timeZone?: string): Promise<TokenAnswer> {
  const webex = deps.config.webex;
  if (!webex.appId) throw new ApiError(503, HOST_ERRORS.WEBEX_NOT_CONFIGURED, 'Sign-in from Webex is not set up on this server.');
  const identity = await verifyWebexToken(accessToken, webex, webexKeysFor(webex), deps.now());
  // non-admins of an account that proved the e-mail's domain get an agent session
  const { token } = await hostSignIn(deps, { ...identity, platform: 'webex', timeZone });
  return { token };
}

/** Ends the caller's session on the server: its token stops working at once. */
export async function signOut(deps: Deps, session: Session): Promise<void> {
  await deps.db.tenant(session.accountId, (trx) => endSession(trx, session.id, 'sign-out'));
}
