// What a database error means for the caller: the database is away (503 DATABASE_UNAVAILABLE),
// busy (503 DATABASE_BUSY), or the connection's own state went wrong (it is given up).

/** The connection could not be opened, or a statement went unanswered past the deadline. */
export class DatabaseUnreachable extends Error {
  readonly code = 'SB_DATABASE_UNREACHABLE';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

// Socket-level failures, and PostgreSQL's SQLSTATEs for a lost or refused connection: class 08
// (connection exception), 57P01-57P03 (admin/crash shutdown, cannot connect now).
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'SB_DATABASE_UNREACHABLE',
]);
const AWAY_STATES = new Set(['57P01', '57P02', '57P03']);
// statement_timeout (57014 query_canceled), lock_timeout (55P03), too many connections (53300).
const BUSY_STATES = new Set(['57014', '55P03', '53300']);
// A prepared statement this connection believed it had (or had not): its cached state is wrong.
const STATEMENT_STATES = new Set(['26000', '42P05']);
// node-postgres reports a dropped connection with plain Errors carrying only a message.
const PG_MESSAGES = [
  /^Connection terminated/,
  /not queryable/,
  /timeout exceeded when trying to connect/,
  /^Client was closed and is not queryable/,
];

const codeOf = (err: unknown): string | undefined => {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
};

/**
 * True when err says the database could not be reached, not that a query was wrong. The cause
 * chain is not followed: an outbound call's `fetch failed` carries ECONNREFUSED as its cause too.
 */
export function isDatabaseUnavailable(err: unknown, depth = 0): boolean {
  if (!(err instanceof Error) || depth > 4) return false;
  const code = codeOf(err);
  if (code && (NETWORK_CODES.has(code) || AWAY_STATES.has(code) || STATEMENT_STATES.has(code) || code.startsWith('08')))
    return true;
  if (err instanceof AggregateError && err.errors.some((e) => isDatabaseUnavailable(e, depth + 1))) return true;
  return PG_MESSAGES.some((re) => re.test(err.message));
}

/** True when the database is there but refused the work for now: a timeout or no free connection. */
export function isDatabaseBusy(err: unknown): boolean {
  const code = codeOf(err);
  return code !== undefined && BUSY_STATES.has(code);
}

/** True when the error says this connection's prepared statements are not what we think. */
export function isStatementStateError(err: unknown): boolean {
  const code = codeOf(err);
  return code !== undefined && STATEMENT_STATES.has(code);
}

/**
 * True when a read that failed with err may simply run again on another connection: the
 * connection was lost or its statement state was wrong, so the read's answer never came.
 */
export function isRetryableRead(err: unknown): boolean {
  if (isStatementStateError(err)) return true;
  const code = codeOf(err);
  if (code && (code === 'ECONNRESET' || code === 'EPIPE' || AWAY_STATES.has(code))) return true;
  return err instanceof Error && /^Connection terminated/.test(err.message);
}

/** A connect failure as the caller should see it: busy stays busy, anything else is unreachable. */
export function connectFailure(err: unknown): Error {
  if (isDatabaseBusy(err)) return err as Error;
  return new DatabaseUnreachable(`Could not connect to the database: ${(err as Error)?.message ?? String(err)}`, { cause: err });
}
