import type { MiddlewareHandler } from 'hono';
import { isStorableText, TEXT_MESSAGE } from '../contract/common';
import { ApiError } from './errors';

// One rule for every string a request carries, wherever it is read: no NUL character and no lone
// surrogate. PostgreSQL text and jsonb refuse both ("invalid byte sequence for encoding UTF8:
// 0x00"), so a string that reached a query would be a 500 or a half-done action. The rule is
// applied where input enters, not per field: `validate()` and /api/v1 run it on every parsed
// body, query and path, `refuseBadUrl` on every URL, the customer pages on their posted forms,
// and the error handler turns what still reaches the database into the same 400.

/** Where in `value` the first text that cannot be stored is (a key counts as text), or null. */
export function badTextPath(value: unknown, path: string[] = [], depth = 0): string[] | null {
  if (typeof value === 'string') return isStorableText(value) ? null : path;
  if (value === null || typeof value !== 'object' || depth > 64) return null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = badTextPath(value[i], [...path, String(i)], depth + 1);
      if (found) return found;
    }
    return null;
  }
  for (const [key, inner] of Object.entries(value)) {
    if (!isStorableText(key)) return [...path, key.replace(/\u0000/g, '\\0')];
    const found = badTextPath(inner, [...path, key], depth + 1);
    if (found) return found;
  }
  return null;
}

export function badTextError(field: string): ApiError {
  return new ApiError(400, 'VALIDATION_FAILED', field === '_' ? TEXT_MESSAGE : `${field}: ${TEXT_MESSAGE}`, {
    [field]: TEXT_MESSAGE,
  });
}

/** 400 VALIDATION_FAILED naming the field when any string in `value` cannot be stored. */
export function assertStorableInput(value: unknown): void {
  const path = badTextPath(value);
  if (path) throw badTextError(path.join('.') || '_');
}

const NUL_IN_URL = /%00|\u0000/i;

/** Every path and query string: a NUL there (%00) is refused before any route reads it. */
export function refuseBadUrl(): MiddlewareHandler {
  return async (c, next) => {
    const url = c.req.url;
    if (NUL_IN_URL.test(url)) {
      const query = url.indexOf('?');
      const at = NUL_IN_URL.exec(url)!.index;
      if (query >= 0 && at > query) {
        const name = [...new URL(url).searchParams].find(([k, v]) => !isStorableText(k) || !isStorableText(v))?.[0];
        throw badTextError(name ?? '_');
      }
      throw badTextError('_');
    }
    await next();
  };
}

/**
 * A percent-encoded header we read (X-File-Name): malformed escapes (`%E0%A4%A`, `%`, `%ZZ`) and
 * text that cannot be stored answer 400 naming the header, never a URIError's 500.
 */
export function percentDecodedHeader(value: string | undefined, name: string, max = 255): string | undefined {
  if (value === undefined) return undefined;
  let decoded: string;
  try {
    decoded = decodeURIComponent(value);
  } catch {
    throw new ApiError(400, 'VALIDATION_FAILED', `${name}: must be percent-encoded UTF-8 (encodeURIComponent)`, {
      [name]: 'must be percent-encoded UTF-8 (encodeURIComponent)',
    });
  }
  if (!isStorableText(decoded)) throw badTextError(name);
  if (decoded.length > max)
    throw new ApiError(400, 'VALIDATION_FAILED', `${name}: has at most ${max} characters`, {
      [name]: `has at most ${max} characters`,
    });
  return decoded;
}
