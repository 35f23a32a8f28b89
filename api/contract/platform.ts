import * as v from 'valibot';
import { LocaleSchema } from './locales';
import { AppIdSchema, text } from './common';
import { PhoneNumberSchema } from './sms';
import { callingCode } from './calling-codes';

// The console API every app shares, under /api/{app}/… with a console session (and, for the
// agent routes, an agent session). App-specific shapes (settings, actions, task values) live in
// api/contract/apps/<app>.ts; this file is the frame they plug into.

// ---------------------------------------------------------------- registry metadata

/** One column of an app's activity list. `key` is a key of TaskRow or of TaskRow.values. */
export const TaskColumnSchema = v.object({
  key: v.string(),
  label: v.string(),
  /**
   * how the UI renders it: id (shortened per SPEC, listed last: people read names, not ids),
   * phone (already masked), status, number, text, date (ISO), money (minor units in the row's
   * `values.currency`), currency (an ISO code, shown as people write it: USD)
   */
  kind: v.picklist(['id', 'phone', 'status', 'number', 'text', 'date', 'money', 'currency']),
  /** status columns: the badge tone of each status where the app's meaning differs from the shared one */
  tones: v.optional(v.record(v.string(), v.picklist(['success', 'danger', 'warning', 'info', 'neutral']))),
});
export type TaskColumn = v.InferOutput<typeof TaskColumnSchema>;

/** One input of an agent action form. */
export const ActionFieldSchema = v.object({
  name: v.string(),
  label: v.string(),
  /**
   * `locale`: the caller's language, a choice of LOCALES (empty: the account's default);
   * `choice`: one of what the account can send (a published document or form, an active
   * product), picked from GET /api/{app}/actions/{key}/choices/{name}; the value is its id
   */
  kind: v.picklist(['phone', 'text', 'code', 'email', 'locale', 'choice']),
  required: v.boolean(),
  placeholder: v.optional(v.string()),
  /** `choice`: what the picker says when the account has nothing of the kind to send yet */
  empty: v.optional(v.string()),
});
export type ActionField = v.InferOutput<typeof ActionFieldSchema>;

/** What an app lets an agent (or an admin on the dashboard) do, in the order they are done. */
export const AppActionSchema = v.object({
  key: v.string(),
  label: v.string(),
  description: v.string(),
  /** true when the action works on a task an earlier action started (its id goes in `taskId`) */
  needsTask: v.boolean(),
  fields: v.array(ActionFieldSchema),
  /** a way out rather than the next step (cancel a link): shown after the status, as a secondary button */
  secondary: v.optional(v.boolean()),
});
export type AppAction = v.InferOutput<typeof AppActionSchema>;

/**
 * One thing an agent can send, as the picker lists it. Titles may repeat (two forms called
 * "Claim"): the version and when it was published, or the price, tell them apart.
 */
export const ActionChoiceSchema = v.object({
  /** what the action's field takes: a document or form id, a product id */
  id: v.string(),
  title: v.string(),
  /** the published version that would be sent (documents, forms) */
  version: v.optional(v.number()),
  /** when that version was published, or the product last changed (ISO 8601) */
  editedAt: v.optional(v.string()),
  /** a product's price, in minor units of `currency` */
  price: v.optional(v.object({ amount: v.number(), currency: v.string() })),
  /** a line under the title (a product's description) */
  detail: v.optional(v.string()),
});
export type ActionChoice = v.InferOutput<typeof ActionChoiceSchema>;

/** At most this many choices per answer: the picker says to type to narrow when there are more. */
export const ACTION_CHOICES_LIMIT = 50;

/** GET /api/{app}/actions/{key}/choices/{field}?q=: `q` matches the title (any part) or the exact id. */
export const ActionChoicesQuerySchema = v.object({
  q: v.optional(v.pipe(v.string('q must be text'), v.trim(), v.maxLength(200, 'q has at most 200 characters'))),
});
export type ActionChoicesQuery = v.InferOutput<typeof ActionChoicesQuerySchema>;

export const ActionChoicesAnswerSchema = v.object({
  choices: v.array(ActionChoiceSchema),
  /** more matched than ACTION_CHOICES_LIMIT: the newest are listed */
  more: v.boolean(),
});
export type ActionChoicesAnswer = v.InferOutput<typeof ActionChoicesAnswerSchema>;

/**
 * Why an app's actions cannot run now, said before anyone tries (a configuration state such as
 * Stripe Connect not set up on the server, or no Stripe account connected): `code` is the error
 * code running the action would answer, `message` its sentence (api/contract/stripe-states.ts).
 */
