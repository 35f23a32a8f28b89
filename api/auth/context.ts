import type { MiddlewareHandler } from 'hono';
import type { Role } from '../contract/common';
import { TIME_ZONE_HEADER } from '../contract/common';
import { ApiError, errorResponse } from '../http/errors';
import { requestHeader } from '../http/request-header';
import { isUuid, type Prelude, type RequestDatabase } from '../db/index';
import type { Deps } from '../deps';
import type { AgentClaims, VerifiedClaims } from './token';

/** Who is calling, as the verified token and the database say. */
export type Session = {
  /** the `sessions` row this request runs under */
  id: string;
  adminId: string;
  accountId: string;
  /** 'agent' for agent sessions: api/agents/session.ts decides what they reach */
  role: Role | 'agent';
  isRoot: boolean;
  ghost: boolean;
  email: string;
  /** from the database: known once the session check has run (before any route reads data) */
  firstName: string;
  lastName: string;
  /** in ghost mode, the provider staff member behind the session */
  staffId: string | null;
  timeZone: string;
  claims: VerifiedClaims | AgentClaims;
};

export type AppEnv = { Variables: { deps: Deps; session: Session; timeZone: string } };

// Intl is slow to build a formatter; a time zone is judged once per process, not per request.
const knownTimeZones = new Map<string, boolean>();
const MAX_KNOWN_TIME_ZONES = 1000;

export function readTimeZone(header: string | undefined): string {
  if (!header) return 'UTC';
  let valid = knownTimeZones.get(header);
  if (valid === undefined) {
    try {
      new Intl.DateTimeFormat('en', { timeZone: header });
      valid = true;
    } catch {
      valid = false;
    }
    if (knownTimeZones.size < MAX_KNOWN_TIME_ZONES) knownTimeZones.set(header, valid);
  }
  return valid ? header : 'UTC';
}

export function bearerToken(authorization: string | undefined, query: string | undefined): string | null {
  const m = authorization?.match(/^Bearer\s+(\S+)$/i);
  return m?.[1] ?? query ?? null;
}

export const SESSION_REVOKED = 'SESSION_REVOKED';

const ended = (message = 'Your session has ended. Please sign in again.') => new ApiError(401, SESSION_REVOKED, message);
const adminNotFound = () =>
  new ApiError(
    401,
    'ADMIN_NOT_FOUND',
    'Please contact your account administrator to be added as an administrator on the account.',
  );

type CheckRow = {
  revoked_at: unknown;
  reason: string | null;
  archived: boolean;
  role: Role;
  is_root: boolean;
  first_name: string;
  last_name: string;
};

// One text for every session, so each connection prepares it once.
const SESSION_CHECK = `select s.revoked_at, s.reason, a.archived_at is not null as archived, a.role, a.is_root, a.first_name, a.last_name
  from sessions s join admins a on a.id = s.admin_id
  where s.id = $1 and s.admin_id = $2 and s.account_id = $3 and s.ghost = $4 and s.staff_id is not distinct from $5::uuid`;

/**
 * The session row and its admin, read in one statement: live session, active admin, the role and
 * staff rights the token claims. A claim that is no UUID ends the session before any SQL.
 */
function sessionCheck(session: Session, claims: VerifiedClaims): Prelude {
  for (const id of [claims.sid, claims.sub, claims.acc, claims.stf ?? claims.sid]) if (!isUuid(id)) throw ended();
  return {
    accountId: claims.acc.toLowerCase(),
    text: SESSION_CHECK,
    params: [claims.sid, claims.sub, claims.acc, claims.ghost, claims.ghost && claims.stf ? claims.stf : null],
    accept(rows) {
      const row = rows[0] as CheckRow | undefined;
      if (!row) throw ended();
      if (row.archived) throw adminNotFound();
      if (row.revoked_at)
        throw row.reason === 'ghost-ended'
          ? ended('Ghost mode has ended. Return to Watch Tower to view the account again.')
          : ended();
      // Role changes end sessions; a token claiming rights the admin no longer has is one of those.
      if (row.role !== claims.role || (!claims.ghost && row.is_root !== claims.root)) throw ended();
      session.firstName = row.first_name;
      session.lastName = row.last_name;
    },
  };
}

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** Node's parsed headers are keyed in lower case (api/http/request-header.ts). */
const TIME_ZONE_NAME = TIME_ZONE_HEADER.toLowerCase();

/**
 * Requires a valid session: the token (bearer header or `token` query parameter) is verified,
 * then its `sessions` row and the admin are checked in the database, so sign-out, archiving an
 * admin or a changed role take effect at once, not when the token expires.
 *
 * A read carries the check in its own first transaction (no round trip of its own); a change
 * checks before the route runs, so an ended session never acts on anything.
 */
export function requireSession(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    // c.get, not c.var, in what every request runs: Hono builds c.var anew, an object of every
    // variable, on each read of it
    const deps = c.get('deps');
    const timeZone = c.get('timeZone');
    const header = requestHeader(c, 'authorization');
    const token = bearerToken(header, c.req.query('token'));
    if (!token) throw new ApiError(401, 'UNAUTHORIZED', 'Please sign in.');
    // A token in the address (SPEC §7): the answer tells the browser to send no Referer from it,
    // so the address with its token never leaves in one (history and caches: no-store already).
    if (!bearerToken(header, undefined)) c.header('Referrer-Policy', 'no-referrer');
    const claims = await deps.tokens.verify(token);
    if (claims.role === 'agent') {
      c.set('session', agentSession(claims, timeZone));
      return next();
    }
    const session: Session = {
      id: claims.sid,
      adminId: claims.sub,
      accountId: claims.acc,
      role: claims.role,
      // ghost sessions are never root: staff act as the account's admin, nothing more
      isRoot: claims.ghost ? false : claims.root,
      ghost: claims.ghost,
      email: claims.email,
      firstName: '',
      lastName: '',
      staffId: claims.ghost ? (claims.stf ?? null) : null,
      timeZone,
      claims,
    };
    const db = deps.db.withPrelude(sessionCheck(session, claims), { reads: READS.has(c.req.method) });
    c.set('deps', { ...deps, db });
    c.set('session', session);
    if (!READS.has(c.req.method)) await db.settle();
    await next();
    // A read that touched no data (or failed first) still answers only to a live session.
    try {
      await db.settle();
    } catch (err) {
      c.res = errorResponse(err, c, deps.log);
    }
  };
}

/** Settles the request's session check now: a route that answers for long (the live stream)
 * must know the session is live before it starts, not when its first statement runs. */
export async function settleSession(deps: Deps): Promise<void> {
  await (deps.db as Partial<RequestDatabase>).settle?.();
}

function agentSession(claims: AgentClaims, timeZone: string): Session {
  return {
    id: '',
    adminId: claims.sub,
    accountId: claims.acc,
    role: 'agent',
    isRoot: false,
    ghost: false,
    email: claims.email,
    firstName: '',
    lastName: '',
    staffId: null,
    timeZone,
    claims,
  };
}

export function timeZone(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    c.set('timeZone', readTimeZone(requestHeader(c, TIME_ZONE_NAME)));
    await next();
  };
}
