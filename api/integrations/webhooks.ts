import { maskNumbers } from '../privacy/mask';
import { sql } from 'kysely';
import type { Deps } from '../deps';
import { webhookSigningSecrets } from '../developers/service';
import { notify } from '../notifications/notify';
import { SIGNATURE_HEADER, webhookSignature } from '../developers/signature';
import { OutboundError, outboundFetch, outboundPolicy } from './outbound';
import { metrics } from '../observability/metrics';

// The webhook worker: leases due delivery jobs (for update skip locked, so several processes
// share the work and a crashed one's lease simply runs out), posts each signed event through the
// outbound safety module and settles the job. At least once: a job is only marked succeeded
// after a 2xx, so a crash between the POST and the update delivers it again.

/** Delay before attempt n+1 after attempt n failed (n from 1); null: give up. */
export const RETRY_SCHEDULE_MS = [5_000, 5 * 60_000, 30 * 60_000, 2 * 3600_000, 5 * 3600_000, 10 * 3600_000, 10 * 3600_000];
export const FAILING_DISABLE_MS = 5 * 24 * 3600_000;
export const DELIVERY_TIMEOUT_MS = 15_000;

export function retryDelayMs(attempt: number, random = Math.random): number | null {
  const base = RETRY_SCHEDULE_MS[attempt - 1];
  if (base === undefined) return null;
  // ±10 % so endpoints that come back are not hit by every account at the same second
  return Math.round(base * (0.9 + random() * 0.2));
}

export type WebhookWorkerOptions = { batchSize?: number; pollMs?: number; leaseMs?: number };
const DEFAULTS: Required<WebhookWorkerOptions> = { batchSize: 200, pollMs: 1_000, leaseMs: 60_000 };

type Leased = {
  id: string;
  account_id: string;
  endpoint_id: string;
  url: string;
  payload: unknown;
  attempts: number;
  type: string;
  full_phone_numbers: boolean;
};

async function lease(deps: Pick<Deps, 'db' | 'now'>, o: Required<WebhookWorkerOptions>): Promise<Leased[]> {
  const now = deps.now();
  return deps.db.system(async (trx) => {
    const rows = await sql<Leased>`
      with due as (
        select id from webhook_deliveries
        where state = 'pending' and next_attempt_at <= ${now}
        order by next_attempt_at, seq
        limit ${o.batchSize}
        for update skip locked
      )
      update webhook_deliveries d
      set next_attempt_at = ${new Date(now.getTime() + o.leaseMs)}, attempts = d.attempts + 1, updated_at = ${now}
      from due, webhook_endpoints p, webhook_events e
      where d.id = due.id and p.id = d.endpoint_id and e.id = d.event_id
      returning d.id, d.account_id, d.endpoint_id, p.url, e.payload, d.attempts, e.type, d.seq, p.full_phone_numbers`.execute(
      trx,
    );
    return rows.rows.sort((a, b) => Number((a as { seq?: number }).seq) - Number((b as { seq?: number }).seq));
  });
}

type Outcome = { ok: boolean; gone: boolean; statusCode: number | null; durationMs: number; excerpt: string };

async function post(deps: Pick<Deps, 'db' | 'config' | 'now'>, job: Leased): Promise<Outcome> {
  const secrets = await deps.db.tenant(job.account_id, async (trx) => {
    return webhookSigningSecrets(trx, job.account_id, deps.config.encryptionKey, deps.now());
  });
  // a destination that has not opted in gets the numbers masked (api/privacy/mask.ts)
  const body = JSON.stringify(job.full_phone_numbers ? job.payload : maskNumbers(job.payload));
  const started = performance.now();
  try {
    const res = await outboundFetch(
      job.url,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'Switchboard-Webhooks/1',
          [SIGNATURE_HEADER]: webhookSignature(body, secrets, Math.floor(deps.now().getTime() / 1000)),
        },
        body,
      },
      { ...outboundPolicy(deps.config), timeoutMs: DELIVERY_TIMEOUT_MS, maxBytes: 64 * 1024 },
    );
    return {
      ok: res.ok,
      gone: res.status === 410,
      statusCode: res.status,
      durationMs: Math.round(performance.now() - started),
      excerpt: res.text().slice(0, 500),
    };
  } catch (err) {
    const message =
      err instanceof OutboundError ? `${err.code}: ${err.message}` : err instanceof Error ? err.message : String(err);
    return {
      ok: false,
      gone: false,
      statusCode: null,
      durationMs: Math.round(performance.now() - started),
      excerpt: message.slice(0, 500),
    };
  }
}

