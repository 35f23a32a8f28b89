import type { Context, MiddlewareHandler } from 'hono';
import { sql } from 'kysely';
import type { AppEnv } from '../../auth/context';
import { bearerToken } from '../../auth/context';
import { sha256Hex } from '../../crypto';
import { accountOfSecretKey } from '../../developers/service';
import { ApiError } from '../../http/errors';
import { failureLimiter } from '../../http/failure-limit';
import { clientAddress } from '../../identity/rate-limit';
import { IDEMPOTENCY_HEADER } from '../../contract/platform';
import { DEFAULT_API_RATE_LIMIT, RATE_LIMIT_POLICY } from '../../contract/api-limits';
import { takeApiToken, type RateLimit } from '../../usage/token-bucket';

// The doors of /api/v1: the account's secret key, a token bucket per account, and Idempotency-Key.

export type V1Env = { Variables: AppEnv['Variables'] & { apiAccountId: string } };

export const INVALID_API_KEY_MESSAGE = 'Authenticate with the secret key from Settings > Developers: Authorization: Bearer sk_…';

/**
 * Wrong secret keys per client address, and per key presented (a rotated key left in a deployed
 * integration, or one key tried from many addresses). Guessing keys is what an attacker does with
 * them. A caller with a right key is never counted and never refused for others' failures: the
 * key is checked first, so a whole NAT, proxy or load balancer behind one address keeps working.
 */
export const INVALID_API_KEYS = failureLimiter({
  name: 'api-key:address',
  max: 20,
  windowMs: 15 * 60_000,
  what: 'requests with an invalid API key',
});
export const INVALID_API_KEY_USES = failureLimiter({
  name: 'api-key:key',
  max: 20,
  windowMs: 15 * 60_000,
  what: 'requests with this invalid API key',
  from: 'from any address',
});

/**
 * Keys (their SHA-256) this process has found to be no key, until when: a repeated guess costs no
 * database read. A key is random and never made again, so a key that is no key now stays none.
 */
const KNOWN_INVALID = new WeakMap<object, Map<string, number>>();
const KNOWN_INVALID_MS = 15 * 60_000;
const KNOWN_INVALID_MAX = 10_000;

/** The answers found in one database: a key is none only where it was looked for. */
function invalidIn(db: object): Map<string, number> {
  let known = KNOWN_INVALID.get(db);
  if (!known) KNOWN_INVALID.set(db, (known = new Map()));
  return known;
}

function knownInvalid(known: Map<string, number>, hash: string, now: number): boolean {
  const until = known.get(hash);
  if (until === undefined) return false;
  if (until > now) return true;
  known.delete(hash);
  return false;
}

function rememberInvalid(known: Map<string, number>, hash: string, now: number): void {
  // oldest first (insertion order): past the cap the oldest answers are forgotten, never the limit
  if (known.size >= KNOWN_INVALID_MAX) known.delete(known.keys().next().value!);
  known.set(hash, now + KNOWN_INVALID_MS);
}

/**
 * 401 INVALID_API_KEY for a missing, wrong or rotated key; never a console session.
 *
 * The key first: a right key is let in whatever its address did. A wrong one is then refused 429
 * if its address (or the key itself) is over its limit, else counted and refused 401. Every
 * process gives the same answer: the counts are in the database, and what a process caches (an
 * address or key over its limit, a key that is none) only spares it a read of the same answer.
 */
export function requireApiKey(): MiddlewareHandler<V1Env> {
  return async (c, next) => {
    const deps = c.var.deps;
    const address = clientAddress(c, deps.config.trustProxyHops);
    const key = bearerToken(c.req.header('authorization'), undefined);
    const refuse = async (hash: string | null): Promise<never> => {
      const now = deps.now();
      INVALID_API_KEYS.refuseKnownBlocked(now, address);
      if (hash) INVALID_API_KEY_USES.refuseKnownBlocked(now, hash);
      await INVALID_API_KEYS.assertAllowed(deps, address);
      if (hash) await INVALID_API_KEY_USES.assertAllowed(deps, hash);
      await INVALID_API_KEYS.recordFailure(deps, address);
      if (hash) await INVALID_API_KEY_USES.recordFailure(deps, hash);
      throw new ApiError(401, 'INVALID_API_KEY', INVALID_API_KEY_MESSAGE);
    };
    if (!key || !key.startsWith('sk_') || key.length > 200) return refuse(null);
    const hash = sha256Hex(key);
    const known = invalidIn(deps.db);
    if (knownInvalid(known, hash, deps.now().getTime())) return refuse(hash);
    const accountId = await accountOfSecretKey(deps.db, key, deps.config.encryptionKey);
    if (!accountId) {
      rememberInvalid(known, hash, deps.now().getTime());
      return refuse(hash);
    }
    c.set('apiAccountId', accountId);
    await next();
  };
}

/** the limit of an account staff have not set one for */
export const V1_RATE_LIMIT: RateLimit = { perSecond: DEFAULT_API_RATE_LIMIT.perSecond, burst: DEFAULT_API_RATE_LIMIT.burst };

/**
 * One token per call from the account's bucket (api/usage/token-bucket.ts: in the database, shared
 * by every API process). Every answer that passes here carries the IETF httpapi draft's header
 * fields (draft-ietf-httpapi-ratelimit-headers, structured-field form):
 *   RateLimit-Policy: "default";q=<burst>;w=<seconds the burst refills in>
 *   RateLimit: "default";r=<requests left now>;t=<seconds until the bucket is full again>
 */
