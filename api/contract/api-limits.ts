import * as v from 'valibot';

// The /api/v1 rate limit of an account: a token bucket per account that refills `perSecond`
// tokens a second and holds `burst` (two seconds' worth). Provider staff set it in Watch Tower;
// the account sees it on Settings > Developers. Documented in docs/sms-guard.md.

export const DEFAULT_API_RATE_LIMIT = { perSecond: 20, burst: 40 } as const;
/** a bucket holds this many seconds of its rate */
export const BURST_SECONDS = 2;
export const MAX_API_PER_SECOND = 10_000;

/** The name of the policy in the RateLimit-Policy and RateLimit header fields. */
export const RATE_LIMIT_POLICY = 'default';

export const ApiRateLimitSchema = v.object({
  perSecond: v.number(),
  burst: v.number(),
  /** true while staff have not set one: the default */
  isDefault: v.boolean(),
});
export type ApiRateLimit = v.InferOutput<typeof ApiRateLimitSchema>;

/** GET /accounts/developer/rate-limit: the limit and how much of the burst is in use now. */
export const ApiRateLimitUsageSchema = v.object({
  ...ApiRateLimitSchema.entries,
  /** requests the bucket is short of full now (0: idle; burst: the next request waits) */
  used: v.number(),
});
export type ApiRateLimitUsage = v.InferOutput<typeof ApiRateLimitUsageSchema>;

/** PUT /watch-tower/accounts/:accountId/api-rate-limit: null goes back to the default. */
export const ApiRateLimitBodySchema = v.object({
  perSecond: v.nullable(
    v.pipe(
      v.number('Requests per second must be a number'),
      v.integer('Requests per second must be a whole number'),
      v.minValue(1, 'Requests per second must be at least 1'),
      v.maxValue(MAX_API_PER_SECOND, `Requests per second must be at most ${MAX_API_PER_SECOND}`),
    ),
  ),
});
export type ApiRateLimitBody = v.InferOutput<typeof ApiRateLimitBodySchema>;
