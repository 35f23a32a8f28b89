import type * as v from 'valibot';
import type { Context } from 'hono';
import type { V1Env } from './v1-guards';

/**
 * One /api/v1 operation, described once: Hono registers its handler from this and the OpenAPI
 * document is generated from the same schemas, so the document cannot drift from the routes.
 */
export type V1Operation = {
  method: 'get' | 'post';
  /** Hono pattern, e.g. /otp/:id */
  path: string;
  operationId: string;
  summary: string;
  /** what it does, for the OpenAPI document and the reference page */
  description: string;
  tag: string;
  params?: v.ObjectSchema<v.ObjectEntries, undefined>;
  body?: v.GenericSchema;
  answer: v.GenericSchema;
  /** success status(es) */
  statuses: readonly (200 | 201)[];
  /** error codes this operation may answer besides the common ones (described in v1-routes.ts's ERROR_TEXT unless given here) */
  errors: readonly { status: number; code: string; description?: string }[];
  handler(
    c: Context<V1Env>,
    input: { params: Record<string, string>; body: unknown },
  ): Promise<{ status: 200 | 201; answer: unknown }>;
};