export const ActionsUnavailableSchema = v.object({ code: v.string(), message: v.string() });
export type ActionsUnavailable = v.InferOutput<typeof ActionsUnavailableSchema>;

/** GET /api/{app}/actions */
export const AppActionsAnswerSchema = v.object({
  app: AppIdSchema,
  actions: v.array(AppActionSchema),
  unavailable: v.optional(ActionsUnavailableSchema),
});
export type AppActionsAnswer = v.InferOutput<typeof AppActionsAnswerSchema>;

/** GET /api/agent/apps: the apps an agent session may use (active ones), with their actions. */
export const AgentAppsAnswerSchema = v.object({
  apps: v.array(
    v.object({
      id: AppIdSchema,
      title: v.string(),
      color: v.string(),
      actions: v.array(AppActionSchema),
      unavailable: v.optional(ActionsUnavailableSchema),
    }),
  ),
  /** the account's time zone (IANA): the agent's panel shows its dates in it, as the console does */
  timeZone: v.string(),
});
export type AgentAppsAnswer = v.InferOutput<typeof AgentAppsAnswerSchema>;

/**
 * POST /api/{app}/actions/{key}: `taskId` for actions with needsTask, `input` keyed by the
 * action's field names (validated by the app's own schema; 400 names `input.<field>`).
 */
export const RunActionBodySchema = v.object({
  taskId: v.optional(v.pipe(v.string(), v.uuid('taskId is not a task id'))),
  input: v.record(v.string(), v.string()),
});
export type RunActionBody = v.InferOutput<typeof RunActionBodySchema>;

/** The answer of an action and of task polling: the task as the app reports it. */
export const ActionResultSchema = v.object({
  taskId: v.string(),
  status: v.string(),
  /** a sentence for the agent, e.g. "Passcode sent to +1 •••• •• 4567" */
  message: v.string(),
  /** the app's own view of the task (for OTP: the OtpVerification of the v1 API) */
  task: v.record(v.string(), v.unknown()),
  /**
   * the task can still change elsewhere (the customer, Stripe, expiry) and is followed live;
   * absent means "while the status is pending"
   */
  open: v.optional(v.boolean()),
  /**
   * the follow-up actions (their keys) that apply now, while the task is followed; absent means
   * every follow-up action of the app (a signed document being sealed is followed, but can no
   * longer be resent or cancelled)
   */
  followUps: v.optional(v.array(v.string())),
  /**
   * the agent's last step failed though the task goes on (a wrong code with attempts left):
   * `message` says what failed and what is left, shown as an error, not as the pending status
   */
  failed: v.optional(v.boolean()),
  /**
   * the message went to the development outbox (never in production): the result links to it,
   * since on a fresh machine that is where the customer's text is read
   */
  devOutbox: v.optional(v.boolean()),
});
export type ActionResult = v.InferOutput<typeof ActionResultSchema>;

// ---------------------------------------------------------------- dashboard

export const DASHBOARD_PERIODS = [7, 30, 90] as const;

/** GET /api/{app}/dashboard?days=7|30|90 (the viewer's time zone comes from X-Time-Zone). */
export const DashboardQuerySchema = v.object({
  days: v.optional(v.pipe(v.string(), v.picklist(['7', '30', '90'], 'days must be 7, 30 or 90'), v.transform(Number)), '7'),
});

export const KpiTileSchema = v.object({
  key: v.string(),
  label: v.string(),
  /** this period; null for a rate of nothing (no request ended in the period), shown as "—" */
  value: v.nullable(v.number()),
  /** the period of the same length just before (null as for `value`) */
  previous: v.nullable(v.number()),
  /** count: integer; percent: 0–100 with one decimal; credits: integer; money: minor units of `currency` */
  format: v.picklist(['count', 'percent', 'credits', 'money']),
  currency: v.optional(v.string()),
  /**
   * a figure that is not per period says what it counts instead of a change (credits: the billing
   * period's, the very figure of the header, e.g. "of 1,000 in the free trial")
   */
  caption: v.optional(v.string()),
});
export type KpiTile = v.InferOutput<typeof KpiTileSchema>;

/** One line of a chart: a value per day of the period (every day present, zeros included). */
export const DailySeriesSchema = v.object({
  key: v.string(),
  label: v.string(),
  points: v.array(v.object({ date: v.string(), value: v.number() })),
  /** values are minor units of this currency (money series) */
  currency: v.optional(v.string()),
});
export type DailySeries = v.InferOutput<typeof DailySeriesSchema>;

