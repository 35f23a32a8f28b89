import { sql } from 'kysely';
import type * as v from 'valibot';
import type { Deps } from '../../deps';
import { audit, type Actor } from '../../audit';
import type { AgentAppsAnswer, SmsContentAnswer, WebhookEndpoint, WebhookEndpointBodySchema } from '../../contract/platform';
import type { Session } from '../../auth/context';
import { accountTimeZone } from '../../branding/time-zone';
import { APPS, visibleApps } from '../../contract/apps';
import { appModule, type AppModule } from './registry';
import { saveAppSettings, storedAppSettings } from './app-settings';
import { companyName, renderTemplate, sendAccountSms, templatesOf } from './sms';
import { endpointById, enqueueWebhookEvent } from './webhook-events';

// What the routes every app shares (console-routes.ts, platform-routes.ts) do: the apps an agent
// may use, and the changes to an app's settings, its SMS texts and its webhook endpoints. Each
// change and its audit entry are one transaction; the routes check the input and answer.

type Db = Pick<Deps, 'db'>;
type EndpointBody = v.InferOutput<typeof WebhookEndpointBodySchema>;

/** The apps an agent may use now: active (trial, subscription, enterprise) and with actions. */
export async function agentApps(deps: Deps, session: Session): Promise<AgentAppsAnswer> {
  const { accountId } = session;
  const [billing, timeZone] = await deps.db.tenant(
    accountId,
    async (trx) =>
      [
        await trx.selectFrom('app_billing').select(['app', 'status']).where('account_id', '=', accountId).execute(),
        await accountTimeZone(trx, accountId),
      ] as const,
  );
  const active = new Set(
    billing
      .filter((b) => b.status === 'free-trial' || b.status === 'subscription' || b.status === 'enterprise')
      .map((b) => b.app),
  );
  const apps: AgentAppsAnswer['apps'] = [];
  const visible = new Set(visibleApps(session.email, deps.config.providerEmailDomain).map((a) => a.id));
  for (const app of APPS) {
    const module = appModule(app.id);
    // an app without billing (identity verification) is usable wherever it is visible
    if (module && visible.has(app.id) && (active.has(app.id) || !app.billable) && module.actions.length) {
      const unavailable = await module.unavailable?.(deps, accountId);
      apps.push({
        id: app.id,
        title: app.title,
        color: app.color,
        actions: [...module.actions],
        ...(unavailable ? { unavailable } : {}),
      });
    }
  }
  return { apps, timeZone };
}

/** Saves the app's general settings (already checked against its schema); answers them as read back. */
export async function saveGeneralSettings(
  deps: Db,
  accountId: string,
  actor: Actor,
  module: AppModule,
  general: Record<string, unknown>,
): Promise<unknown> {
  return deps.db.tenant(accountId, async (trx) => {
    await saveAppSettings(trx, accountId, module.id, { general });
    const summary = Object.entries(general)
      .map(([k, val]) => `${k} ${String(val)}`)
      .join(', ');
    await audit(trx, accountId, actor, {
      namespace: module.id,
      description: `Updated the general settings (${summary})`,
      event: 'app.settings-updated',
    });
    return module.settings.read(trx, accountId);
  });
}

/** Sets the given templates' texts (an empty text goes back to the app's default). */
export async function saveSmsContent(
  deps: Db,
  accountId: string,
  actor: Actor,
  module: AppModule,
  templates: Record<string, string>,
): Promise<SmsContentAnswer> {
  return deps.db.tenant(accountId, async (trx) => {
    const next = { ...(await storedAppSettings(trx, accountId, module.id)).templates };
    for (const [key, body] of Object.entries(templates)) {
      if (body.trim()) next[key] = body.trim();
      else delete next[key];
    }
    await saveAppSettings(trx, accountId, module.id, { templates: next });
    await audit(trx, accountId, actor, {
      namespace: module.id,
      description: `Updated the SMS content (${Object.keys(templates).join(', ')})`,
      event: 'app.sms-content-updated',
    });
    return { company: await companyName(trx, accountId), templates: templatesOf(module.id, module.templates, next) };
  });
}

/** Sends a template's text, filled with sample values, to the admin's own phone; audited once sent. */
export async function sendTestSms(
  deps: Pick<Deps, 'db' | 'config' | 'now' | 'log'>,
  accountId: string,
  actor: Actor,
  module: AppModule,
  phoneNumber: string,
  message: string,
): Promise<{ provider: string; text: string }> {
  const company = await deps.db.tenant(accountId, (trx) => companyName(trx, accountId));
  const text = renderTemplate(message, { code: '123456', company, ttl: '10', link: `${deps.config.publicUrl}/c/preview` });
  const sent = await sendAccountSms(deps, accountId, phoneNumber, text);
  await deps.db.tenant(accountId, (trx) =>
    audit(trx, accountId, actor, {
      namespace: module.id,
      description: `Sent a test SMS to ${phoneNumber}`,
      event: 'app.sms-test-sent',
    }),
  );
  return { provider: sent.provider, text };
}

