import * as v from 'valibot';
import { text } from './common';

/** One audit entry; no `admin` means the provider made the change (ghost mode, staff). */
export const AuditEntrySchema = v.object({
  id: v.number(),
  timestamp: v.string(),
  admin: v.optional(v.object({ firstName: v.string(), lastName: v.string() })),
  namespace: v.string(),
  description: v.string(),
  event: v.string(),
});
export type AuditEntry = v.InferOutput<typeof AuditEntrySchema>;
export const AuditPageSchema = v.array(AuditEntrySchema);

/** Opaque page key: the (ts, id) of the last entry of the previous page. */
export const AUDIT_KEY_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z_\d{1,18}$/;
const KEY_MESSAGE = 'lastKey is not a key this API gave out';
/** The pattern alone lets 2024-02-30 or year 0 through, which the database answers with an error. */
function isRealKeyTime(key: string): boolean {
  const time = new Date(`${key.slice(0, 23)}Z`);
  return !Number.isNaN(time.getTime()) && time.getUTCFullYear() >= 1 && time.toISOString().slice(0, 19) === key.slice(0, 19);
}
export const AuditKeySchema = v.pipe(
  text(KEY_MESSAGE),
  v.regex(AUDIT_KEY_PATTERN, KEY_MESSAGE),
  v.check(isRealKeyTime, KEY_MESSAGE),
);

export const AUDIT_PAGE_SIZE = 50;

/** GET /audit-log: `lastKey` from the previous answer's x-last-key header. */
export const AuditQuerySchema = v.object({
  lastKey: v.optional(AuditKeySchema),
  limit: v.optional(
    v.pipe(text(), v.regex(/^\d{1,3}$/, 'limit is a number from 1 to 200'), v.transform(Number), v.minValue(1), v.maxValue(200)),
  ),
});

export const isTimeZone = (value: string) => {
  try {
    new Intl.DateTimeFormat('en', { timeZone: value });
    return true;
  } catch {
    return false;
  }
};

/** GET /audit-log/export: the whole log (or from `lastKey` on), dates in `timezone`. */
export const AuditExportQuerySchema = v.object({
  lastKey: v.optional(AuditKeySchema),
  timezone: v.optional(v.pipe(text(), v.check(isTimeZone, 'timezone must be an IANA time zone such as Europe/London'))),
});

/** Response headers of GET /audit-log. */
export const AUDIT_COUNT_HEADER = 'x-count';
export const AUDIT_LAST_KEY_HEADER = 'x-last-key';
