import { validator } from 'hono/validator';
import { ApiError } from './errors';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * An `:id` path parameter naming a row of the caller's account. A malformed id is a missing
 * resource like any other: 404, with the same answer as another account's id.
 */
export function idParam(what: string) {
  return validator('param', (value) => {
    const id = (value as Record<string, string>).id ?? '';
    if (!UUID.test(id)) throw new ApiError(404, 'NOT_FOUND', `There is no such ${what}.`);
    return { id: id.toLowerCase() };
  });
}
