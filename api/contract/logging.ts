import * as v from 'valibot';

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
  'us-east-1', 'us-east-2', 'us-west-1', 'us-west-2',
  'af-south-1',
  'ap-east-1', 'ap-south-1', 'ap-south-2', 'ap-southeast-1', 'ap-southeast-2', 'ap-southeast-3', 'ap-southeast-4',
  'ap-northeast-1', 'ap-northeast-2', 'ap-northeast-3',
  'ca-central-1', 'ca-west-1',
  'eu-central-1', 'eu-central-2', 'eu-west-1', 'eu-west-2', 'eu-west-3', 'eu-south-1', 'eu-south-2', 'eu-north-1',
  'il-central-1',
  'me-south-1', 'me-central-1',
  'sa-east-1',
] as const;
export type AwsRegion = (typeof AWS_REGIONS)[number];

const required = (message: string, max = 500) => v.pipe(v.string(message), v.trim(), v.nonEmpty(message), v.maxLength(max, 'This value is too long'));
const httpsUrl = (message: string) =>
  v.pipe(required(message, 2000), v.url('Must be a valid URL'), v.startsWith('https://', 'URL must start with https://'));

export const DatadogSettingsSchema = v.object({
  apiKey: required('API Key is required'),
  site: v.optional(v.picklist(DATADOG_SITES, 'Datadog Site is required'), 'us1'),
});
export const CloudwatchSettingsSchema = v.object({
  accessKeyId: required('AWS Access Key ID is required', 128),
  secretAccessKey: required('AWS Secret Access Key is required'),
  region: v.optional(v.picklist(AWS_REGIONS, 'AWS Region is required'), 'us-east-1'),
  /** free text; empty means the default group */
  logGroup: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(512, 'Log group is too long'), v.regex(/^[.\-_/#A-Za-z0-9]*$/, 'Log group may only contain letters, digits and . - _ / #')), ''),
});
export const SumologicSettingsSchema = v.object({ collectorUrl: httpsUrl('Collector URL is required') });
export const Rapid7SettingsSchema = v.object({ webhookUrl: httpsUrl('Webhook URL is required') });

export const DEFAULT_LOG_GROUP = 'switchboard';

/** POST /logging and POST /logging/test: the destination plus its settings keyed by its name. */
export const LoggingBodySchema = v.variant('destination', [
  v.object({ destination: v.literal('datadog'), datadog: DatadogSettingsSchema }),
  v.object({ destination: v.literal('cloudwatch'), cloudwatch: CloudwatchSettingsSchema }),
  v.object({ destination: v.literal('sumologic'), sumologic: SumologicSettingsSchema }),
  v.object({ destination: v.literal('rapid7'), rapid7: Rapid7SettingsSchema }),
], 'Destination must be one of datadog, cloudwatch, sumologic, rapid7');
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
  /** events waiting for delivery, and whether the last attempt failed */
  pending: v.number(),
  lastError: v.nullable(v.string()),
});
export type DestinationView = v.InferOutput<typeof DestinationViewSchema>;

export const LoggingSettingsSchema = v.object({
  datadog: v.optional(DestinationViewSchema),
  cloudwatch: v.optional(DestinationViewSchema),
  sumologic: v.optional(DestinationViewSchema),
  rapid7: v.optional(DestinationViewSchema),
});
export type LoggingSettings = v.InferOutput<typeof LoggingSettingsSchema>;

export const LoggingDeleteBodySchema = v.object({ destination: v.picklist(LOG_DESTINATIONS, 'Destination must be one of datadog, cloudwatch, sumologic, rapid7') });

export const LoggingTestAnswerSchema = v.object({ wasSuccessful: v.boolean(), error: v.optional(v.string()) });
export type LoggingTestAnswer = v.InferOutput<typeof LoggingTestAnswerSchema>;
