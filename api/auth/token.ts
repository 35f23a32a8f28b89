import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import type { Role } from '../contract/common';
import { ApiError } from '../http/errors';

const ISSUER = 'switchboard';
const AUDIENCE = 'switchboard-console';

export type SessionClaims = {
  /** admin id */
  sub: string;
  /** account id */
  acc: string;
  /** 'agent': an agent session (apps platform), which may call only the agent routes */
  role: Role | 'agent';
  root: boolean;
  ghost: boolean;
  email: string;
  /** in ghost mode: the provider staff member's own admin id */
  stf?: string;
};

export type TokenSigner = {
  sign(claims: SessionClaims, ttlSeconds: number): Promise<string>;
  verify(token: string): Promise<SessionClaims & { exp: number }>;
};

export function tokenSigner(secret: string, now: () => number = Date.now): TokenSigner {
  const key = new TextEncoder().encode(secret);
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
      try {
        const { payload } = await jwtVerify(token, key, {
          issuer: ISSUER,
          audience: AUDIENCE,
          algorithms: ['HS256'],
          currentDate: new Date(now()),
        });
        return payload as unknown as SessionClaims & { exp: number };
      } catch (err) {
        if (err instanceof joseErrors.JWTExpired) throw new ApiError(401, 'JWT_EXPIRED', 'Your session has expired. Please sign in again.');
        throw new ApiError(401, 'TOKEN_INVALID', 'The session token is not valid. Please sign in again.');
      }
    },
  };
}
