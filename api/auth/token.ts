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

export type VerifiedClaims = v.InferOutput<typeof VerifiedClaimsSchema>;
export type SessionClaims = Omit<VerifiedClaims, 'exp'>;

export type TokenSigner = {
  sign(claims: SessionClaims, ttlSeconds: number): Promise<string>;
  verify(token: string): Promise<VerifiedClaims>;
};

const invalid = () => new ApiError(401, 'TOKEN_INVALID', 'The session token is not valid. Please sign in again.');

export function tokenSigner(secret: string, now: () => number = Date.now): TokenSigner {
  // Imported once: jose would otherwise turn the raw secret into a key on every request.
  const key = createSecretKey(Buffer.from(secret, 'utf8'));
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
      let payload: unknown;
      try {
        ({ payload } = await jwtVerify(token, key, {
          issuer: ISSUER,
          audience: AUDIENCE,
          algorithms: ['HS256'],
          currentDate: new Date(now()),
        }));
      } catch (err) {
        if (err instanceof joseErrors.JWTExpired) throw new ApiError(401, 'JWT_EXPIRED', 'Your session has expired. Please sign in again.');
        throw invalid();
      }
      const claims = v.safeParse(VerifiedClaimsSchema, payload);
      if (!claims.success) throw invalid();
      return claims.output;
    },
  };
}
