import * as v from 'valibot';
import type { MiddlewareHandler } from 'hono';
import { validator } from 'hono/validator';
import { COMPOSED_HANDLER } from 'hono/utils/constants';
import { ApiError } from './errors';
import { assertStorableInput } from './text-guard';

type Target = 'json' | 'query' | 'param';

/** Collects valibot issues as { 'field.path': 'message' }, first message per field. */
export function fieldErrors(issues: v.BaseIssue<unknown>[]): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of issues) {
    const key = issue.path?.map((p) => String(p.key)).join('.') || '_';
    fields[key] ??= issue.message;
  }
  return fields;
}

export function validationError(issues: v.BaseIssue<unknown>[]): ApiError {
  const fields = fieldErrors(issues);
  const first = Object.entries(fields)[0];
  const message = first ? (first[0] === '_' ? first[1] : `${first[0]}: ${first[1]}`) : 'The request is not valid';
  return new ApiError(400, 'VALIDATION_FAILED', message, fields);
}

/**
 * Hono validator middleware for a valibot schema from api/contract: the typed output is
 * `c.req.valid(target)`; failures answer 400 VALIDATION_FAILED with the failing fields.
 */
export function validate<T extends Target, S extends v.GenericSchema>(
  target: T,
  schema: S,
  options: { textRuleInRoute?: boolean } = {},
) {
  const middleware = validator(target, (value) => {
    // The schema speaks first, so a field keeps its own message (a secret's "no control
    // characters"); the storable-text rule then covers whatever the schema let through. A route
    // that takes the raw body and parses it with a schema only it can build (stored secrets it
    // may keep) says so with `textRuleInRoute` and calls assertStorableInput after its parse.
    const result = v.safeParse(schema, value);
    if (!result.success) throw validationError(result.issues);
    if (!options.textRuleInRoute) assertStorableInput(value);
    return result.output as v.InferOutput<S>;
  });
  contracts.set(middleware, { target, schema });
  return middleware;
}

export type RouteContract = { target: Target; schema: v.GenericSchema };
const contracts = new WeakMap<object, RouteContract>();

/**
 * For a route that parses its input itself (/api/v1 reads its body once for Idempotency-Key): a
 * pass-through step that names the schema, so tools that walk the routes find it all the same.
 */
export function documented(target: Target, schema: v.GenericSchema): MiddlewareHandler {
  const middleware: MiddlewareHandler = (_c, next) => next();
  contracts.set(middleware, { target, schema });
  return middleware;
}

/**
 * The contract a route handler validates against, when it is a `validate()` middleware: lets
 * tools that walk the app's routes (the fuzzer, an OpenAPI document) find every schema without
 * a second list of them.
 */
export function contractOf(handler: unknown): RouteContract | undefined {
  // Hono wraps the handlers of a mounted sub-app and keeps the original under this key.
  let h = handler as { [COMPOSED_HANDLER]?: unknown } | undefined;
  for (let i = 0; typeof h === 'function' && i < 8; i++) {
    const found = contracts.get(h);
    if (found) return found;
    h = h[COMPOSED_HANDLER] as typeof h;
  }
  return undefined;
}
