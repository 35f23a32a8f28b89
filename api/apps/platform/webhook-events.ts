import crypto from 'node:crypto';
import { sql } from 'kysely';
import type { Trx } from '../../db/index';
import { later } from '../../db/batch';
import type { AppId } from '../../contract/apps';
import type { WebhookDelivery, WebhookEndpoint, WebhookEvent } from '../../contract/platform';

// Webhook events are written in the transaction of the change that caused them, with one
// delivery job per subscribed endpoint; api/integrations/webhooks.ts delivers them.

/** Queues `type` for every enabled endpoint of the app that wants it; answers the event id. */
export async function enqueueWebhookEvent(
  trx: Trx,
  accountId: string,
  app: AppId,
  type: string,
  data: Record<string, unknown>,
  now: Date,
  onlyEndpoint?: string,
): Promise<string> {
  // the id is made here (no round trip to ask the database for one), and the event and its
  // deliveries are written by one statement, sent with the transaction's next one or its COMMIT
  const id = crypto.randomUUID();
  const event: WebhookEvent = {
    id: `evt_${id.replaceAll('-', '')}`,
    type,
    created: Math.floor(now.getTime() / 1000),
    account: accountId,
    data,
  };
  await later(
    trx,
    sql`with event as (insert into webhook_events (id, account_id, app, type, payload, created_at) values (${id}, ${accountId}, ${app}, ${type}, ${JSON.stringify(event)}::jsonb, ${now}))
    insert into webhook_deliveries (account_id, endpoint_id, event_id, state, next_attempt_at, created_at, updated_at)
    select account_id, id, ${id}, 'pending', ${now}, ${now}, ${now} from webhook_endpoints
    where account_id = ${accountId} and app = ${app} and enabled
      ${onlyEndpoint ? sql`and id = ${onlyEndpoint}` : sql`and ${type} = any(event_types)`}`,
  );
  return id;
}

type EndpointRow = {
  id: string;
  url: string;
  event_types: string[];
  enabled: boolean;
  disabled_reason: string | null;
  created_at: Date;
  full_phone_numbers: boolean;
};

export const endpointOf = (r: EndpointRow): WebhookEndpoint => ({
  id: r.id,
  url: r.url,
  eventTypes: r.event_types,
  enabled: r.enabled,
  disabledReason: r.disabled_reason,
  createdAt: new Date(r.created_at).toISOString(),
  fullPhoneNumbers: r.full_phone_numbers,
});

export async function listEndpoints(trx: Trx, accountId: string, app: AppId): Promise<WebhookEndpoint[]> {
  const rows = await trx
    .selectFrom('webhook_endpoints')
    .select(['id', 'url', 'event_types', 'enabled', 'disabled_reason', 'created_at', 'full_phone_numbers'])
    .where('account_id', '=', accountId)
    .where('app', '=', app)
    .orderBy('created_at')
    .execute();
  return rows.map(endpointOf);
}

export async function endpointById(trx: Trx, accountId: string, app: AppId, id: string): Promise<WebhookEndpoint | null> {
  const row = await trx
    .selectFrom('webhook_endpoints')
    .select(['id', 'url', 'event_types', 'enabled', 'disabled_reason', 'created_at', 'full_phone_numbers'])
    .where('account_id', '=', accountId)
    .where('app', '=', app)
    .where('id', '=', id)
    .executeTakeFirst();
  return row ? endpointOf(row) : null;
}

export async function deliveriesOf(trx: Trx, accountId: string, endpointId: string, limit = 100): Promise<WebhookDelivery[]> {
  const rows = await sql<{
    id: string;
    event_id: string;
    type: string;
    attempts: number;
    state: 'pending' | 'succeeded' | 'failed';
    status_code: number | null;
    duration_ms: number | null;
    response_excerpt: string | null;
    next_attempt_at: Date | null;
    created_at: Date;
  }>`
    select d.id, d.event_id, e.type, d.attempts, d.state, d.status_code, d.duration_ms, d.response_excerpt, d.next_attempt_at, d.created_at
    from webhook_deliveries d join webhook_events e on e.id = d.event_id
    where d.account_id = ${accountId} and d.endpoint_id = ${endpointId}
    order by d.created_at desc, d.seq desc limit ${limit}`.execute(trx);
  return rows.rows.map((r) => ({
    id: r.id,
    eventId: `evt_${r.event_id.replaceAll('-', '')}`,
    eventType: r.type,
    attempt: r.attempts,
    status: r.state,
    statusCode: r.status_code,
    durationMs: r.duration_ms,
    responseExcerpt: r.response_excerpt,
    nextRetryAt: r.state === 'pending' && r.next_attempt_at ? new Date(r.next_attempt_at).toISOString() : null,
    createdAt: new Date(r.created_at).toISOString(),
  }));
}
