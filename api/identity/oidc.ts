import type * as client from 'openid-client';
import type { Deps, OidcFetch } from '../deps';
import type { Config, OidcClientSettings } from '../config';
import { OutboundError, outboundFetch, outboundPolicy } from '../integrations/outbound';
import { ApiError } from '../http/errors';

// The one OpenID Connect client path every sign-in uses (Google-type, Microsoft-type, SSO):
// discovery, authorization code with PKCE, state and nonce, and the ID token's issuer, audience,
// expiry and nonce checked by openid-client.

// Loaded with the first sign-in through a provider, not with every start.
const openidClient = () => import('openid-client');

export type { OidcFetch };

const FETCH_TIMEOUT_MS = 8_000;
const MAX_BODY_BYTES = 512 * 1024;

/**
 * Node's fetch with a timeout and a body size cap, redirects not followed: for the providers the
 * operator configured (Google-type, Microsoft-type).
 */
export const boundedFetch: OidcFetch = async (url, init) => {
  const signal = init.signal
    ? AbortSignal.any([init.signal, AbortSignal.timeout(FETCH_TIMEOUT_MS)])
    : AbortSignal.timeout(FETCH_TIMEOUT_MS);
  const response = await fetch(url, { ...init, body: init.body as BodyInit | undefined, redirect: 'manual', signal });
  const reader = response.body?.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (reader) {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > MAX_BODY_BYTES) {
        await reader.cancel();
        throw new Error(`the answer from ${new URL(url).host} is larger than ${MAX_BODY_BYTES} bytes`);
      }
      chunks.push(value);
    }
  }
  return new Response(response.status === 204 || response.status === 304 ? null : Buffer.concat(chunks), {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
};

/**
 * For issuers an account admin typed in (SSO): the outbound module's rules (https, public
 * addresses only, checked at connect time), so a discovery URL cannot reach our own network.
 * The development provider on our own host stays reachable while it is mounted.
 */
export function outboundOidcFetch(config: Config): OidcFetch {
  const policy = outboundPolicy(config);
  const allowHosts = config.devIdp ? [...(policy.allowHosts ?? []), new URL(config.publicUrl).host] : policy.allowHosts;
  return async (url, init) => {
    const headers: Record<string, string> = {};
    new Headers(init.headers as HeadersInit | undefined).forEach((value, key) => (headers[key] = value));
    try {
      const res = await outboundFetch(
        url,
        { method: init.method, headers, body: init.body as string | undefined, signal: init.signal ?? undefined },
        { ...policy, allowHosts, timeoutMs: FETCH_TIMEOUT_MS, maxBytes: MAX_BODY_BYTES },
      );
      return new Response(res.status === 204 || res.status === 304 ? null : new Uint8Array(res.body), {
        status: res.status,
        headers: res.headers,
      });
    } catch (err) {
      // openid-client reports the message; ours says why the address was refused.
      throw err instanceof OutboundError ? new Error(err.message) : err;
    }
  };
}

export type Verified = {
  email: string;
  firstName: string;
  lastName: string;
  groups: string[];
  claims: client.IDToken;
};

/** Fetches the provider's discovery document and builds the client for it. */
export async function discover(
  deps: Pick<Deps, 'config' | 'now' | 'oidcFetch'>,
  settings: OidcClientSettings,
): Promise<client.Configuration> {
  const insecure = deps.config.env !== 'production';
  // Our clock may differ from the process clock in tests; ID token expiry is judged by ours.
  const skew = Math.round((deps.now().getTime() - Date.now()) / 1000);
  const client = await openidClient();
  return client.discovery(
    new URL(settings.issuer),
    settings.clientId,
    { [client.clockSkew]: skew },
    client.ClientSecretBasic(settings.clientSecret),
    {
      [client.customFetch]: deps.oidcFetch ?? (settings.customerSupplied ? outboundOidcFetch(deps.config) : boundedFetch),
      execute: insecure ? [client.allowInsecureRequests] : [],
      timeout: FETCH_TIMEOUT_MS / 1000,
    },
  );
}

export type AuthorizationStart = { url: string; state: string; nonce: string; codeVerifier: string };

/** A fresh authorize URL with PKCE (S256), state and nonce; the caller keeps the three secrets. */
export async function authorizationUrl(
  config: client.Configuration,
  redirectUri: string,
  extra: Record<string, string> = {},
): Promise<AuthorizationStart> {
  const client = await openidClient();
  const codeVerifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const nonce = client.randomNonce();
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope: 'openid email profile',
    response_type: 'code',
    code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
    state,
    nonce,
    ...extra,
  });
  return { url: url.href, state, nonce, codeVerifier };
}

