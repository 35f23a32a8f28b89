import ky, { type KyInstance, type Options } from 'ky';
import { TIME_ZONE_HEADER } from '../../api/contract/constants';
import { isStateCode } from '../../api/contract/state-codes';

/**
 * An API failure: 4xx bodies pass through ({code, message, fields}); any other status is
 * UNEXPECTED_STATUS, and a call that never got an answer is NETWORK_ERROR or TIMEOUT. Those
 * three carry a message saying what the user can do (UNEXPECTED_STATUS after SPEC §8's text).
 */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly fields?: Record<string, string>;
  /** seconds the server asked us to wait before trying again (its Retry-After header) */
  readonly retryAfter?: number;
  /** the answer's X-Request-Id: shown beside the message so support can find the request */
  requestId?: string;

  constructor(status: number, code: string, message: string, fields?: Record<string, string>, retryAfter?: number) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.fields = fields;
    this.retryAfter = retryAfter;
  }
}

/** Retry-After as seconds: delta-seconds or an HTTP date (RFC 9110 §10.2.3); undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}

export const UNEXPECTED_STATUS = 'UNEXPECTED_STATUS';
export const NETWORK_ERROR = 'NETWORK_ERROR';
export const TIMEOUT = 'TIMEOUT';
export const JWT_EXPIRED = 'JWT_EXPIRED';
/** the session was ended on the server (signed out elsewhere, ghost mode ended, archived, role changed) */
export const SESSION_REVOKED = 'SESSION_REVOKED';
const SESSION_OVER = new Set([JWT_EXPIRED, SESSION_REVOKED]);

/** How long a call may take before the user is told; exports and tests take seconds, not this. */
const TIMEOUT_MS = 30_000;

/** SPEC §8's words for a status other than the expected one, verbatim. */
export function unexpectedStatusText(status: number): string {
  return `unexpected response status: ${status}`;
}

/** SPEC §8's text first, then what the user can do about it. */
function unexpectedStatusMessage(status: number): string {
  const guidance =
    status === 503
      ? 'The service is temporarily unavailable. Please try again in a few minutes.'
      : status >= 500
        ? 'Something went wrong on our side. Please try again; if it keeps happening, contact support.'
        : 'Please reload the page and try again.';
  return `${unexpectedStatusText(status)}. ${guidance}`;
}

/** A call that got no answer at all: offline, the server unreachable, or too slow. */
function noAnswerError(error: unknown): ApiError {
  if (error instanceof Error && error.name === 'TimeoutError') {
    return new ApiError(0, TIMEOUT, 'The server took too long to answer. Please check your connection and try again.');
  }
  return new ApiError(0, NETWORK_ERROR, "Can't reach the server. Please check your internet connection and try again.");
}

/** True for failures that say nothing about the session: no answer, or the server's own fault. */
export function isTransient(error: unknown): boolean {
  return (
    error instanceof ApiError &&
    !isStateCode(error.code) &&
    (error.code === NETWORK_ERROR || error.code === TIMEOUT || error.status >= 500)
  );
}

/**
 * True for failures that are not an answer yet: no answer at all (offline, timed out), the
 * server asking to be asked again later (429, 503: e.g. DATABASE_UNAVAILABLE while PostgreSQL
 * restarts), or a gateway saying the server behind it did not answer (502, 504). Anything else
 * (any other 4xx, a 500) is the server's definitive answer.
 */
export function isTemporary(error: unknown): boolean {
  if (!(error instanceof ApiError) || isStateCode(error.code)) return false;
  if (error.code === NETWORK_ERROR || error.code === TIMEOUT) return true;
  return error.status === 429 || error.status === 502 || error.status === 503 || error.status === 504;
}

export type ClientOptions = {
  getToken: () => string | null;
  /** called when any call reports the session token expired */
  onSessionExpired?: () => void;
};

type CallOptions = {
  /** the success status this call must answer; anything else is an error (default 200) */
  expect?: number;
  /** for GET: the payload goes in the query string */
  query?: Record<string, string | number | boolean | undefined>;
  json?: unknown;
  signal?: AbortSignal;
};

/** The time-zone header's value (SPEC §7: every call under /api carries it, the live stream too). */
export function timeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

async function toError(response: Response): Promise<ApiError> {
  const error = await errorOf(response);
  error.requestId = response.headers.get('x-request-id') ?? undefined;
  return error;
}