// ---------------------------------------------------------------- tasks

/** A task of any app as lists show it. Phone numbers are masked (+1 •••• •• 4567). */
export const TaskRowSchema = v.object({
  id: v.string(),
  status: v.string(),
  phoneNumber: v.nullable(v.string()),
  customerRef: v.nullable(v.string()),
  agent: v.nullable(v.string()),
  /** ISO 8601 */
  createdAt: v.string(),
  /** when it ended (verified, expired, failed …), ISO 8601 */
  endedAt: v.nullable(v.string()),
  /** the app's own columns (TaskColumn keys), e.g. sends, checks for OTP */
  values: v.record(v.string(), v.nullable(v.union([v.string(), v.number()]))),
});
export type TaskRow = v.InferOutput<typeof TaskRowSchema>;

export const DashboardAnswerSchema = v.object({
  app: AppIdSchema,
  days: v.number(),
  timeZone: v.string(),
  tiles: v.array(KpiTileSchema),
  series: v.array(DailySeriesSchema),
  latest: v.array(TaskRowSchema),
});
export type DashboardAnswer = v.InferOutput<typeof DashboardAnswerSchema>;

export const TASK_PAGE_SIZE = 50;
export const TASK_KEY_PATTERN =
  /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** A key this API could have given out: its shape, and an instant that exists (no 51st of September). */
export function isTaskKey(key: string): boolean {
  if (!TASK_KEY_PATTERN.test(key)) return false;
  const [y, mo, d, h, mi, s] = key.slice(0, 19).split(/[-T:]/).map(Number) as [number, number, number, number, number, number];
  const t = new Date(Date.UTC(y, mo - 1, d, h, mi, s));
  return (
    t.getUTCFullYear() === y &&
    t.getUTCMonth() === mo - 1 &&
    t.getUTCDate() === d &&
    t.getUTCHours() === h &&
    t.getUTCMinutes() === mi &&
    t.getUTCSeconds() === s
  );
}
/** lastKey of a keyset list, checked as above */
export const TaskKeySchema = v.pipe(v.string(), v.check(isTaskKey, 'lastKey is not a key this API gave out'));
const DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;
// the shape alone lets 2026-46-69 through, which the database then refuses with an error
const isRealDate = (s: string, length: number) => {
  const d = new Date(`${s.slice(0, 10)}T${s.length > 10 ? s.slice(11, 23) : '00:00:00.000'}Z`);
  // PostgreSQL has no year 0
  return !s.startsWith('0000') && !Number.isNaN(d.getTime()) && d.toISOString().slice(0, length) === s.slice(0, length);
};
const dateParam = (name: string) =>
  v.pipe(
    v.string(),
    v.regex(DATE_PATTERN, `${name} must be a date such as 2026-01-31`),
    v.check((s) => isRealDate(s, 10), `${name} must be a date such as 2026-01-31`),
  );

/**
 * GET /api/{app}/tasks (and …/tasks/export): newest first, keyset paging with `lastKey` from the
 * x-last-key header, total in x-count. `from`/`to` are days in the viewer's time zone
 * (inclusive); `q` matches the customer reference or the phone number (prefix, digits).
 */
export const TaskQuerySchema = v.object({
  status: v.optional(v.pipe(v.string(), v.regex(/^[a-z_]{1,40}$/, 'status is not a status of this app'))),
  from: v.optional(dateParam('from')),
  to: v.optional(dateParam('to')),
  agent: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(200, 'agent has at most 200 characters'))),
  q: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(200, 'q has at most 200 characters'))),
  lastKey: v.optional(TaskKeySchema),
  limit: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d{1,3}$/, 'limit is a number from 1 to 200'),
      v.transform(Number),
      v.minValue(1),
      v.maxValue(200),
    ),
  ),
});
export type TaskQuery = v.InferOutput<typeof TaskQuerySchema>;
export const TaskPageSchema = v.array(TaskRowSchema);
export const TASK_COUNT_HEADER = 'x-count';
/**
 * A filtered list's x-count stops here (counting further costs more than it tells); the pager
 * shows "of 1,000+". The unfiltered total is exact (a kept counter).
 */
export const TASK_COUNT_CAP = 1_000;
export const TASK_LAST_KEY_HEADER = 'x-last-key';

/** One step of a task's life, for the detail panel. */
export const TaskEventSchema = v.object({
  /** ISO 8601 */
  time: v.string(),
  type: v.string(),
  /** what a person reads, e.g. "Passcode sent (send 2 of 5)" */
  description: v.string(),
  /** who: an agent e-mail, "API key", an admin's name, or "System" */
  actor: v.string(),
  ip: v.nullable(v.string()),
  userAgent: v.nullable(v.string()),
});
export type TaskEvent = v.InferOutput<typeof TaskEventSchema>;

