import { Hono, type Context } from 'hono';
import * as v from 'valibot';
import { readTimeZone, type AppEnv } from '../auth/context';
import { TIME_ZONE_HEADER } from '../contract/common';
import { validate } from '../http/validate';
import { ApiError } from '../http/errors';
import {
  OAuthCallbackBodySchema,
  SsoAuthorizeBodySchema,
  SsoCallbackBodySchema,
  type OAuthCallbackBody,
} from '../contract/sign-in';
import type { TokenAnswer } from '../contract/session';
import { authorizationUrl, finishAuthorization, type CallbackParams } from './oidc';
import { consumeFlow, redirectUriFor, saveFlow } from './flows';
import { assertNotRateLimited, clientAddress, recordFailure } from './rate-limit';
import { emailDomain, resolveVerifiedEmail } from './resolve';
import { resolveSsoAdmin, ssoClient, ssoForAccount, ssoForDomain, SSO_NOT_CONFIGURED_MESSAGE } from './sso';
import { issueSessionToken } from '../auth/sessions';
import { issueAgentToken } from '../identity/agent-sign-in';
import {
  discoverOrFail,
  isSignInProvider,
  providerSettings,
  signInWithWebex,
  signInWithZoom,
  signOut,
  type SignInProvider,
} from './service';
import { WebexAuthenticateBodySchema, ZoomContextBodySchema } from '../contract/hosts';

// Every way into the console through an identity provider: Google-type (code posted back by the
// sign-in page), Microsoft-type (our own callback), and single sign-on by e-mail domain.

/**
 * Runs a returning sign-in under the failure counters: refused early when the address (or, once
 * known, the e-mail) has failed too often; every refusal counts against both.
 */
async function guarded(c: Context<AppEnv>, run: (onEmail: (email: string) => Promise<void>) => Promise<string>): Promise<string> {
  const deps = c.var.deps;
  const address = clientAddress(c, deps.config.trustProxyHops);
  await assertNotRateLimited(deps, { address });
  let email: string | undefined;
  try {
    return await run(async (known) => {
      email = known;
      await assertNotRateLimited(deps, { address, email });
    });
  } catch (err) {
    if (err instanceof ApiError && err.status >= 400 && err.status < 500 && err.status !== 429)
      await recordFailure(deps, { address, email });
    throw err;
  }
}

async function providerSignIn(c: Context<AppEnv>, provider: SignInProvider, params: CallbackParams): Promise<string> {
  const deps = c.var.deps;
  return guarded(c, async (onEmail) => {
    const flow = await consumeFlow(c, deps, provider, params.state);
    const oidc = await discoverOrFail(deps, providerSettings(deps, provider));
    const who = await finishAuthorization(deps, oidc, redirectUriFor(deps.config.publicUrl, provider), params, {
      ...flow,
      state: params.state,
    });
    await onEmail(who.email);
    // the posted return (Google-type) names the browser's zone in its header; a redirect, only the flow
    const timeZone = c.req.header(TIME_ZONE_HEADER) ? c.var.timeZone : flow.timeZone;
    const { admin } = await resolveVerifiedEmail(deps, {
      email: who.email,
      firstName: who.firstName,
      lastName: who.lastName,
      platform: provider,
      timeZone,
    });
    return issueSessionToken(deps, admin);
  });
}

/** A browser page's address on the console with a message for the sign-in page to show. */
function errorLocation(path: string, code: string, message: string): string {
  return `${path}?${new URLSearchParams({ error: code, error_description: message })}`;
}

export const signInRoutes = new Hono<AppEnv>();

/** The sign-in buttons: off to the provider with a fresh state, nonce and PKCE challenge. */
signInRoutes.get('/auth/:provider/start', async (c) => {
  const deps = c.var.deps;
  const provider = c.req.param('provider');
  if (!isSignInProvider(provider)) throw new ApiError(404, 'NOT_FOUND', 'There is nothing at this address.');
  const signup = c.req.query('signup') === '1';
  const back = signup ? '/sign-up' : '/';
  try {
    const oidc = await discoverOrFail(deps, providerSettings(deps, provider));
    const start = await authorizationUrl(oidc, redirectUriFor(deps.config.publicUrl, provider));
    // the browser's zone, as the sign-in button names it (a new account starts in it)
    const zone = c.req.query('timeZone');
    const timeZone = zone && readTimeZone(zone) === zone ? zone : undefined;
    await saveFlow(c, deps, {
      kind: provider,
      accountId: null,
      state: start.state,
      nonce: start.nonce,
      codeVerifier: start.codeVerifier,
      signup,
      timeZone,
    });
    return c.redirect(start.url, 302);
  } catch (err) {
    if (err instanceof ApiError) return c.redirect(errorLocation(back, err.code, err.message), 302);
    throw err;
  }
});