async function errorOf(response: Response): Promise<ApiError> {
  const retryAfter = parseRetryAfter(response.headers.get('retry-after'));
  const unexpected = () =>
    new ApiError(response.status, UNEXPECTED_STATUS, unexpectedStatusMessage(response.status), undefined, retryAfter);
  if (response.status < 400) return unexpected();
  try {
    const body = (await response.json()) as { code?: unknown; message?: unknown; fields?: Record<string, string> };
    if (typeof body?.code !== 'string') return unexpected();
    // a configuration state (Stripe not set up on this server, not connected in this account) is
    // said in its own words wherever it shows, whatever the status: never "temporarily unavailable"
    // (the server words it from api/contract/stripe-states.ts, as the screens do; only the codes load here)
    if (isStateCode(body.code))
      return new ApiError(response.status, body.code, typeof body.message === 'string' ? body.message : body.code);
    if (response.status >= 500) return unexpected();
    return new ApiError(
      response.status,
      body.code,
      typeof body.message === 'string' ? body.message : body.code,
      body.fields,
      retryAfter,
    );
  } catch {
    return unexpected();
  }
}

export type Api = ReturnType<typeof createApi>;

/** The console's one way to call the API: bearer token, time zone, status check, error mapping. */
export function createApi({ getToken, onSessionExpired }: ClientOptions) {
  const http: KyInstance = ky.create({
    prefixUrl: '/api',
    // The status check below is the contract (200, or 201 for creations); ky's own throwing and
    // retrying would blur it.
    throwHttpErrors: false,
    retry: 0,
    timeout: TIMEOUT_MS,
    hooks: {
      beforeRequest: [
        (request) => {
          const token = getToken();
          if (token) request.headers.set('Authorization', `Bearer ${token}`);
          request.headers.set(TIME_ZONE_HEADER, timeZone());
        },
      ],
    },
  });

  async function send(method: string, path: string, { expect = 200, query, json, signal }: CallOptions = {}): Promise<Response> {
    const options: Options = { method, signal };
    if (json !== undefined) options.json = json;
    if (query) {
      const params = new URLSearchParams();
      for (const [k, v] of Object.entries(query)) if (v !== undefined) params.set(k, String(v));
      options.searchParams = params;
    }
    let response: Response;
    try {
      response = await http(path.replace(/^\//, ''), options);
    } catch (error) {
      // an abort is the caller's own doing and stays what it is
      if (signal?.aborted || (error instanceof Error && error.name === 'AbortError')) throw error;
      throw noAnswerError(error);
    }
    if (response.status !== expect) {
      const error = await toError(response);
      if (error.status === 401 && SESSION_OVER.has(error.code)) onSessionExpired?.();
      throw error;
    }
    return response;
  }

  async function call<T>(method: string, path: string, options: CallOptions = {}): Promise<T> {
    const response = await send(method, path, options);
    if (response.status === 204) return undefined as T;
    const text = await response.text();
    return (text ? JSON.parse(text) : undefined) as T;
  }

  return {
    get: <T>(path: string, options?: Omit<CallOptions, 'json'>) => call<T>('GET', path, options),
    /** a GET whose answer headers matter too (paging headers such as x-count, x-last-key) */
    getWithHeaders: async <T>(path: string, options?: Omit<CallOptions, 'json'>): Promise<{ data: T; headers: Headers }> => {
      const response = await send('GET', path, options);
      return { data: (await response.json()) as T, headers: response.headers };
    },
    /** a GET that answers a file: the body and the file name from Content-Disposition */
    download: async (path: string, options?: Omit<CallOptions, 'json'>): Promise<{ blob: Blob; filename: string | null }> => {
      const response = await send('GET', path, options);
      const filename = dispositionFilename(response.headers.get('content-disposition'));
      return { blob: await response.blob(), filename };
    },
    post: <T>(path: string, json: unknown = {}, options?: CallOptions) => call<T>('POST', path, { ...options, json }),
    /** a POST that creates something: its success status is 201 */
    create: <T>(path: string, json: unknown = {}, options?: CallOptions) =>
      call<T>('POST', path, { expect: 201, ...options, json }),
    put: <T>(path: string, json: unknown = {}, options?: CallOptions) => call<T>('PUT', path, { ...options, json }),
    delete: <T>(path: string, options?: CallOptions) => call<T>('DELETE', path, options),
  };
}

/** The file name a Content-Disposition header gives: RFC 6266's filename*=UTF-8'' first, else filename. */
export function dispositionFilename(header: string | null): string | null {
  if (!header) return null;
  const extended = header.match(/filename\*\s*=\s*UTF-8''([^;\s]+)/i)?.[1];
  if (extended) {
    try {
      return decodeURIComponent(extended);
    } catch {
      // a malformed encoding: the plain name below still names the file
    }
  }
  return header.match(/filename\s*=\s*"((?:[^"\\]|\\.)*)"/i)?.[1]?.replace(/\\(.)/g, '$1') ?? null;
}

/** The message to show for any thrown value. */
/** The request id of a failed call, when the server gave one (for "Reference: …" lines). */
export function referenceOf(error: unknown): string | undefined {
  return error instanceof ApiError ? error.requestId : undefined;
}

export function errorMessage(error: unknown, fallback = 'An error occurred'): string {
  if (error instanceof Error && error.message) return error.message;
  return fallback;
}
