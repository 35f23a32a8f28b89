import type { Config } from '../config';
import { DEFAULT_LOG_GROUP, type DatadogSite, type DestinationSettings, type LogDestination } from '../contract/logging';
import { OutboundError, outboundFetch, outboundPolicy } from './outbound';
import { errorText } from '../http/error-text';

// Delivery of a batch of events to one destination. Each shipper throws on failure (the queue
// retries); success means the destination acknowledged the whole batch.

export type LogEvent = {
  id: number | string;
  timestamp: string;
  accountId: string;
  namespace: string;
  event: string;
  description: string;
  admin: { firstName: string; lastName: string } | null;
  [extra: string]: unknown;
};

export type ShipperConfig = Pick<Config, 'outboundAllowHosts' | 'outboundCa' | 'datadogIntakeUrl' | 'cloudwatchEndpoint'>;

export class DeliveryError extends Error {
  constructor(
    message: string,
    /** false when retrying cannot help (refused target, rejected credentials stay retryable) */
    readonly retryable = true,
  ) {
    super(message);
    this.name = 'DeliveryError';
  }
}

const DATADOG_INTAKE: Record<DatadogSite, string> = {
  us1: 'https://http-intake.logs.datadoghq.com',
  us3: 'https://http-intake.logs.us3.datadoghq.com',
  us5: 'https://http-intake.logs.us5.datadoghq.com',
  eu: 'https://http-intake.logs.datadoghq.eu',
  ap1: 'https://http-intake.logs.ap1.datadoghq.com',
};

export function datadogIntakeUrl(config: ShipperConfig, site: DatadogSite): string {
  return `${config.datadogIntakeUrl ?? DATADOG_INTAKE[site]}/api/v2/logs`;
}

function message(e: LogEvent): string {
  const who = e.admin ? `${e.admin.firstName} ${e.admin.lastName}`.trim() : 'provider';
  return `[${e.namespace}] ${e.event}: ${e.description} (by ${who})`;
}

async function post(
  config: ShipperConfig,
  url: string,
  headers: Record<string, string>,
  body: string,
  signal?: AbortSignal,
): Promise<void> {
  let res;
  try {
    res = await outboundFetch(
      url,
      { method: 'POST', headers, body, signal },
      { ...outboundPolicy(config), timeoutMs: 15_000, maxBytes: 64 * 1024 },
    );
  } catch (err) {
    if (err instanceof OutboundError) throw new DeliveryError(err.message, err.code !== 'TARGET_NOT_ALLOWED');
    throw err;
  }
  if (!res.ok)
    throw new DeliveryError(`The destination answered ${res.status}${res.text() ? `: ${res.text().slice(0, 200)}` : ''}`);
}

const ndjson = (events: LogEvent[]) =>
  events.map((e) => JSON.stringify({ ...e, message: message(e), service: 'switchboard' })).join('\n');

async function shipDatadog(config: ShipperConfig, s: DestinationSettings['datadog'], events: LogEvent[], signal?: AbortSignal) {
  const body = events.map((e) => ({
    ddsource: 'switchboard',
    service: 'switchboard',
    ddtags: `account:${e.accountId},namespace:${e.namespace},event:${e.event}`,
    message: message(e),
    timestamp: Date.parse(e.timestamp),
    switchboard: e,
  }));
  await post(
    config,
    datadogIntakeUrl(config, s.site),
    { 'content-type': 'application/json', 'dd-api-key': s.apiKey },
    JSON.stringify(body),
    signal,
  );
}

async function shipSumo(config: ShipperConfig, s: DestinationSettings['sumologic'], events: LogEvent[], signal?: AbortSignal) {
  // A Sumo Logic HTTP source takes one log line per line of the body.
  await post(
    config,
    s.collectorUrl,
    { 'content-type': 'text/plain', 'x-sumo-name': 'switchboard', 'x-sumo-category': 'switchboard/audit' },
    ndjson(events),
    signal,
  );
}