export async function createWebhookEndpoint(
  deps: Db,
  accountId: string,
  actor: Actor,
  module: AppModule,
  body: EndpointBody,
): Promise<WebhookEndpoint | null> {
  return deps.db.tenant(accountId, async (trx) => {
    const row = await trx
      .insertInto('webhook_endpoints')
      .values({
        account_id: accountId,
        app: module.id,
        url: body.url,
        event_types: body.eventTypes,
        enabled: body.enabled,
        full_phone_numbers: body.fullPhoneNumbers ?? false,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await audit(trx, accountId, actor, {
      namespace: module.id,
      description: `Added the webhook endpoint ${body.url}`,
      event: 'webhook.created',
    });
    return endpointById(trx, accountId, module.id, row.id);
  });
}

/** Null when the app has no such endpoint. Turning an endpoint back on forgets why it was off. */
export async function updateWebhookEndpoint(
  deps: Db,
  accountId: string,
  actor: Actor,
  module: AppModule,
  id: string,
  body: EndpointBody,
): Promise<WebhookEndpoint | null> {
  return deps.db.tenant(accountId, async (trx) => {
    const row = await trx
      .updateTable('webhook_endpoints')
      .set({
        url: body.url,
        event_types: body.eventTypes,
        enabled: body.enabled,
        ...(body.fullPhoneNumbers === undefined ? {} : { full_phone_numbers: body.fullPhoneNumbers }),
        ...(body.enabled ? { disabled_reason: null, failing_since: null } : {}),
      })
      .where('account_id', '=', accountId)
      .where('app', '=', module.id)
      .where('id', '=', id)
      .returning('id')
      .executeTakeFirst();
    if (!row) return null;
    await audit(trx, accountId, actor, {
      namespace: module.id,
      description: `Updated the webhook endpoint ${body.url}${body.enabled ? '' : ' (disabled)'}`,
      event: 'webhook.updated',
    });
    return endpointById(trx, accountId, module.id, id);
  });
}

/** False when the app has no such endpoint. */
export async function removeWebhookEndpoint(
  deps: Db,
  accountId: string,
  actor: Actor,
  module: AppModule,
  id: string,
): Promise<boolean> {
  return deps.db.tenant(accountId, async (trx) => {
    const row = await trx
      .deleteFrom('webhook_endpoints')
      .where('account_id', '=', accountId)
      .where('app', '=', module.id)
      .where('id', '=', id)
      .returning('url')
      .executeTakeFirst();
    if (row)
      await audit(trx, accountId, actor, {
        namespace: module.id,
        description: `Removed the webhook endpoint ${row.url}`,
        event: 'webhook.deleted',
      });
    return row !== undefined;
  });
}

/** Queues a test event (the app's first event type) for one endpoint; null when there is no such endpoint. */
export async function sendWebhookTest(
  deps: Pick<Deps, 'db' | 'now'>,
  accountId: string,
  actor: Actor,
  module: AppModule,
  id: string,
): Promise<string | null> {
  const now = deps.now();
  return deps.db.tenant(accountId, async (trx) => {
    const endpoint = await endpointById(trx, accountId, module.id, id);
    if (!endpoint) return null;
    const eventId = await enqueueWebhookEvent(
      trx,
      accountId,
      module.id,
      module.eventTypes[0]!,
      { test: true, message: 'This is a test event from Switchboard.' },
      now,
      id,
    );
    await audit(trx, accountId, actor, {
      namespace: module.id,
      description: `Sent a test event to ${endpoint.url}`,
      event: 'webhook.test-sent',
    });
    return eventId;
  });
}

/** Delivers the same event again, as a new job (the receiver sees the same event id); null when the app has no such delivery. */
export async function resendWebhookDelivery(
  deps: Pick<Deps, 'db' | 'now'>,
  accountId: string,
  actor: Actor,
  module: AppModule,
  deliveryId: string,
): Promise<string | null> {
  const now = deps.now();
  return deps.db.tenant(accountId, async (trx) => {
    const row = (
      await sql<{ event_id: string; endpoint_id: string; url: string }>`
        insert into webhook_deliveries (account_id, endpoint_id, event_id, state, next_attempt_at, created_at, updated_at)
        select d.account_id, d.endpoint_id, d.event_id, 'pending', ${now}, ${now}, ${now}
        from webhook_deliveries d join webhook_endpoints p on p.id = d.endpoint_id
        where d.id = ${deliveryId} and d.account_id = ${accountId} and p.app = ${module.id}
        returning event_id, endpoint_id, (select url from webhook_endpoints where id = endpoint_id) as url`.execute(trx)
    ).rows[0];
    if (!row) return null;
    await audit(trx, accountId, actor, {
      namespace: module.id,
      description: `Resent a webhook event to ${row.url}`,
      event: 'webhook.resent',
    });
    return row.event_id;
  });
}
