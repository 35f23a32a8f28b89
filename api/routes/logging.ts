import { Hono } from 'hono';
import * as v from 'valibot';
import type { AppEnv } from '../auth/context';
import { requireRole } from '../auth/guards';
import { audit, actorOf } from '../audit';
import { encryptSecret } from '../crypto';
import {
  DEFAULT_LOG_GROUP,

  LOG_DESTINATION_TITLES,
  LoggingBodySchema,
  LoggingDeleteBodySchema,
  type DestinationSettings,
  type DestinationView,
  type LogDestination,
  type LoggingBody,
  type LoggingSettings,
  type LoggingTestAnswer,
} from '../contract/logging';
import type { Trx } from '../db/index';
import { ApiError } from '../http/errors';
import { validate, validationError } from '../http/validate';
import { checkUrl, OutboundError } from '../integrations/outbound';
import { DeliveryError, ship } from '../integrations/log-shippers';
import type { Config } from '../config';

function settingsOf(body: LoggingBody): { destination: LogDestination; settings: DestinationSettings[LogDestination] } {
  const destination = body.destination;
  return { destination, settings: (body as unknown as Record<string, DestinationSettings[LogDestination]>)[destination] };
}

/** Collector and webhook URLs are refused up front when they name a non-public address. */
function checkTargets(config: Config, destination: LogDestination, settings: DestinationSettings[LogDestination]) {
  const url = destination === 'sumologic' ? (settings as DestinationSettings['sumologic']).collectorUrl : destination === 'rapid7' ? (settings as DestinationSettings['rapid7']).webhookUrl : null;
  if (!url) return;
  try {
    checkUrl(url, { allowHosts: config.outboundAllowHosts });
  } catch (err) {
    if (err instanceof OutboundError) throw new ApiError(422, 'TARGET_NOT_ALLOWED', err.message, { [`${destination}.${destination === 'sumologic' ? 'collectorUrl' : 'webhookUrl'}`]: err.message });
    throw err;
  }
}

function viewFields(destination: LogDestination, settings: DestinationSettings[LogDestination]): Record<string, string> {
  if (destination === 'datadog') return { site: (settings as DestinationSettings['datadog']).site };
  if (destination === 'cloudwatch') {
    const s = settings as DestinationSettings['cloudwatch'];
    return { region: s.region, logGroup: s.logGroup || DEFAULT_LOG_GROUP };
  }
  return {};
}

async function current(trx: Trx, accountId: string): Promise<LoggingSettings> {
  const rows = await trx.selectFrom('logging_destinations').select(['destination', 'view']).where('account_id', '=', accountId).execute();
  const pending = await trx
    .selectFrom('log_outbox')
    .select(['destination', (eb) => eb.fn.countAll<number>().as('n'), (eb) => eb.fn.max('last_error').as('last_error')])
    .where('account_id', '=', accountId)
    .groupBy('destination')
    .execute();
  const out: LoggingSettings = {};
  for (const r of rows) {
    const p = pending.find((x) => x.destination === r.destination);
    out[r.destination] = { connected: true, ...(r.view as object), pending: Number(p?.n ?? 0), lastError: (p?.last_error as string | null) ?? null } as DestinationView;
  }
  return out;
}

function parseBody(raw: unknown): LoggingBody {
  const parsed = v.safeParse(LoggingBodySchema, raw);
  if (!parsed.success) throw validationError(parsed.issues);
  return parsed.output;
}

export const loggingRoutes = new Hono<AppEnv>()
  .use('/logging', requireRole('admin'))
  .use('/logging/*', requireRole('admin'))
  .get('/logging', async (c) => {
    const { accountId } = c.var.session;
    return c.json(await c.var.deps.db.tenant(accountId, (trx) => current(trx, accountId)));
  })
  .post('/logging', validate('json', LoggingBodySchema), async (c) => {
    const { destination, settings } = settingsOf(c.req.valid('json'));
    const session = c.var.session;
    const { db, config } = c.var.deps;
    checkTargets(config, destination, settings);
    const answer = await db.tenant(session.accountId, async (trx) => {
      const values = { view: JSON.stringify(viewFields(destination, settings)), settings_enc: encryptSecret(JSON.stringify(settings), config.encryptionKey) };
      const existed = await trx.selectFrom('logging_destinations').select('destination').where('account_id', '=', session.accountId).where('destination', '=', destination).executeTakeFirst();
      await trx
        .insertInto('logging_destinations')
        .values({ account_id: session.accountId, destination, ...values })
        .onConflict((oc) => oc.columns(['account_id', 'destination']).doUpdateSet({ ...values, updated_at: new Date() }))
        .execute();
      await audit(trx, session.accountId, actorOf(session), {
        namespace: 'global',
        description: `${existed ? 'Updated' : 'Connected'} ${LOG_DESTINATION_TITLES[destination]} logging`,
        event: 'logging.configured',
      });
      const all = await current(trx, session.accountId);
      return { [destination]: all[destination] } as LoggingSettings;
    });
    return c.json(answer);
  })
  .post('/logging/test', async (c) => {
    const raw = await c.req.json().catch(() => {
      throw new ApiError(400, 'INVALID_BODY', 'The request body is not valid JSON.');
    });
    const { destination, settings } = settingsOf(parseBody(raw));
    const { config, now } = c.var.deps;
    const session = c.var.session;
    checkTargets(config, destination, settings);
    const event = {
      id: `test-${now().getTime()}`,
      timestamp: now().toISOString(),
      accountId: session.accountId,
      namespace: 'global',
      event: 'logging.test',
      description: `Test event from Switchboard to ${LOG_DESTINATION_TITLES[destination]}`,
      admin: session.ghost ? null : { firstName: session.firstName, lastName: session.lastName },
    };
    let answer: LoggingTestAnswer;
    try {
      await ship(config, destination, settings, [event]);
      answer = { wasSuccessful: true };
    } catch (err) {
      if (!(err instanceof DeliveryError)) throw err;
      if (!err.retryable) throw new ApiError(422, 'TARGET_NOT_ALLOWED', err.message);
      answer = { wasSuccessful: false, error: err.message };
    }
    return c.json(answer);
  })
  .delete('/logging', async (c) => {
    // The destination may come as a JSON body (the console) or as ?destination= (curl).
    const raw = c.req.query('destination') ? { destination: c.req.query('destination') } : await c.req.json().catch(() => ({}));
    const parsed = v.safeParse(LoggingDeleteBodySchema, raw);
    if (!parsed.success) throw validationError(parsed.issues);
    const { destination } = parsed.output;
    const session = c.var.session;
    const answer = await c.var.deps.db.tenant(session.accountId, async (trx) => {
      // Pending events of the destination go with it (foreign key cascade).
      const removed = await trx.deleteFrom('logging_destinations').where('account_id', '=', session.accountId).where('destination', '=', destination).returning('destination').executeTakeFirst();
      if (removed) {
        await audit(trx, session.accountId, actorOf(session), { namespace: 'global', description: `Disconnected ${LOG_DESTINATION_TITLES[destination]} logging`, event: 'logging.disconnected' });
      }
      return current(trx, session.accountId);
    });
    return c.json(answer);
  });