export type CallbackParams = { code: string; state: string; iss?: string };

/**
 * Exchanges the code and validates the ID token. Any failure is a 401 with a stable code; the
 * provider's own words go to the log, not to the browser.
 */
export async function finishAuthorization(
  deps: Pick<Deps, 'log'>,
  config: client.Configuration,
  redirectUri: string,
  params: CallbackParams,
  expected: { state: string; nonce: string; codeVerifier: string },
): Promise<Verified> {
  const current = new URL(redirectUri);
  current.searchParams.set('code', params.code);
  current.searchParams.set('state', params.state);
  if (params.iss) current.searchParams.set('iss', params.iss);
  let claims: client.IDToken | undefined;
  const client = await openidClient();
  try {
    const tokens = await client.authorizationCodeGrant(config, current, {
      pkceCodeVerifier: expected.codeVerifier,
      expectedState: expected.state,
      expectedNonce: expected.nonce,
      idTokenExpected: true,
    });
    claims = tokens.claims();
  } catch (err) {
    deps.log('OpenID Connect sign-in failed', err);
    throw new ApiError(401, 'SIGN_IN_FAILED', signInFailureMessage(err));
  }
  if (!claims) throw new ApiError(401, 'SIGN_IN_FAILED', 'The identity provider did not return an ID token.');
  const email = typeof claims.email === 'string' ? claims.email.trim().toLowerCase() : '';
  if (!email)
    throw new ApiError(
      401,
      'EMAIL_MISSING',
      'The identity provider did not share an e-mail address. Allow the email scope and try again.',
    );
  // Providers that say so explicitly have not verified the address: it proves nothing.
  if (claims.email_verified === false)
    throw new ApiError(401, 'EMAIL_NOT_VERIFIED', 'Your e-mail address is not verified with the identity provider.');
  const name = typeof claims.name === 'string' ? claims.name.trim() : '';
  const firstName = typeof claims.given_name === 'string' ? claims.given_name : (name.split(/\s+/)[0] ?? '');
  const lastName = typeof claims.family_name === 'string' ? claims.family_name : name.split(/\s+/).slice(1).join(' ');
  const rawGroups = claims.groups;
  const groups = Array.isArray(rawGroups)
    ? rawGroups.filter((g): g is string => typeof g === 'string')
    : typeof rawGroups === 'string'
      ? [rawGroups]
      : [];
  return { email, firstName, lastName, groups, claims };
}

/** A short reason a person can act on, from the claim openid-client reports as failing. */
function signInFailureMessage(err: unknown): string {
  type Coded = { code?: string; error?: string; message?: string; cause?: Coded & { claim?: string } };
  const e = err as Coded | undefined;
  if (e?.error === 'invalid_grant' || e?.cause?.error === 'invalid_grant')
    return 'The sign-in code was already used or has expired. Please sign in again.';
  const claim = e?.cause?.cause?.claim;
  switch (claim) {
    case 'exp':
    case 'iat':
    case 'nbf':
      return 'The identity provider answered with an expired ID token. Please sign in again.';
    case 'nonce':
      return 'The ID token does not belong to this sign-in (nonce mismatch). Please sign in again.';
    case 'aud':
    case 'azp':
      return 'The ID token was issued to another application. Please sign in again.';
    case 'iss':
      return 'The ID token was issued by an unexpected identity provider.';
  }
  return 'The identity provider could not confirm who you are. Please sign in again.';
}