/** GET /api/{app}/tasks/{id} */
export const TaskDetailSchema = v.object({ ...TaskRowSchema.entries, events: v.array(TaskEventSchema) });
export type TaskDetail = v.InferOutput<typeof TaskDetailSchema>;

// ---------------------------------------------------------------- SMS content

export const PLACEHOLDERS = ['code', 'company', 'ttl', 'link'] as const;
export type Placeholder = (typeof PLACEHOLDERS)[number];

/** One message an app sends, with its template (GET answer). */
export const SmsTemplateSchema = v.object({
  key: v.string(),
  label: v.string(),
  body: v.string(),
  defaultBody: v.string(),
  /** placeholders offered as chips, e.g. ['code', 'company', 'ttl'] */
  placeholders: v.array(v.picklist(PLACEHOLDERS)),
  /** placeholders the body must contain, e.g. ['code'] */
  required: v.array(v.picklist(PLACEHOLDERS)),
  /**
   * The text in each other caller language (`body`, `defaultBody` above are English): `custom`
   * when the account wrote its own, otherwise `body` is the built-in translation (the fallback).
   * Saved under the key `<key>@<locale>` (e.g. `passcode@es`).
   */
  translations: v.array(v.object({ locale: LocaleSchema, body: v.string(), defaultBody: v.string(), custom: v.boolean() })),
});
export type SmsTemplate = v.InferOutput<typeof SmsTemplateSchema>;

/** GET /api/{app}/settings/sms-content and the answer of PUT. `company` fills {{company}}. */
export const SmsContentAnswerSchema = v.object({ company: v.string(), templates: v.array(SmsTemplateSchema) });
export type SmsContentAnswer = v.InferOutput<typeof SmsContentAnswerSchema>;

export const SMS_TEMPLATE_MAX = 640;

/**
 * PUT /api/{app}/settings/sms-content: bodies by template key; an empty body resets that
 * template to its default. Unknown keys, unknown placeholders and missing required ones answer
 * 400 naming `templates.<key>`.
 */
export const SmsContentBodySchema = v.object({
  templates: v.record(
    v.string(),
    v.pipe(v.string(), v.maxLength(SMS_TEMPLATE_MAX, `A message has at most ${SMS_TEMPLATE_MAX} characters`)),
  ),
});
export type SmsContentBody = v.InferOutput<typeof SmsContentBodySchema>;

/** POST /api/{app}/settings/sms-content/test: sends `message` (placeholders filled with samples). */
export const SmsTestBodySchema = v.object({
  phoneNumber: PhoneNumberSchema,
  message: v.pipe(
    v.string('Message is required'),
    v.trim(),
    v.nonEmpty('Message is required'),
    v.maxLength(SMS_TEMPLATE_MAX, `A message has at most ${SMS_TEMPLATE_MAX} characters`),
  ),
});
export const SmsTestAnswerSchema = v.object({ sent: v.literal(true), provider: v.string(), text: v.string() });
export type SmsTestAnswer = v.InferOutput<typeof SmsTestAnswerSchema>;

/** GET /api/{app}/customer-page-preview: a link that opens the preview customer page. */
export const CustomerPagePreviewSchema = v.object({ url: v.string(), expiresAt: v.string() });
export type CustomerPagePreview = v.InferOutput<typeof CustomerPagePreviewSchema>;

// ---------------------------------------------------------------- webhooks

const HttpsUrlSchema = v.pipe(
  v.string('URL is required'),
  v.trim(),
  v.nonEmpty('URL is required'),
  v.maxLength(2000, 'URL has at most 2000 characters'),
  v.url('URL must be a valid URL.'),
  v.startsWith('https://', 'URL must start with https://'),
);

export const WebhookEndpointSchema = v.object({
  id: v.string(),
  url: v.string(),
  eventTypes: v.array(v.string()),
  enabled: v.boolean(),
  /** why the system turned it off: "410 Gone from the endpoint", "Failing for 5 days" */
  disabledReason: v.nullable(v.string()),
  createdAt: v.string(),
  /** phone numbers in full; otherwise masked (+1 •••• •• 4567). Endpoints made before masking came keep full numbers */
  fullPhoneNumbers: v.boolean(),
});
export type WebhookEndpoint = v.InferOutput<typeof WebhookEndpointSchema>;
export const WebhookEndpointListSchema = v.array(WebhookEndpointSchema);

