import * as v from 'valibot';
import type { Session } from '../auth/context';
import { audit, actorOf } from '../audit';
import { sql } from 'kysely';
import { decryptSecret, encryptSecret } from '../crypto';
import {
  DEFAULT_LOG_GROUP,
  LOG_DESTINATION_TITLES,
  loggingBodySchema,
  SECRET_BOUND_TO,
  SECRET_FIELDS,
  SECRET_REQUIRED_MESSAGES,
  type DestinationSettings,
  type DestinationView,
  type LogDestination,
  type LoggingBody,
  type LoggingSettings,
  type LoggingTestAnswer,
} from '../contract/logging';
import type { Trx } from '../db/index';
import { ApiError } from '../http/errors';
import { validationError } from '../http/validate';
import { assertStorableInput } from '../http/text-guard';
import { checkUrl, OutboundError } from '../integrations/outbound';
import { DeliveryError, ship } from '../integrations/log-shippers';
import type { Config } from '../config';
import type { Deps } from '../deps';

// Settings > Logging: where an account's audit entries are shipped, tested and retried.

function settingsOf(body: LoggingBody): { destination: LogDestination; settings: DestinationSettings[LogDestination] } {
  const destination = body.destination;
  return { destination, settings: (body as unknown as Record<string, DestinationSettings[LogDestination]>)[destination] };
}

type Stored = Map<LogDestination, string>;

/** The account's connected destinations with their encrypted settings. */
async function storedSettings(trx: Trx, accountId: string): Promise<Stored> {
  const rows = await trx
    .selectFrom('logging_destinations')
    .select(['destination', 'settings_enc'])
    .where('account_id', '=', accountId)
    .execute();
  return new Map(rows.map((r) => [r.destination, r.settings_enc]));
}

/**
 * Checks a body against the contract, where the secrets of a connected destination may be
 * blank, and fills the blank ones from the stored settings (secrets are never sent back, so
 * managing a destination must not require typing them again).
 */
function resolveBody(config: Config, raw: unknown, stored: Stored) {
  const parsed = v.safeParse(
    loggingBodySchema((d) => stored.has(d)),
    raw,
  );
  if (!parsed.success) throw validationError(parsed.issues);
  assertStorableInput(raw);
  const { destination, settings } = settingsOf(parsed.output);
  const enc = stored.get(destination);
  if (!enc) return { destination, settings, kept: [] as string[] };
  const previous = JSON.parse(decryptSecret(enc, config.encryptionKey)) as Record<string, string>;
  const merged: Record<string, string> = { ...(settings as Record<string, string>) };
  const kept: string[] = [];
  // a stored secret goes only where it was entered for: a changed site or region needs it again
  const moved = SECRET_BOUND_TO[destination].some((k: string) => (previous[k] ?? '') !== (merged[k] ?? ''));
  const missing: Record<string, string> = {};
  for (const key of SECRET_FIELDS[destination]) {
    if (merged[key] !== '' || !previous[key]) continue;
    if (moved) missing[`${destination}.${key}`] = SECRET_REQUIRED_MESSAGES[destination][key]!;
    merged[key] = previous[key];
    kept.push(key);
  }
  if (Object.keys(missing).length) {
    throw new ApiError(400, 'VALIDATION_FAILED', Object.values(missing)[0]!, missing);
  }
  // What is saved or tested must satisfy the first-connect contract (a stored value may be missing).
  const complete = v.safeParse(loggingBodySchema(), { destination, [destination]: merged });
  if (!complete.success) throw validationError(complete.issues);
  return { destination, settings: settingsOf(complete.output).settings, kept };
}

