import * as v from 'valibot';
import { AppIdSchema, BillingStatusSchema, PlatformSchema, RoleSchema, text } from './common';
import { APP_IDS } from './apps';
import { CalendarDaySchema } from './dates';
import { ApiRateLimitSchema } from './api-limits';

export const WatchTowerAdminSchema = v.object({
  id: v.string(),
  firstName: v.string(),
  lastName: v.string(),
  email: v.string(),
  role: RoleSchema,
  photo: v.nullable(v.string()),
  timeZone: v.nullable(v.string()),
});

export const WatchTowerAppSchema = v.object({ id: AppIdSchema, status: BillingStatusSchema });

export const WatchTowerAccountSchema = v.object({
  id: v.string(),
  name: v.string(),
  /** the sign-in provider the account came with, SPEC §3's `provider` (stored as accounts.platform) */
  provider: PlatformSchema,
  apps: v.array(WatchTowerAppSchema),
  admins: v.array(WatchTowerAdminSchema),
  /** number ranges whose SMS the fraud guard holds now (suspected SMS pumping): the account's flag */
  smsHeldRanges: v.number(),
});
export type WatchTowerAccount = v.InferOutput<typeof WatchTowerAccountSchema>;

/** Statuses that make an app (and its account) active. */
export const ACTIVE_STATUSES = ['free-trial', 'subscription', 'enterprise'] as const;
export const PAID_STATUSES = ['subscription', 'enterprise'] as const;

export const ACCOUNT_SEARCH_LIMIT = 50;

/**
 * GET /watch-tower/accounts?q=: accounts matching the query by name, id, or an admin's first
 * name, last name or e-mail (all accounts when q is empty), at most `limit`, by name.
 */
export const AccountSearchQuerySchema = v.object({
  q: v.optional(v.pipe(text('A search is text'), v.trim(), v.maxLength(200, 'A search has at most 200 characters')), ''),
  limit: v.optional(
    v.pipe(text(), v.regex(/^\d+$/, 'limit must be a whole number'), v.transform(Number), v.minValue(1), v.maxValue(200)),
    String(ACCOUNT_SEARCH_LIMIT),
  ),
});
export type AccountSearchQuery = v.InferOutput<typeof AccountSearchQuerySchema>;

export const AccountListSchema = v.object({
  accounts: v.array(WatchTowerAccountSchema),
  /** accounts matching the query (may exceed the list's length) */
  matching: v.number(),
  /** accounts with at least one active app, product-wide */
  activeAccounts: v.number(),
});
export type AccountList = v.InferOutput<typeof AccountListSchema>;

export const AccountDetailSchema = v.object({
  ...WatchTowerAccountSchema.entries,
  createdAt: v.string(),
  apps: v.array(
    v.object({
      id: AppIdSchema,
      status: BillingStatusSchema,
      trialEndsAt: v.nullable(v.string()),
      credits: v.number(),
      freeTier: v.number(),
    }),
  ),
  /** the account's /api/v1 rate limit; staff change it with PUT …/api-rate-limit */
  apiRateLimit: ApiRateLimitSchema,
});
export type AccountDetail = v.InferOutput<typeof AccountDetailSchema>;

export const AppStatusParamSchema = v.object({ accountId: text(), app: v.picklist(APP_IDS) });
/** Provider staff convert an app to Enterprise; no other status is set this way. */
export const AppStatusBodySchema = v.strictObject({ status: v.literal('enterprise', 'Only enterprise can be set here') });
export type AppStatusBody = v.InferOutput<typeof AppStatusBodySchema>;
export const AppStatusAnswerSchema = v.object({ status: BillingStatusSchema });

export const GhostModeBodySchema = v.strictObject({ accountId: v.pipe(text('Choose an account'), v.uuid('Not an account id')) });

export const DailyPointSchema = v.object({ date: v.string(), count: v.number() });
export type DailyPoint = v.InferOutput<typeof DailyPointSchema>;

/** A daily series with every day present (missing days count 0) and its moving average. */
export const TaskSeriesSchema = v.object({ daily: v.array(DailyPointSchema), average: v.array(DailyPointSchema) });
export type TaskSeries = v.InferOutput<typeof TaskSeriesSchema>;

/** Days the moving average spans. */
export const MOVING_AVERAGE_DAYS = 14;
/** Days the statistics cover by default, ending today (UTC). */
export const STATISTICS_DAYS = 180;

const StatisticsRange = {
  from: v.optional(CalendarDaySchema),
  to: v.optional(CalendarDaySchema),
};

export const SummaryQuerySchema = v.object(StatisticsRange);
export type SummaryQuery = v.InferOutput<typeof SummaryQuerySchema>;
export const AccountStatisticsQuerySchema = v.object({
  accountId: v.pipe(text('accountId is required'), v.uuid('Not an account id')),
  ...StatisticsRange,
});
export type AccountStatisticsQuery = v.InferOutput<typeof AccountStatisticsQuerySchema>;

export const StatisticsSchema = v.object({
  from: v.string(),
  to: v.string(),
  /** all apps together */
  tasks: TaskSeriesSchema,
  /** per app; apps without results have all-zero series */
  apps: v.record(v.picklist(APP_IDS), TaskSeriesSchema),
});
export type Statistics = v.InferOutput<typeof StatisticsSchema>;

export const SummarySchema = v.object({
  ...StatisticsSchema.entries,
  /** accounts paying for at least one app, cumulative by the day they became paid */
  paidAccounts: v.array(DailyPointSchema),
});
export type Summary = v.InferOutput<typeof SummarySchema>;

/** POST /watch-tower/ghost-mode answers a ghost token for the account (TokenAnswerSchema). */
/** DELETE /ghost-mode answers the staff member's own token and the account they were viewing. */
export const GhostEndAnswerSchema = v.object({ token: v.string(), accountId: v.string() });
