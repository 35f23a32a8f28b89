import * as v from 'valibot';
import { text, urlScheme, urlSchema } from './common';
import { keptSecret, requiredSecret } from './secret-text';

export const LOG_DESTINATIONS = ['datadog', 'cloudwatch', 'sumologic', 'rapid7'] as const;
export type LogDestination = (typeof LOG_DESTINATIONS)[number];

export const LOG_DESTINATION_TITLES: Record<LogDestination | 'sftp', string> = {
  datadog: 'Datadog',
  cloudwatch: 'CloudWatch',
  sumologic: 'Sumo Logic',
  rapid7: 'Rapid7',
  sftp: 'SFTP',
};

export const DATADOG_SITES = ['us1', 'us3', 'us5', 'eu', 'ap1'] as const;
export type DatadogSite = (typeof DATADOG_SITES)[number];

/** The 29 regions offered for CloudWatch. */
export const AWS_REGIONS = [
  'us-east-1',
  'us-east-2',
  'us-west-1',
  'us-west-2',
  'af-south-1',
  'ap-east-1',
  'ap-south-1',
  'ap-south-2',
  'ap-southeast-1',
  'ap-southeast-2',
  'ap-southeast-3',
  'ap-southeast-4',
  'ap-northeast-1',
  'ap-northeast-2',
  'ap-northeast-3',
  'ca-central-1',
  'ca-west-1',
  'eu-central-1',
  'eu-central-2',
  'eu-west-1',
  'eu-west-2',
  'eu-west-3',
  'eu-south-1',
  'eu-south-2',
  'eu-north-1',
  'il-central-1',
  'me-south-1',
  'me-central-1',
  'sa-east-1',
] as const;
export type AwsRegion = (typeof AWS_REGIONS)[number];

const required = (message: string, max = 500) => requiredSecret(message, max);
/** Blank keeps the stored value: a connected destination is managed without typing its secrets again. */
const kept = (message: string, max = 500) => keptSecret(message, max);
const httpsUrl = (message: string, connected: boolean) =>
  connected
    ? v.pipe(
        kept(message, 2000),
        v.check((s) => s === '' || urlScheme(s) !== null, 'Must be a valid URL'),
        v.check((s) => s === '' || urlScheme(s) === 'https', 'URL must start with https://'),
      )
    : urlSchema({ required: message, invalid: 'Must be a valid URL', https: 'URL must start with https://' });

/** The settings that are secret: write-only, and blank keeps the stored value when connected. */
export const SECRET_FIELDS = {
  datadog: ['apiKey'],
  cloudwatch: ['accessKeyId', 'secretAccessKey'],
  sumologic: ['collectorUrl'],
  rapid7: ['webhookUrl'],
} as const satisfies Record<LogDestination, readonly string[]>;

/**
 * What each destination's secrets are bound to: a blank secret keeps the stored one only while
 * these stay as they were (a new Datadog site or AWS region is a new destination, and a kept
 * key must not be sent there). Sumo Logic and Rapid7 secrets are the addresses themselves.
 */
export const SECRET_BOUND_TO = {
  datadog: ['site'],
  cloudwatch: ['region'],
  sumologic: [],
  rapid7: [],
} as const satisfies Record<LogDestination, readonly string[]>;

/** The SPEC's message for each secret field left blank where it is needed. */
export const SECRET_REQUIRED_MESSAGES: Record<LogDestination, Record<string, string>> = {
  datadog: { apiKey: 'API Key is required' },
  cloudwatch: { accessKeyId: 'AWS Access Key ID is required', secretAccessKey: 'AWS Secret Access Key is required' },
  sumologic: { collectorUrl: 'Collector URL is required' },
  rapid7: { webhookUrl: 'Webhook URL is required' },
};

// `connected`: the destination is already configured for the account, so its secret fields may
// be blank (the stored values are kept); on a first connect they are required.
export const datadogSettingsSchema = (connected: boolean) =>
  v.object({
    apiKey: connected ? kept('API Key is required') : required('API Key is required'),
    site: v.optional(v.picklist(DATADOG_SITES, 'Datadog Site is required'), 'us1'),
  });
