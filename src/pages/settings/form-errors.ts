import * as v from 'valibot';
import { ApiError } from '../../api/client';

export type FieldErrors = Record<string, string>;

/** Checks a value against a contract schema: the parsed value, or the first message per field. */
export function check<S extends v.GenericSchema>(schema: S, value: unknown): { ok: true; value: v.InferOutput<S> } | { ok: false; fields: FieldErrors } {
  const result = v.safeParse(schema, value);
  if (result.success) return { ok: true, value: result.output };
  const fields: FieldErrors = {};
  for (const issue of result.issues) {
    const key = issue.path?.map((p) => String(p.key)).join('.') || '_';
    fields[key] ??= issue.message;
  }
  return { ok: false, fields };
}

/** Field messages from a 400 answer, if any. */
export function apiFields(error: unknown): FieldErrors | null {
  return error instanceof ApiError && error.fields ? error.fields : null;
}
