import * as v from 'valibot';
import { validator } from 'hono/validator';
import { ApiError } from './errors';

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
export function validate<T extends Target, S extends v.GenericSchema>(target: T, schema: S) {
  return validator(target, (value) => {
    const result = v.safeParse(schema, value);
    if (!result.success) throw validationError(result.issues);
    return result.output as v.InferOutput<S>;
  });
}
