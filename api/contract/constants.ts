// Contract constants with no valibot schema beside them. The UI's first-load code imports
// runtime values only from here and apps.ts: importing them from a schema module would put
// that module, and valibot with it, into the first-load chunk as soon as any lazy page uses
// one of its schemas (the bundler splits by module).

/** Header that carries the caller's IANA time zone on every call. */
export const TIME_ZONE_HEADER = 'X-Time-Zone';

/** Share of the free tier at which the credit display turns red. */
export const CREDIT_WARNING_RATIO = 0.8;

/** A company domain that already has an account the person is not on (sign-in, embedded hosts). */
export const ACCOUNT_EXISTS = 'ACCOUNT_EXISTS';

/** GET /api/live: the tab's Server-Sent Events stream (api/contract/live.ts has its shapes). */
export const LIVE_PATH = '/live';
