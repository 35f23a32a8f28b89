import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { logLine } from './error-text';
import { isDatabaseBusy, isDatabaseUnavailable } from '../db/faults';
import { requestIdOf } from '../observability/request-id';

/** An answer the caller can act on: a status, a stable code and a human message. */
export class ApiError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: string,
    message: string,
    readonly fields?: Record<string, string>,
    /** extra answer headers, e.g. Retry-After on a 429 */
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

export const notFound = (what = 'Not found') => new ApiError(404, 'NOT_FOUND', what);
export const forbidden = (message = 'You do not have access to this') => new ApiError(403, 'FORBIDDEN', message);

export function errorResponse(err: unknown, c: Context, log: (msg: string, err: unknown) => void = defaultLog) {
  if (err instanceof ApiError) {
    for (const [name, value] of Object.entries(err.headers ?? {})) c.header(name, value);
    return c.json(
      { code: err.code, message: err.message, ...(err.fields ? { fields: err.fields } : {}), requestId: requestIdOf(c) },
      err.status,
    );
  }
  if (err instanceof HTTPException) {
    // Hono raises these for malformed bodies (e.g. invalid JSON): the caller's fault, not ours.
    const status = err.status as ContentfulStatusCode;
    const code = status === 400 ? 'INVALID_BODY' : status === 413 ? 'BODY_TOO_LARGE' : 'HTTP_ERROR';
    return c.json({ code, message: err.message || 'The request could not be read', requestId: requestIdOf(c) }, status);
  }
  if (isUnstorableText(err)) {
    // the last line behind the input guard (api/http/text-guard.ts): text PostgreSQL cannot store
    // is the caller's input, never a 500; the statement failed, so its transaction rolled back
    return c.json(
      {
        code: 'VALIDATION_FAILED',
        message: 'Text may not contain NUL characters or unpaired surrogates',
        requestId: requestIdOf(c),
      },
      400,
    );
  }
  if (isDatabaseBusy(err)) {
    // A statement or lock wait outlived its timeout, or no connection was free: the database
    // is up but this work did not fit now; trying again shortly usually does.
    c.header('Retry-After', String(DATABASE_RETRY_AFTER_SECONDS));
    return c.json(
      { code: 'DATABASE_BUSY', message: 'The database is busy. Please try again in a moment.', requestId: requestIdOf(c) },
      503,
    );
  }
  if (isDatabaseUnavailable(err)) {
    // The database is restarting or unreachable: nothing the caller did, and nothing to fix
    // on our side but wait; the pool reconnects by itself on the next request.
    c.header('Retry-After', String(DATABASE_RETRY_AFTER_SECONDS));
    return c.json(
      {
        code: 'DATABASE_UNAVAILABLE',
        message: 'The database is briefly unavailable. Please try again in a moment.',
        requestId: requestIdOf(c),
      },
      503,
    );
  }
  // the request id in the line lets support find it from the id a caller quotes
  log(`${c.req.method} ${c.req.path} failed (request ${requestIdOf(c)})`, err);
  return c.json(
    { code: 'INTERNAL', message: 'Something went wrong on our side. Please try again.', requestId: requestIdOf(c) },
    500,
  );
}

function defaultLog(msg: string, err: unknown) {
  console.error(logLine(msg, err));
}

export const DATABASE_RETRY_AFTER_SECONDS = 2;

// 22021 character_not_in_repertoire (a NUL in text), 22P05 untranslatable_character (\u0000 or a
// lone surrogate in jsonb)
const BAD_TEXT_SQLSTATES = new Set(['22021', '22P05']);
function isUnstorableText(err: unknown): boolean {
  return err instanceof Error && BAD_TEXT_SQLSTATES.has(String((err as { code?: unknown }).code));
}

/** The largest JSON body /api takes (logos are the largest: an SVG up to 512 KB, base64-encoded). */
export const API_BODY_LIMIT = 1024 * 1024;

/**
 * 413 BODY_TOO_LARGE. The rest of the body is left unread, so the connection is not kept for the
 * client's next request (`Connection: close`): reusing it would meet a reset socket.
 */
export function bodyTooLarge(): ApiError {
  return new ApiError(413, 'BODY_TOO_LARGE', 'The request body is too large.', undefined, { connection: 'close' });
}