/** Collector and webhook URLs are refused up front when they name a non-public address. */
function checkTargets(config: Config, destination: LogDestination, settings: DestinationSettings[LogDestination]) {
  const url =
    destination === 'sumologic'
      ? (settings as DestinationSettings['sumologic']).collectorUrl
      : destination === 'rapid7'
        ? (settings as DestinationSettings['rapid7']).webhookUrl
        : null;
  if (!url) return;
  try {
    checkUrl(url, { allowHosts: config.outboundAllowHosts });
  } catch (err) {
    if (err instanceof OutboundError)
      throw new ApiError(422, 'TARGET_NOT_ALLOWED', err.message, {
        [`${destination}.${destination === 'sumologic' ? 'collectorUrl' : 'webhookUrl'}`]: err.message,
      });
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

type Counts = { destination: string; waiting: number; failed: number; waiting_error: string | null; failed_error: string | null };

async function current(trx: Trx, accountId: string): Promise<LoggingSettings> {
  const rows = await trx
    .selectFrom('logging_destinations')
    .select(['destination', 'view', 'full_phone_numbers'])
    .where('account_id', '=', accountId)
    .execute();
  // Given-up events (failed_at set) are no longer retried by the worker: counted apart.
  const counts = await sql<Counts>`
    select destination,
      count(*) filter (where failed_at is null) as waiting,
      count(*) filter (where failed_at is not null) as failed,
      (array_agg(last_error order by id desc) filter (where failed_at is null and last_error is not null))[1] as waiting_error,
      (array_agg(last_error order by failed_at desc, id desc) filter (where failed_at is not null))[1] as failed_error
    from log_outbox where account_id = ${accountId}
    group by destination`.execute(trx);
  const out: LoggingSettings = {};
  for (const r of rows) {
    const n = counts.rows.find((x) => x.destination === r.destination);
    const waiting = Number(n?.waiting ?? 0);
    out[r.destination] = {
      connected: true,
      ...(r.view as object),
      waiting,
      pending: waiting,
      lastError: waiting ? (n?.waiting_error ?? null) : null,
      failed: Number(n?.failed ?? 0),
      failedError: n?.failed_error ?? null,
      fullPhoneNumbers: r.full_phone_numbers,
    } as DestinationView;
  }
  return out;
}

/** The connected destinations with what is waiting and what could not be delivered. */
export async function readLogging(deps: Deps, accountId: string): Promise<LoggingSettings> {
  return deps.db.tenant(accountId, (trx) => current(trx, accountId));
}

/** Connects or updates a destination; blank secrets keep the stored ones where they are bound. */
export async function saveLogging(deps: Deps, session: Session, raw: unknown): Promise<LoggingSettings> {
  const { db, config } = deps;
  // No outside call here: the read, the merge with stored secrets and the write share one transaction.
  return db.tenant(session.accountId, async (trx) => {
    const stored = await storedSettings(trx, session.accountId);
    const { destination, settings, kept } = resolveBody(config, raw, stored);
    checkTargets(config, destination, settings);
    const values = {
      view: JSON.stringify(viewFields(destination, settings)),
      settings_enc: encryptSecret(JSON.stringify(settings), config.encryptionKey),
    };
    const existed = stored.has(destination);
    await trx
      .insertInto('logging_destinations')
      .values({ account_id: session.accountId, destination, ...values })
      .onConflict((oc) => oc.columns(['account_id', 'destination']).doUpdateSet({ ...values, updated_at: new Date() }))
      .execute();
    await audit(trx, session.accountId, actorOf(session), {
      namespace: 'global',
      description: `${existed ? 'Updated' : 'Connected'} ${LOG_DESTINATION_TITLES[destination]} logging${kept.length ? ` (kept the stored ${kept.join(', ')})` : ''}`,
      event: 'logging.configured',
    });
    const all = await current(trx, session.accountId);
    return { [destination]: all[destination] } as LoggingSettings;
  });
}

/** Sends one test event with the typed settings (stored secrets filled in). */
export async function testLogging(deps: Deps, session: Session, raw: unknown): Promise<LoggingTestAnswer> {
  const { config, now, db } = deps;
  const stored = await db.tenant(session.accountId, (trx) => storedSettings(trx, session.accountId));
  const { destination, settings } = resolveBody(config, raw, stored);
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
  try {
    await ship(config, destination, settings, [event]);
    return { wasSuccessful: true };
  } catch (err) {
    if (!(err instanceof DeliveryError)) throw err;
    if (!err.retryable) throw new ApiError(422, 'TARGET_NOT_ALLOWED', err.message);
    return { wasSuccessful: false, error: err.message };
  }
}

/** Gives the events a destination gave up on another round of attempts. */
export async function retryLogging(deps: Deps, session: Session, destination: LogDestination): Promise<LoggingSettings> {
  const title = LOG_DESTINATION_TITLES[destination];
  return deps.db.tenant(session.accountId, async (trx) => {
    const connected = await trx
      .selectFrom('logging_destinations')
      .select('destination')
      .where('account_id', '=', session.accountId)
      .where('destination', '=', destination)
      .executeTakeFirst();
    if (!connected) throw new ApiError(404, 'LOGGING_NOT_CONNECTED', `${title} logging is not connected.`);
    // The last error stays until a delivery succeeds, so the card still says why meanwhile.
    const reset = await trx
      .updateTable('log_outbox')
      .set({ attempts: 0, next_attempt_at: sql<Date>`now()`, failed_at: null })
      .where('account_id', '=', session.accountId)
      .where('destination', '=', destination)
      .where('failed_at', 'is not', null)
      .returning('id')
      .execute();
    if (reset.length) {
      await audit(trx, session.accountId, actorOf(session), {
        namespace: 'global',
        description: `Retried ${reset.length} undelivered event${reset.length === 1 ? '' : 's'} to ${title} logging`,
        event: 'logging.retried',
      });
    }
    const all = await current(trx, session.accountId);
    return { [destination]: all[destination] } as LoggingSettings;
  });
}

export async function disconnectLogging(deps: Deps, session: Session, destination: LogDestination): Promise<LoggingSettings> {
  return deps.db.tenant(session.accountId, async (trx) => {
    // Pending events of the destination go with it (foreign key cascade).
    const removed = await trx
      .deleteFrom('logging_destinations')
      .where('account_id', '=', session.accountId)
      .where('destination', '=', destination)
      .returning('destination')
      .executeTakeFirst();
    if (removed) {
      await audit(trx, session.accountId, actorOf(session), {
        namespace: 'global',
        description: `Disconnected ${LOG_DESTINATION_TITLES[destination]} logging`,
        event: 'logging.disconnected',
      });
    }
    return current(trx, session.accountId);
  });
}