async function settle(deps: Pick<Deps, 'db' | 'now'>, job: Leased, out: Outcome): Promise<void> {
  const now = deps.now();
  await deps.db.tenant(job.account_id, async (trx) => {
    if (out.ok) {
      await sql`update webhook_deliveries set state = 'succeeded', next_attempt_at = null, status_code = ${out.statusCode}, duration_ms = ${out.durationMs},
        response_excerpt = ${out.excerpt}, updated_at = ${now} where id = ${job.id}`.execute(trx);
      await sql`update webhook_endpoints set failing_since = null where id = ${job.endpoint_id} and failing_since is not null`.execute(
        trx,
      );
      return;
    }
    const delay = out.gone ? null : retryDelayMs(job.attempts);
    await sql`update webhook_deliveries set state = ${delay === null ? 'failed' : 'pending'},
        next_attempt_at = ${delay === null ? null : new Date(now.getTime() + delay)},
        status_code = ${out.statusCode}, duration_ms = ${out.durationMs}, response_excerpt = ${out.excerpt}, updated_at = ${now}
      where id = ${job.id}`.execute(trx);
    const endpoint = (
      await sql<{ failing_since: Date | null; enabled: boolean; url: string }>`
        update webhook_endpoints set failing_since = coalesce(failing_since, ${now}) where id = ${job.endpoint_id}
        returning failing_since, enabled, url`.execute(trx)
    ).rows[0];
    if (!endpoint?.enabled) return;
    const failingFor = endpoint.failing_since ? now.getTime() - new Date(endpoint.failing_since).getTime() : 0;
    const reason = out.gone ? 'The endpoint answered 410 Gone' : failingFor >= FAILING_DISABLE_MS ? 'Failing for 5 days' : null;
    if (!reason) return;
    await sql`update webhook_endpoints set enabled = false, disabled_reason = ${reason} where id = ${job.endpoint_id}`.execute(
      trx,
    );
    // its other pending jobs stop with it
    await sql`update webhook_deliveries set state = 'failed', next_attempt_at = null, updated_at = ${now} where endpoint_id = ${job.endpoint_id} and state = 'pending'`.execute(
      trx,
    );
    await notify(trx, job.account_id, {
      kind: 'webhook.disabled',
      title: 'A webhook endpoint was turned off',
      body: `${endpoint.url}: ${reason}. Fix it, then enable it again under the app's Configuration > Webhooks.`,
      dedupeKey: `webhook-disabled:${job.endpoint_id}:${now.toISOString()}`,
    });
  });
}

/** One round: lease due jobs, deliver each endpoint's jobs in order, settle. Returns jobs leased. */
export async function deliverWebhooksOnce(
  deps: Pick<Deps, 'db' | 'config' | 'now' | 'log'>,
  options: WebhookWorkerOptions = {},
): Promise<number> {
  const o = { ...DEFAULTS, ...options };
  const jobs = await lease(deps, o);
  if (!jobs.length) return 0;
  const byEndpoint = new Map<string, Leased[]>();
  for (const j of jobs) byEndpoint.set(j.endpoint_id, [...(byEndpoint.get(j.endpoint_id) ?? []), j]);
  await Promise.all(
    [...byEndpoint.values()].map(async (group) => {
      for (const job of group) {
        try {
          const out = await post(deps, job);
          // delivered, or failed this attempt (retried later or given up on): never which endpoint
          metrics?.webhookDeliveries.inc({ outcome: out.ok ? 'delivered' : 'failed' });
          await settle(deps, job, out);
        } catch (err) {
          deps.log(`webhook delivery ${job.id} failed to settle`, err);
        }
      }
    }),
  );
  return jobs.length;
}

export type WebhookWorker = { stop(): Promise<void>; kick(): void };

export function startWebhookWorker(
  deps: Pick<Deps, 'db' | 'config' | 'now' | 'log'>,
  options: WebhookWorkerOptions = {},
): WebhookWorker {
  const o = { ...DEFAULTS, ...options };
  let stopped = false;
  let wake: (() => void) | null = null;
  const loop = (async () => {
    while (!stopped) {
      let n = 0;
      try {
        n = await deliverWebhooksOnce(deps, o);
      } catch (err) {
        if (stopped) break;
        deps.log('webhook round failed', err);
      }
      if (stopped) break;
      if (n < o.batchSize) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, o.pollMs);
          wake = () => (clearTimeout(timer), resolve());
        });
        wake = null;
      }
    }
  })();
  return {
    kick: () => wake?.(),
    stop: async () => {
      stopped = true;
      wake?.();
      await loop;
    },
  };
}
