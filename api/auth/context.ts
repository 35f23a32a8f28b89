import type { MiddlewareHandler } from 'hono';
import type { Role } from '../contract/common';
import { TIME_ZONE_HEADER } from '../contract/common';
import { ApiError } from '../http/errors';
import type { Deps } from '../deps';
import type { SessionClaims } from './token';

/** Who is calling, as the verified token and the database say. */
export type Session = {
  adminId: string;
  accountId: string;
  /** 'agent' for agent sessions: api/apps/platform/agent-session.ts decides what they reach */
  role: Role | 'agent';
  isRoot: boolean;
  ghost: boolean;
  email: string;
  firstName: string;
  lastName: string;
  /** in ghost mode, the provider staff member behind the session */
  staffId: string | null;
  timeZone: string;
  claims: SessionClaims & { exp: number };
};

export type AppEnv = { Variables: { deps: Deps; session: Session; timeZone: string } };

export function readTimeZone(header: string | undefined): string {
  if (!header) return 'UTC';
  try {
    new Intl.DateTimeFormat('en', { timeZone: header });
    return header;
  } catch {
    return 'UTC';
  }
}

export function bearerToken(authorization: string | undefined, query: string | undefined): string | null {
  const m = authorization?.match(/^Bearer\s+(\S+)$/i);
  return m?.[1] ?? query ?? null;
}

/**
 * Requires a valid session: the token (bearer header or `token` query parameter) is verified,
 * then the admin is read from the database so an archived admin or a changed role takes effect
 * at once, not when the token expires.
 */
export function requireSession(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const { tokens, db } = c.var.deps;
    const token = bearerToken(c.req.header('authorization'), c.req.query('token'));
    if (!token) throw new ApiError(401, 'UNAUTHORIZED', 'Please sign in.');
    const claims = await tokens.verify(token);
    if (claims.role === 'agent') {
      c.set('session', agentSession(claims, c.var.timeZone));
      return next();
    }
    const admin = await db.tenant(claims.acc, (trx) =>
      trx
        .selectFrom('admins')
        .select(['id', 'role', 'is_root', 'email', 'first_name', 'last_name'])
        .where('id', '=', claims.sub)
        .where('archived_at', 'is', null)
        .executeTakeFirst(),
    );
    if (!admin) throw new ApiError(401, 'ADMIN_NOT_FOUND', 'Please contact your account administrator to be added as an administrator on the account.');
    c.set('session', {
      adminId: admin.id,
      accountId: claims.acc,
      role: admin.role,
      // ghost sessions are never root: staff act as the account's admin, nothing more
      isRoot: claims.ghost ? false : admin.is_root,
      ghost: claims.ghost,
      email: admin.email,
      firstName: admin.first_name,
      lastName: admin.last_name,
      staffId: claims.ghost ? (claims.stf ?? null) : null,
      timeZone: c.var.timeZone,
      claims,
    });
    await next();
  };
}

/** An agent is no admin: the signed claims are the whole session (short-lived token). */
function agentSession(claims: SessionClaims & { exp: number }, timeZone: string): Session {
  return { adminId: claims.sub, accountId: claims.acc, role: 'agent', isRoot: false, ghost: false, email: claims.email, firstName: '', lastName: '', staffId: null, timeZone, claims };
}

export function timeZone(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    c.set('timeZone', readTimeZone(c.req.header(TIME_ZONE_HEADER)));
    await next();
  };
}
