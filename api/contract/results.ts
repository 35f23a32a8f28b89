import * as v from 'valibot';
import { AppIdSchema, text } from './common';
import type { AppId } from './apps';

export const RESULT_STATUSES = ['success', 'failure', 'timeout'] as const;
export const ResultStatusSchema = v.picklist(RESULT_STATUSES);
export type ResultStatus = v.InferOutput<typeof ResultStatusSchema>;

/** One completed task of any app, as the global customer search lists it. */
export const CustomerResultSchema = v.object({
  id: v.string(),
  app: AppIdSchema,
  status: ResultStatusSchema,
  /** ISO 8601 */
  timestamp: v.string(),
  sessionRef: v.string(),
  phoneNumber: v.nullable(v.string()),
  customerRef: v.nullable(v.string()),
});
export type CustomerResult = v.InferOutput<typeof CustomerResultSchema>;

/** How many results one search answers at most (newest first). */
export const CUSTOMER_SEARCH_LIMIT = 50;

/** GET /results/customer?customerRef=…: trimmed; an empty query is the UI's business (it clears). */
export const CustomerSearchQuerySchema = v.object({
  customerRef: v.pipe(
    text('Enter a customer ID or phone number'),
    v.trim(),
    v.minLength(1, 'Enter a customer ID or phone number'),
    v.maxLength(200, 'A customer ID has at most 200 characters'),
  ),
});

export const CustomerSearchAnswerSchema = v.object({ results: v.array(CustomerResultSchema) });
export type CustomerSearchAnswer = v.InferOutput<typeof CustomerSearchAnswerSchema>;

/**
 * A query that looks like a phone number, reduced to E.164 (+ and digits), or null. Spaces,
 * dots, dashes and brackets are what people paste; at least 7 digits tell it from an id.
 */
export function phoneQuery(query: string): string | null {
  const q = query.trim();
  if (!/^\+?[\d\s().-]+$/.test(q)) return null;
  const digits = q.replace(/\D/g, '');
  if (digits.length < 7 || digits.length > 15 || digits.startsWith('0')) return null;
  return `+${digits}`;
}

/** Where a result opens: the app's activity list, filtered to the result's session. */
export const ACTIVITY_PATH: Record<AppId, string> = {
  passkeys: 'activity',
  'document-signature': 'signatures',
  'e-form': 'submissions',
  'one-time-passcode': 'authentications',
  payments: 'payments',
  'identity-verification': 'verifications',
};

export function resultLink(result: Pick<CustomerResult, 'app' | 'sessionRef'>): string {
  return `/${result.app}/${ACTIVITY_PATH[result.app]}?session=${encodeURIComponent(result.sessionRef)}`;
}