export function rateLimit(defaults: RateLimit = V1_RATE_LIMIT): MiddlewareHandler<V1Env> {
  return async (c, next) => {
    const accountId = c.var.apiAccountId;
    const now = c.var.deps.now();
    const row = await takeApiToken(c.var.deps, accountId, defaults, now);
    const remaining = Math.max(0, Math.floor(row.tokens));
    const full = Math.max(0, Math.ceil((row.burst - row.tokens) / row.rate));
    c.header('RateLimit-Policy', `"${RATE_LIMIT_POLICY}";q=${row.burst};w=${Math.max(1, Math.round(row.burst / row.rate))}`);
    c.header('RateLimit', `"${RATE_LIMIT_POLICY}";r=${remaining};t=${full}`);
    if (!row.allowed) {
      const retryAfter = Math.max(1, Math.ceil((1 - row.tokens) / row.rate));
      throw new ApiError(
        429,
        'RATE_LIMITED',
        `Too many requests with this key: at most ${row.rate} per second (bursts of ${row.burst}). Retry after ${retryAfter} s.`,
        undefined,
        { 'Retry-After': String(retryAfter) },
      );
    }
    await next();
  };
}

const IDEMPOTENCY_WINDOW_MS = 24 * 3600_000;

/**
 * The refusals a service gives after it has begun a change (a task written, then its SMS not
 * taken by the provider: the task is cancelled and its credit given back). Only these, and
 * successes, are kept for the key. Every other refusal comes before any write: a validation
 * failure, a rate limit (RATE_LIMITED, TOO_MANY_SENDS), a hold (SMS_PUMPING_SUSPECTED), a policy an
 * admin can lift (COUNTRY_NOT_ALLOWED, APP_NOT_ACTIVE, SMS_NOT_CONFIGURED…), a busy server
 * (PDF_BUSY); it is not kept, so the same key is tried afresh once the cause is gone (as Stripe
 * does). docs/api.md#idempotency lists them.
 */
export const IDEMPOTENT_REFUSALS: ReadonlySet<string> = new Set(['SMS_NOT_DELIVERED']);

/**
 * Idempotency-Key on POST: the answer of a call that changed something is stored with a hash of
 * the request; the same key and body within 24 h answers it again (and does nothing), another
 * body answers 409. A refusal before any change is not stored (IDEMPOTENT_REFUSALS).
 */
export function idempotency(): MiddlewareHandler<V1Env> {
  return async (c, next) => {
    const key = c.req.header(IDEMPOTENCY_HEADER);
    if (c.req.method !== 'POST' || key === undefined) return next();
    if (!key.trim() || key.length > 255)
      throw new ApiError(400, 'VALIDATION_FAILED', `${IDEMPOTENCY_HEADER} must be 1 to 255 characters`, {
        [IDEMPOTENCY_HEADER]: 'must be 1 to 255 characters',
      });
    const accountId = c.var.apiAccountId;
    const { db, now } = c.var.deps;
    const hash = sha256Hex(`${c.req.method} ${c.req.path}\n${await c.req.text()}`);
    const at = now();
    const claimed = await db.tenant(accountId, async (trx) => {
      await sql`delete from api_idempotency where account_id = ${accountId} and key = ${key} and created_at < ${new Date(at.getTime() - IDEMPOTENCY_WINDOW_MS)}`.execute(
        trx,
      );
      const inserted = await sql`insert into api_idempotency (account_id, key, request_hash, status, answer, created_at)
        values (${accountId}, ${key}, ${hash}, 0, 'null'::jsonb, ${at}) on conflict do nothing returning key`.execute(trx);
      if (inserted.rows.length) return null;
      return (
        await sql<{
          request_hash: string;
          status: number;
          answer: unknown;
        }>`select request_hash, status, answer from api_idempotency where account_id = ${accountId} and key = ${key}`.execute(trx)
      ).rows[0]!;
    });
    if (claimed) {
      if (claimed.request_hash !== hash)
        throw new ApiError(
          409,
          'IDEMPOTENCY_CONFLICT',
          `This ${IDEMPOTENCY_HEADER} was used with another request in the last 24 hours. Use a new key for a new request.`,
        );
      if (claimed.status === 0)
        throw new ApiError(
          409,
          'IDEMPOTENCY_IN_PROGRESS',
          'The first request with this key is still running. Retry in a moment.',
          undefined,
          { 'Retry-After': '1' },
        );
      c.header('Idempotent-Replayed', 'true');
      return c.json(claimed.answer as object, claimed.status as 200);
    }
    try {
      await next();
    } catch (err) {
      if (err instanceof ApiError && IDEMPOTENT_REFUSALS.has(err.code))
        await store(c, accountId, key, err.status, {
          code: err.code,
          message: err.message,
          ...(err.fields ? { fields: err.fields } : {}),
        });
      else
        await db.tenant(accountId, (trx) =>
          sql`delete from api_idempotency where account_id = ${accountId} and key = ${key}`.execute(trx),
        );
      throw err;
    }
    const res = c.res;
    if (res.status >= 400) {
      await db.tenant(accountId, (trx) =>
        sql`delete from api_idempotency where account_id = ${accountId} and key = ${key}`.execute(trx),
      );
      return;
    }
    await store(c, accountId, key, res.status, await res.clone().json());
  };
}

async function store(c: Context<V1Env>, accountId: string, key: string, status: number, answer: unknown) {
  await c.var.deps.db.tenant(accountId, (trx) =>
    sql`update api_idempotency set status = ${status}, answer = ${JSON.stringify(answer)}::jsonb where account_id = ${accountId} and key = ${key}`.execute(
      trx,
    ),
  );
}