/** The Microsoft-type provider returns here; the browser lands on the console with its token. */
signInRoutes.get('/auth/azure/callback', async (c) => {
  const q = c.req.query();
  if (q.error) {
    const description = (q.error_description ?? '').slice(0, 300) || 'The identity provider did not sign you in.';
    return c.redirect(errorLocation('/', q.error.slice(0, 100), description), 302);
  }
  // The same contract as the posted callback: a NUL in the state must not reach the database.
  const params = v.safeParse(SsoCallbackBodySchema, { code: q.code, state: q.state, iss: q.iss });
  if (!params.success)
    return c.redirect(errorLocation('/', 'SIGN_IN_FAILED', 'The identity provider did not return a sign-in code.'), 302);
  try {
    const token = await providerSignIn(c, 'azure', params.output);
    return c.redirect(`/?token=${encodeURIComponent(token)}`, 302);
  } catch (err) {
    if (err instanceof ApiError) return c.redirect(errorLocation('/', err.code, err.message), 302);
    throw err;
  }
});

/** The Google-type return: the sign-in page posts what the provider sent back to `/`. */
signInRoutes.post('/oauth/:provider/callback', validate('json', OAuthCallbackBodySchema), async (c) => {
  const provider = c.req.param('provider');
  if (!isSignInProvider(provider)) throw new ApiError(404, 'NOT_FOUND', 'There is nothing at this address.');
  const body: OAuthCallbackBody = c.req.valid('json');
  const token = await providerSignIn(c, provider, body);
  return c.json({ token } satisfies TokenAnswer);
});

/** Single sign-on, step one: the identity provider of the account that owns the e-mail's domain. */
signInRoutes.post('/sso/oauth/authorize', validate('json', SsoAuthorizeBodySchema), async (c) => {
  const deps = c.var.deps;
  const { email } = c.req.valid('json');
  const address = clientAddress(c, deps.config.trustProxyHops);
  await assertNotRateLimited(deps, { address, email });
  const row = await ssoForDomain(deps, emailDomain(email));
  if (!row) {
    // Probing domains for SSO counts as failing: it is how one would map our customers.
    await recordFailure(deps, { address });
    throw new ApiError(404, 'SSO_NOT_CONFIGURED', SSO_NOT_CONFIGURED_MESSAGE, { email: SSO_NOT_CONFIGURED_MESSAGE });
  }
  const oidc = await discoverOrFail(deps, ssoClient(deps, row));
  const start = await authorizationUrl(oidc, redirectUriFor(deps.config.publicUrl, 'sso'), { login_hint: email });
  await saveFlow(c, deps, {
    kind: 'sso',
    accountId: row.account_id,
    state: start.state,
    nonce: start.nonce,
    codeVerifier: start.codeVerifier,
    signup: false,
  });
  return c.json({ url: start.url });
});

/** Single sign-on, step two: /sso/callback posts what the provider sent back. */
signInRoutes.post('/sso/oauth/callback', validate('json', SsoCallbackBodySchema), async (c) => {
  const deps = c.var.deps;
  const params = c.req.valid('json');
  const token = await guarded(c, async (onEmail) => {
    const flow = await consumeFlow(c, deps, 'sso', params.state);
    const row = flow.accountId ? await ssoForAccount(deps, flow.accountId) : undefined;
    // the domain may have changed (and so lost its proof) since the sign-in started
    if (!row || !row.domain_verified_at) throw new ApiError(404, 'SSO_NOT_CONFIGURED', SSO_NOT_CONFIGURED_MESSAGE);
    const oidc = await discoverOrFail(deps, ssoClient(deps, row));
    const who = await finishAuthorization(deps, oidc, redirectUriFor(deps.config.publicUrl, 'sso'), params, {
      ...flow,
      state: params.state,
    });
    await onEmail(who.email);
    const entry = await resolveSsoAdmin(deps, row, who);
    return 'admin' in entry ? issueSessionToken(deps, entry.admin) : issueAgentToken(deps, entry.agentOf, who.email);
  });
  return c.json({ token } satisfies TokenAnswer);
});

/** Public: the Zoom app signs in with its encrypted app context (no session yet). */
export const zoomRoutes = new Hono<AppEnv>().post('/zoom/context', validate('json', ZoomContextBodySchema), async (c) =>
  c.json(await signInWithZoom(c.var.deps, c.req.valid('json').context, c.var.timeZone)),
);

/** Public: the Webex embedded app signs in with the user's JWT from the SDK (no session yet). */
export const webexRoutes = new Hono<AppEnv>().post(
  '/webex/authenticate',
  validate('json', WebexAuthenticateBodySchema),
  async (c) => c.json(await signInWithWebex(c.var.deps, c.req.valid('json').accessToken, c.var.timeZone)),
);

/** POST /sign-out ends the caller's session on the server: its token stops working at once. */
export const signOutRoutes = new Hono<AppEnv>().post('/sign-out', async (c) => {
  await signOut(c.var.deps, c.var.session);
  return c.body(null, 204);
});