/** POST /api/{app}/webhooks and PUT /api/{app}/webhooks/{id}; event types from the app's list. */
export const WebhookEndpointBodySchema = v.object({
  url: HttpsUrlSchema,
  eventTypes: v.pipe(v.array(v.string()), v.minLength(1, 'Choose at least one event'), v.maxLength(50)),
  enabled: v.optional(v.boolean(), true),
  /** opt in to full phone numbers for this destination (default: masked); left out on update, kept */
  fullPhoneNumbers: v.optional(v.boolean()),
});
export type WebhookEndpointBody = v.InferInput<typeof WebhookEndpointBodySchema>;

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;

/** GET /api/{app}/webhooks/{id}/deliveries: newest first, one row per attempt. */
export const WebhookDeliverySchema = v.object({
  id: v.string(),
  eventId: v.string(),
  eventType: v.string(),
  attempt: v.number(),
  status: v.picklist(WEBHOOK_DELIVERY_STATUSES),
  statusCode: v.nullable(v.number()),
  durationMs: v.nullable(v.number()),
  /** the first 500 characters of the answer, or the error */
  responseExcerpt: v.nullable(v.string()),
  /** ISO 8601 of the next automatic try, when one is scheduled */
  nextRetryAt: v.nullable(v.string()),
  createdAt: v.string(),
});
export type WebhookDelivery = v.InferOutput<typeof WebhookDeliverySchema>;
export const WebhookDeliveryListSchema = v.array(WebhookDeliverySchema);

/** POST …/webhooks/{id}/test and POST …/webhooks/deliveries/{id}/resend answer 201 with this. */
export const WebhookQueuedSchema = v.object({ eventId: v.string(), queued: v.literal(true) });
export type WebhookQueued = v.InferOutput<typeof WebhookQueuedSchema>;

/** The body of every webhook request. */
export const WebhookEventSchema = v.object({
  id: v.string(),
  type: v.string(),
  /** unix seconds */
  created: v.number(),
  account: v.string(),
  data: v.record(v.string(), v.unknown()),
});
export type WebhookEvent = v.InferOutput<typeof WebhookEventSchema>;

// ---------------------------------------------------------------- development SMS outbox

/** GET /api/dev/sms-outbox (outside production): the account's stored messages, newest first. */
export const DevSmsMessageSchema = v.object({ id: v.string(), to: v.string(), body: v.string(), createdAt: v.string() });
export type DevSmsMessage = v.InferOutput<typeof DevSmsMessageSchema>;
export const DevSmsOutboxSchema = v.array(DevSmsMessageSchema);
/** Messages a first look shows; "Show older messages" asks for this many more each time. */
export const DEV_OUTBOX_PAGE_SIZE = 100;
/** The most one answer holds: the outbox is a development aid, not an archive. */
export const DEV_OUTBOX_MAX = 1000;
const OUTBOX_LIMIT_MESSAGE = `limit is a number from 1 to ${DEV_OUTBOX_MAX}`;
/** GET /api/dev/sms-outbox?limit=N: the newest N messages (100 when absent). */
export const DevSmsOutboxQuerySchema = v.object({
  limit: v.optional(
    v.pipe(
      text(OUTBOX_LIMIT_MESSAGE),
      v.regex(/^\d{1,4}$/, OUTBOX_LIMIT_MESSAGE),
      v.transform(Number),
      v.minValue(1, OUTBOX_LIMIT_MESSAGE),
      v.maxValue(DEV_OUTBOX_MAX, OUTBOX_LIMIT_MESSAGE),
    ),
  ),
});
/** Response header of GET /api/dev/sms-outbox: "true" when older messages than these exist. */
export const DEV_OUTBOX_MORE_HEADER = 'x-more';

// ---------------------------------------------------------------- /api/v1 common

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
export const IdempotencyKeySchema = v.pipe(
  v.string(),
  v.minLength(1),
  v.maxLength(255, 'Idempotency-Key has at most 255 characters'),
);

/** Masks all but the country calling code and the last four: +1 •••• •• 4567, +44 •••• •• 3456. */
export function maskPhone(phone: string | null): string | null {
  if (!phone) return null;
  const digits = phone.replace(/\D/g, '');
  const code = callingCode(digits);
  // Too short to leave the last four beside the code: show the code alone.
  if (digits.length < code.length + 5) return `+${code} ${'•'.repeat(Math.max(digits.length - code.length, 0))}`.trimEnd();
  return `+${code} •••• •• ${digits.slice(-4)}`;
}