export const cloudwatchSettingsSchema = (connected: boolean) =>
  v.object({
    accessKeyId: connected ? kept('AWS Access Key ID is required', 128) : required('AWS Access Key ID is required', 128),
    secretAccessKey: connected ? kept('AWS Secret Access Key is required') : required('AWS Secret Access Key is required'),
    region: v.optional(v.picklist(AWS_REGIONS, 'AWS Region is required'), 'us-east-1'),
    /** SPEC §5's "free text", read as the names CloudWatch takes (docs/settings.md); empty means the default group */
    logGroup: v.optional(
      v.pipe(
        text(),
        v.trim(),
        v.maxLength(512, 'Log group is too long'),
        v.regex(/^[.\-_/#A-Za-z0-9]*$/, 'Log group may only contain letters, digits and . - _ / #'),
      ),
      '',
    ),
  });
export const sumologicSettingsSchema = (connected: boolean) =>
  v.object({ collectorUrl: httpsUrl('Collector URL is required', connected) });
export const rapid7SettingsSchema = (connected: boolean) =>
  v.object({ webhookUrl: httpsUrl('Webhook URL is required', connected) });

export const DatadogSettingsSchema = datadogSettingsSchema(false);
export const CloudwatchSettingsSchema = cloudwatchSettingsSchema(false);
export const SumologicSettingsSchema = sumologicSettingsSchema(false);
export const Rapid7SettingsSchema = rapid7SettingsSchema(false);

export const DEFAULT_LOG_GROUP = 'switchboard';

/**
 * POST /logging and POST /logging/test: the destination plus its settings keyed by its name.
 * `isConnected` says which destinations are already configured for the account: their secret
 * fields may be left blank to keep the stored values.
 */
export function loggingBodySchema(isConnected: (destination: LogDestination) => boolean = () => false) {
  return v.variant(
    'destination',
    [
      // Left out, the settings read as empty: each field answers its own message.
      v.object({ destination: v.literal('datadog'), datadog: v.optional(datadogSettingsSchema(isConnected('datadog')), {}) }),
      v.object({
        destination: v.literal('cloudwatch'),
        cloudwatch: v.optional(cloudwatchSettingsSchema(isConnected('cloudwatch')), {}),
      }),
      v.object({
        destination: v.literal('sumologic'),
        sumologic: v.optional(sumologicSettingsSchema(isConnected('sumologic')), {}),
      }),
      v.object({ destination: v.literal('rapid7'), rapid7: v.optional(rapid7SettingsSchema(isConnected('rapid7')), {}) }),
    ],
    'Destination must be one of datadog, cloudwatch, sumologic, rapid7',
  );
}
/** A first connect: every secret field required. */
export const LoggingBodySchema = loggingBodySchema();
export type LoggingBody = v.InferOutput<typeof LoggingBodySchema>;
export type LoggingBodyInput = v.InferInput<typeof LoggingBodySchema>;

export type DestinationSettings = {
  datadog: v.InferOutput<typeof DatadogSettingsSchema>;
  cloudwatch: v.InferOutput<typeof CloudwatchSettingsSchema>;
  sumologic: v.InferOutput<typeof SumologicSettingsSchema>;
  rapid7: v.InferOutput<typeof Rapid7SettingsSchema>;
};

/** What may be shown of a connected destination (no keys, no URLs: collector URLs carry tokens). */
export const DestinationViewSchema = v.object({
  connected: v.literal(true),
  site: v.optional(v.picklist(DATADOG_SITES)),
  region: v.optional(v.picklist(AWS_REGIONS)),
  logGroup: v.optional(v.string()),
  /** events still being delivered (retried with back-off) */
  waiting: v.number(),
  /** the same as `waiting` (the name of earlier answers) */
  pending: v.number(),
  /** the last delivery error of the waiting events, if their last attempt failed */
  lastError: v.nullable(v.string()),
  /** events given up after the maximum number of attempts; POST /logging/retry sends them again */
  failed: v.number(),
  /** the last error of the given-up events */
  failedError: v.nullable(v.string()),
  /** log shipments carry full phone numbers (opted in per destination); masked otherwise */
  fullPhoneNumbers: v.boolean(),
});
export type DestinationView = v.InferOutput<typeof DestinationViewSchema>;

export const LoggingSettingsSchema = v.object({
  datadog: v.optional(DestinationViewSchema),
  cloudwatch: v.optional(DestinationViewSchema),
  sumologic: v.optional(DestinationViewSchema),
  rapid7: v.optional(DestinationViewSchema),
});
export type LoggingSettings = v.InferOutput<typeof LoggingSettingsSchema>;

export const LoggingDeleteBodySchema = v.object({
  destination: v.picklist(LOG_DESTINATIONS, 'Destination must be one of datadog, cloudwatch, sumologic, rapid7'),
});

/** POST /logging/retry: sends the given-up events of one destination again; answers its view. */
export const LoggingRetryBodySchema = LoggingDeleteBodySchema;

export const LoggingTestAnswerSchema = v.object({ wasSuccessful: v.boolean(), error: v.optional(v.string()) });
export type LoggingTestAnswer = v.InferOutput<typeof LoggingTestAnswerSchema>;
