import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';

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
    return c.json({ code: err.code, message: err.message, ...(err.fields ? { fields: err.fields } : {}) }, err.status);
  }
  if (err instanceof HTTPException) {
    // Hono raises these for malformed bodies (e.g. invalid JSON): the caller's fault, not ours.
    const status = err.status as ContentfulStatusCode;
    const code = status === 400 ? 'INVALID_BODY' : status === 413 ? 'BODY_TOO_LARGE' : 'HTTP_ERROR';
    return c.json({ code, message: err.message || 'The request could not be read' }, status);
  }
  log(`${c.req.method} ${c.req.path} failed`, err);
  return c.json({ code: 'INTERNAL', message: 'Something went wrong on our side. Please try again.' }, 500);
}

function defaultLog(msg: string, err: unknown) {
  console.error(msg, err);
}