async function shipRapid7(config: ShipperConfig, s: DestinationSettings['rapid7'], events: LogEvent[], signal?: AbortSignal) {
  // Rapid7 InsightOps webhook logs split the body into entries at newlines.
  await post(config, s.webhookUrl, { 'content-type': 'text/plain' }, ndjson(events), signal);
}

async function shipCloudwatch(
  config: ShipperConfig,
  s: DestinationSettings['cloudwatch'],
  events: LogEvent[],
  signal?: AbortSignal,
) {
  // The SDK is large; it is loaded only by processes that actually ship to CloudWatch.
  const cw = await import('@aws-sdk/client-cloudwatch-logs');
  const client = new cw.CloudWatchLogsClient({
    region: s.region,
    credentials: { accessKeyId: s.accessKeyId, secretAccessKey: s.secretAccessKey },
    endpoint: config.cloudwatchEndpoint,
    maxAttempts: 1,
    requestHandler: { requestTimeout: 15_000, connectionTimeout: 5_000 } as never,
  });
  const logGroupName = s.logGroup || DEFAULT_LOG_GROUP;
  const logStreamName = `switchboard-${events[0]?.accountId ?? 'events'}`;
  const logEvents = events
    .map((e) => ({ timestamp: Date.parse(e.timestamp) || Date.now(), message: JSON.stringify({ ...e, message: message(e) }) }))
    .sort((a, b) => a.timestamp - b.timestamp);
  const put = () => client.send(new cw.PutLogEventsCommand({ logGroupName, logStreamName, logEvents }), { abortSignal: signal });
  try {
    try {
      await put();
    } catch (err) {
      if ((err as { name?: string }).name !== 'ResourceNotFoundException') throw err;
      // First delivery: the stream (and perhaps the group) does not exist yet.
      await client.send(new cw.CreateLogGroupCommand({ logGroupName }), { abortSignal: signal }).catch((e: { name?: string }) => {
        if (e.name !== 'ResourceAlreadyExistsException') throw e;
      });
      await client
        .send(new cw.CreateLogStreamCommand({ logGroupName, logStreamName }), { abortSignal: signal })
        .catch((e: { name?: string }) => {
          if (e.name !== 'ResourceAlreadyExistsException') throw e;
        });
      await put();
    }
  } catch (err) {
    const e = err as { name?: string; message?: string; $metadata?: { httpStatusCode?: number } };
    throw new DeliveryError(`CloudWatch: ${e.name ?? 'error'}${e.message ? ` (${e.message})` : ''}`);
  } finally {
    client.destroy();
  }
}

/**
 * Delivers events. A failure's text is stored (log_outbox.last_error), shown (GET /logging,
 * the test button) and logged, so it leaves here with the destination's secrets taken out:
 * a collector may echo the key it refused, and the HTTP client quotes what it could not send.
 */
export async function ship<D extends LogDestination>(
  config: ShipperConfig,
  destination: D,
  settings: DestinationSettings[D],
  events: LogEvent[],
  signal?: AbortSignal,
): Promise<void> {
  if (!events.length) return;
  try {
    switch (destination) {
      case 'datadog':
        return await shipDatadog(config, settings as DestinationSettings['datadog'], events, signal);
      case 'cloudwatch':
        return await shipCloudwatch(config, settings as DestinationSettings['cloudwatch'], events, signal);
      case 'sumologic':
        return await shipSumo(config, settings as DestinationSettings['sumologic'], events, signal);
      case 'rapid7':
        return await shipRapid7(config, settings as DestinationSettings['rapid7'], events, signal);
    }
  } catch (err) {
    const text = errorText(err, { secrets: Object.values(settings as Record<string, unknown>).map(String), max: 500 });
    throw new DeliveryError(text, err instanceof DeliveryError ? err.retryable : true);
  }
}
