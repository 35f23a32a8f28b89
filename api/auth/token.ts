import { createSecretKey } from 'node:crypto';
import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import * as v from 'valibot';
import { TokenPayloadSchema } from '../contract/session';
import { ApiError } from '../http/errors';

const ISSUER = 'switchboard';
const AUDIENCE = 'switchboard-console';

const Uuid = v.pipe(v.string(), v.uuid());

/**
 * What a verified token must carry. A token signed with our secret is still input: claims that do
 * not fit (a non-UUID id, a wrong type) answer 401, never reach a query and never a 500.
 */
const VerifiedClaimsSchema = v.object({
  ...TokenPayloadSchema.entries,
  /** admin id */
  sub: Uuid,
  /** account id */
  acc: Uuid,
  /** session id: the row in `sessions` checked on every request */
  sid: Uuid,
  /** in ghost mode: the provider staff member's own admin id */
  stf: v.optional(Uuid),
  exp: v.pipe(v.number(), v.integer()),
});

/**
 * An agent session (apps platform): a Zoom or Webex user without admin access, for one account,
 * reaching only the agent routes (api/agents/session.ts). It has no admin row and
 * no `sessions` row; it ends with its short lifetime.
 */
const AgentClaimsSchema = v.object({
  sub: v.pipe(v.string(), v.startsWith('agent:'), v.maxLength(300)),
  acc: Uuid,
  role: v.literal('agent'),
  root: v.literal(false),
  ghost: v.literal(false),
  email: v.pipe(v.string(), v.maxLength(254)),
  exp: v.pipe(v.number(), v.integer()),
});

export type VerifiedClaims = v.InferOutput<typeof VerifiedClaimsSchema>;
export type AgentClaims = v.InferOutput<typeof AgentClaimsSchema>;
export type SessionClaims = Omit<VerifiedClaims, 'exp'>;
export type AgentSessionClaims = Omit<AgentClaims, 'exp'>;

export type TokenSigner = {
  sign(claims: SessionClaims | AgentSessionClaims, ttlSeconds: number): Promise<string>;
  verify(token: string): Promise<VerifiedClaims | AgentClaims>;
};

const MAX_VERIFIED = 10_000;

const expired = () => new ApiError(401, 'JWT_EXPIRED', 'Your session has expired. Please sign in again.');
const invalid = () => new ApiError(401, 'TOKEN_INVALID', 'The session token is not valid. Please sign in again.');

/** a token's iat may be this far ahead of our clock (another process's clock), no further */
const IAT_LEEWAY_SECONDS = 60;
/** the longest a session may last (SESSION_HOURS at most 168) */
const MAX_LIFETIME_SECONDS = 168 * 3600;

export function tokenSigner(
  secret: string,
  now: () => number = Date.now,
  maxLifetimeSeconds = MAX_LIFETIME_SECONDS,
): TokenSigner {
  // Imported once: jose would otherwise turn the raw secret into a key on every request.
  const key = createSecretKey(Buffer.from(secret, 'utf8'));
  // A console sends the same token with every call; its signature is checked once per process.
  // Only the signature check is remembered: expiry is judged on every call, and whether the
  // session is still live is the database's answer on every call (api/auth/context.ts).
  const verified = new Map<string, VerifiedClaims | AgentClaims>();
  return {
    async sign(claims, ttlSeconds) {
      const iat = Math.floor(now() / 1000);
      return new SignJWT({ ...claims })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setSubject(claims.sub)
        .setIssuedAt(iat)
        .setExpirationTime(iat + ttlSeconds)
        .sign(key);
    },
    async verify(token) {
      const known = verified.get(token);
      if (known) {
        if (known.exp * 1000 <= now()) throw expired();
        return known;
      }
      const claims = await verifyFresh(token);
      if (verified.size >= MAX_VERIFIED) verified.clear();
      verified.set(token, claims);
      return claims;
    },
  };

  async function verifyFresh(token: string): Promise<VerifiedClaims | AgentClaims> {
    let payload: unknown;
    try {
      ({ payload } = await jwtVerify(token, key, {
        issuer: ISSUER,
        audience: AUDIENCE,
        algorithms: ['HS256'],
        currentDate: new Date(now()),
      }));
    } catch (err) {
      if (err instanceof joseErrors.JWTExpired) throw expired();
      throw invalid();
    }
    const claims = v.safeParse(isAgentPayload(payload) ? AgentClaimsSchema : VerifiedClaimsSchema, payload);
    if (!claims.success) throw invalid();
    // Signed with our secret is not enough: its times must be ones we could have given (an iat
    // in the future or at -1e308, or a lifetime longer than a session's, are not).
    const iat = (payload as { iat?: unknown }).iat;
    if (typeof iat !== 'number' || !Number.isSafeInteger(iat) || iat > now() / 1000 + IAT_LEEWAY_SECONDS) throw invalid();
    if (claims.output.exp - iat > maxLifetimeSeconds || claims.output.exp <= iat) throw invalid();
    return claims.output;
  }
}

function isAgentPayload(payload: unknown): boolean {
  return typeof payload === 'object' && payload !== null && (payload as { role?: unknown }).role === 'agent';
}
