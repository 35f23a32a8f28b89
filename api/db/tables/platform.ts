import type { ColumnType, Generated } from 'kysely';
import type { Timestamp, CreatedAt, Json } from './columns';

// What every area shares: jobs, the audit log, counts and results, notifications, SMS, customer
// lookup, logging, the apps' settings and webhooks, customer links and stored files. Row types as
// Kysely sees them; the SQL is in api/db/migrations.

export interface JobsTable {
  name: string;
  interval_seconds: number;
  next_run_at: Date;
  locked_until: Date | null;
  locked_by: string | null;
  last_started_at: Date | null;
  last_finished_at: Date | null;
  last_error: string | null;
  runs: Generated<number>;
  last_run_by: string | null;
  /** traceparents of the traced requests that asked for the next run (its span links to them) */
  trace_links: string[] | null;
}

export interface AuditLogTable {
  id: Generated<number>;
  account_id: string;
  ts: Generated<Date>;
  /** null when the provider acted (ghost mode, staff actions) */
  admin_id: string | null;
  admin_first_name: string | null;
  admin_last_name: string | null;
  namespace: string;
  description: string;
  event: string;
}

export interface AuditCountsTable {
  account_id: string;
  count: number;
}

/** Rows in each app's task table per account, kept by triggers (migration 0710): the list's x-count. */
export interface TaskCountsTable {
  account_id: string;
  app: string;
  count: number;
}

export interface CustomerResultsTable {
  id: Generated<string>;
  account_id: string;
  app: string;
  status: 'success' | 'failure' | 'timeout';
  ts: Timestamp;
  session_ref: string;
  phone_number: string | null;
  customer_ref: string | null;
}

export interface ResultDailyTable {
  account_id: string;
  app: string;
  /** 'YYYY-MM-DD' (UTC day) */
  day: string;
  count: number;
}

export interface NotificationsTable {
  id: Generated<string>;
  account_id: string;
  kind: string;
  title: string;
  body: Generated<string>;
  link: string | null;
  dedupe_key: string | null;
  created_at: CreatedAt;
}

export interface NotificationReadsTable {
  account_id: string;
  notification_id: string;
  admin_id: string;
  read_at: Generated<Date>;
}

export interface SmsSettingsTable {
  account_id: string;
  /** dev-outbox keeps '' in the Twilio columns (0701) */
  provider: 'twilio' | 'dev-outbox';
  account_sid: string;
  auth_token_enc: string;
  phone_number: string;
  updated_at: Generated<Date>;
}

export interface CustomerLookupTable {
  account_id: string;
  url: string;
  method: 'GET' | 'POST';
  headers: ColumnType<{ key: string; valueEnc: string }[], string, string>;
  customer_path: string;
  customer_id: string;
  title_template: string;
  description_template: string;
  updated_at: Generated<Date>;
}

export interface LoggingDestinationsTable {
  account_id: string;
  destination: 'datadog' | 'cloudwatch' | 'sumologic' | 'rapid7';
  view: ColumnType<Record<string, string>, string, string>;
  settings_enc: string;
  created_at: CreatedAt;
  updated_at: Generated<Date>;
  /** opted in to full phone numbers (1302); else log events carry them masked */
  full_phone_numbers: Generated<boolean>;
}

export interface LogOutboxTable {
  id: Generated<number>;
  account_id: string;
  destination: string;
  payload: ColumnType<Record<string, unknown>, string, string>;
  created_at: CreatedAt;
  attempts: Generated<number>;
  next_attempt_at: Generated<Date>;
  last_error: string | null;
  failed_at: Timestamp | null;
}

export interface AppSettingsTable {
  account_id: string;
  app: string;
  general: Json;
  templates: Json<Record<string, string>>;
  updated_at: Generated<Date>;
}

export interface WebhookEndpointsTable {
  id: Generated<string>;
  account_id: string;
  app: string;
  url: string;
  event_types: string[];
  enabled: Generated<boolean>;
  disabled_reason: string | null;
  failing_since: Timestamp | null;
  created_at: CreatedAt;
  /** opted in to full phone numbers (1302); else they arrive masked */
  full_phone_numbers: Generated<boolean>;
}

export interface DevSmsOutboxTable {
  id: Generated<string>;
  account_id: string;
  to_number: string;
  body: string;
  created_at: Timestamp;
}

export interface LinkTokensTable {
  token_hash: string;
  account_id: string;
  app: string;
  purpose: string;
  task_id: string | null;
  expires_at: Timestamp;
  used_at: Timestamp | null;
  revoked_at: Timestamp | null;
  created_at: CreatedAt;
  /** the caller's language chosen when the link was sent; null: the page follows the browser (1040) */
  locale: Generated<string | null>;
}

export interface StorageSettingsTable {
  account_id: string;
  backend: Generated<'database' | 's3'>;
  s3_endpoint: string | null;
  s3_region: string | null;
  s3_bucket: string | null;
  s3_access_key_id: string | null;
  s3_secret_encrypted: string | null;
  s3_path_style: Generated<boolean>;
  retention: Generated<Record<string, number>>;
  updated_at: Generated<Date>;
}

export interface StoredFilesTable {
  id: Generated<string>;
  account_id: string;
  app: string;
  content_type: string;
  size: number;
  sha256: string;
  backend: 'database' | 's3';
  s3_bucket: string | null;
  object_key: string | null;
  bytes: Buffer | null;
  created_at: Date;
  deleted_at: Date | null;
}

/** An erasure or export of one caller (1300_privacy); the receipt holds no personal data. */
export interface PrivacyRequestsTable {
  id: Generated<string>;
  account_id: string;
  kind: 'erasure' | 'export';
  subject_kind: 'phone' | 'customer_ref';
  subject_hash: string;
  subject_enc: string | null;
  state: 'pending' | 'running' | 'done';
  progress: Generated<Record<string, number>>;
  held: Generated<unknown[]>;
  requested_by: string;
  requested_via: 'console' | 'api';
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
  locked_until: Date | null;
  attempts: Generated<number>;
  last_error: string | null;
  file_id: string | null;
}

/** The provider's id of each text message sent (1300_privacy), for deleting its copy. */
export interface SmsMessagesTable {
  id: Generated<number>;
  account_id: string;
  provider: string;
  sid: string;
  phone_number: string;
  sent_at: Date;
}

/** An account's retention for one kind of caller data (1301_retention_rules). */
export interface RetentionRulesTable {
  account_id: string;
  kind: string;
  days: number | null;
  starts_at: Date;
  confirmed_by: string | null;
  updated_at: Generated<Date>;
}
