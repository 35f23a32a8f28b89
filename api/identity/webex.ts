import * as v from 'valibot';
import { decodeJwt, errors as joseErrors, importSPKI, jwtVerify, type CryptoKey, type JWTPayload } from 'jose';
import type { WebexConfig } from '../config';
import { ApiError } from '../http/errors';
import { HOST_ERRORS } from '../contract/hosts';
import { EmailSchema } from '../contract/common';

// Webex embedded-app sign-in: the SDK hands the page a JWT that Webex's identity broker signed
// for our app. It is verified with the broker's published key (RS256), the issuer must be an
// allowed broker, the audience our app id, and it must not have expired.

const invalid = () =>
  new ApiError(401, HOST_ERRORS.WEBEX_TOKEN_INVALID, 'The Webex token could not be verified. Please reopen the app in Webex.');
const unavailable = (why: string) =>
  new ApiError(
    502,
    HOST_ERRORS.WEBEX_UNAVAILABLE,
    `Webex could not be reached to confirm who you are (${why}). Please try again.`,
  );

/** Does this issuer URL match a pattern like https://idbroker-*.webex.com/idb (`*` = one label)? */
export function issuerAllowed(iss: string, patterns: string[]): boolean {
  let url: URL;
  try {
    url = new URL(iss);
  } catch {
    return false;
  }
  if (url.username || url.password || url.search || url.hash) return false;
  const path = url.pathname.replace(/\/$/, '');
  return patterns.some((pattern) => {
    const m = pattern.match(/^(https?):\/\/([^/]+)(\/.*)?$/);
    if (!m) return false;
    const [, scheme, hostPattern, pathPattern = ''] = m;
    if (url.protocol !== `${scheme}:`) return false;
    if (path !== pathPattern.replace(/\/$/, '')) return false;
    const host = url.port ? `${url.hostname}:${url.port}` : url.hostname;
    const re = new RegExp(
      '^' +
        hostPattern!
          .toLowerCase()
          .split('*')
          .map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
          .join('[a-z0-9-]+') +
        '$',
    );
    return re.test(host.toLowerCase());
  });
}

const VerificationKeySchema = v.object({ new_verification_key: v.pipe(v.string(), v.minLength(1)) });

const KEY_TTL_MS = 60 * 60 * 1000;
/** after a signature failure the key is fetched again (rotation), at most this often */
const REFETCH_AFTER_MS = 60 * 1000;
const TIMEOUT_MS = 8000;

type CachedKey = { key: CryptoKey; fetchedAt: number };

/** The broker's current public key, `${iss}/oauth2/v2/keys/verification`, cached per issuer. */
export class WebexKeys {
  private cache = new Map<string, CachedKey>();
  private pending = new Map<string, Promise<CachedKey>>();

  async get(iss: string, now: Date, fresh = false): Promise<CachedKey> {
    const hit = this.cache.get(iss);
    const nowMs = now.getTime();
    if (hit && !fresh && nowMs - hit.fetchedAt < KEY_TTL_MS) return hit;
    if (hit && fresh && nowMs - hit.fetchedAt < REFETCH_AFTER_MS) return hit;
    let p = this.pending.get(iss);
    if (!p) {
      p = this.fetchKey(iss, nowMs).finally(() => this.pending.delete(iss));
      this.pending.set(iss, p);
    }
    return p;
  }

  private async fetchKey(iss: string, nowMs: number): Promise<CachedKey> {
    let res: Response;
    try {
      res = await fetch(`${iss.replace(/\/$/, '')}/oauth2/v2/keys/verification`, {
        headers: { accept: 'application/json' },
        redirect: 'error',
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch {
      throw unavailable('no answer from the identity broker');
    }
    if (!res.ok) throw unavailable(`the identity broker answered ${res.status}`);
    const text = await res.text();
    if (text.length > 64 * 1024) throw unavailable('answer too large');
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw unavailable('unreadable key');
    }
    const parsed = v.safeParse(VerificationKeySchema, body);
    if (!parsed.success) throw unavailable('unexpected key answer');
    const raw = parsed.output.new_verification_key.trim();
    // The broker sends the SubjectPublicKeyInfo base64 without the PEM armour.
    const pem = raw.startsWith('-----BEGIN')
      ? raw
      : `-----BEGIN PUBLIC KEY-----\n${raw
          .replace(/\s+/g, '')
          .match(/.{1,64}/g)
          ?.join('\n')}\n-----END PUBLIC KEY-----`;
    let key: CryptoKey;
    try {
      key = await importSPKI(pem, 'RS256');
    } catch {
      throw unavailable('unreadable key');
    }
    const entry = { key, fetchedAt: nowMs };
    this.cache.set(iss, entry);
    return entry;
  }
}

const keysByConfig = new WeakMap<WebexConfig, WebexKeys>();
export function webexKeysFor(config: WebexConfig): WebexKeys {
  let keys = keysByConfig.get(config);
  if (!keys) keysByConfig.set(config, (keys = new WebexKeys()));
  return keys;
}

export type WebexIdentity = { email: string; firstName: string; lastName: string };

const ClaimsSchema = v.object({
  email: EmailSchema,
  email_verified: v.optional(v.union([v.boolean(), v.string()])),
  name: v.optional(v.string()),
  given_name: v.optional(v.string()),
  family_name: v.optional(v.string()),
});

export async function verifyWebexToken(token: string, config: WebexConfig, keys: WebexKeys, now: Date): Promise<WebexIdentity> {
  let unverified: JWTPayload;
  try {
    unverified = decodeJwt(token);
  } catch {
    throw invalid();
  }
  const iss = unverified.iss;
  if (typeof iss !== 'string' || !issuerAllowed(iss, config.allowedIssuers)) {
    throw new ApiError(401, HOST_ERRORS.WEBEX_ISSUER_NOT_ALLOWED, 'The Webex token was not issued by Webex.');
  }
  const options = { issuer: iss, audience: config.appId, algorithms: ['RS256'], currentDate: now, requiredClaims: ['exp'] };
  let payload: JWTPayload;
  let entry = await keys.get(iss, now);
  try {
    try {
      payload = (await jwtVerify(token, entry.key, options)).payload;
    } catch (err) {
      if (!(err instanceof joseErrors.JWSSignatureVerificationFailed)) throw err;
      // The broker may have rotated its key since we cached it.
      const fresh = await keys.get(iss, now, true);
      if (fresh === entry) throw err;
      entry = fresh;
      payload = (await jwtVerify(token, entry.key, options)).payload;
    }
  } catch (err) {
    if (err instanceof ApiError) throw err;
    if (err instanceof joseErrors.JWTExpired)
      throw new ApiError(401, HOST_ERRORS.WEBEX_TOKEN_EXPIRED, 'The Webex token has expired. Please reopen the app in Webex.');
    throw invalid();
  }
  const claims = v.safeParse(ClaimsSchema, payload);
  if (!claims.success) throw invalid();
  const c = claims.output;
  if (c.email_verified === false || c.email_verified === 'false') throw invalid();
  let firstName = c.given_name ?? '';
  let lastName = c.family_name ?? '';
  if (!firstName && !lastName && c.name) {
    const parts = c.name.trim().split(/\s+/);
    firstName = parts.shift() ?? '';
    lastName = parts.join(' ');
  }
  return { email: c.email, firstName, lastName };
}
