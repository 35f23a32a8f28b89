import type { ColumnType, Generated } from 'kysely';

// Row types of every table, as Kysely sees them. Each area adds its tables here; the SQL that
// creates them lives in api/db/migrations.

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type CreatedAt = ColumnType<Date, Date | string | undefined, never>;

export interface AccountsTable {
  id: Generated<string>;
  name: string;
  /** how the account signs in: azure, google, webex, zoom, okta, oidc */
  platform: string;
  /** the company's e-mail domain; null for accounts of public mail domains */
  email_domain: string | null;
  /** 'switchboard-verification=…': the TXT value that proves a custom domain is this account's (0201) */
  domain_challenge: Generated<string>;
  created_at: CreatedAt;
}

export interface AdminsTable {
  id: Generated<string>;
  account_id: string;
  first_name: string;
  last_name: string;
  email: string;
  role: 'owner' | 'admin' | 'supervisor';
  is_root: Generated<boolean>;
  photo: string | null;
  time_zone: string | null;
  archived_at: Timestamp | null;
  last_sign_in_at: Timestamp | null;
  created_at: CreatedAt;
}

export interface AppBillingTable {
  account_id: string;
  app: string;
  status: 'inactive' | 'free-trial' | 'subscription' | 'enterprise' | 'cancelled';
  trial_ends_at: Timestamp | null;
  credits: Generated<number>;
  free_tier: Generated<number>;
  updated_at: Generated<Date>;
  /** when the app last became paid (subscription/enterprise), kept by a trigger; null otherwise */
  paid_since: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

export interface CreditLedgerTable {
  id: Generated<string>;
  account_id: string;
  app: string;
  task_id: string;
  kind: string;
  units: number;
  ts: CreatedAt;
}

export interface BrandingTable {
  account_id: string;
  name: string;
  logo: Generated<string>;
  color: Generated<string>;
  domain: string | null;
  domain_is_verified: Generated<boolean>;
  updated_at: Generated<Date>;
}

export interface InvitationsTable {
  id: Generated<string>;
  account_id: string;
  email: string;
  role: 'admin' | 'supervisor';
  expires_at: Timestamp;
  invited_by: string | null;
  created_at: CreatedAt;
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

export interface OidcFlowsTable {
  state_hash: string;
  kind: 'google' | 'azure' | 'sso';
  account_id: string | null;
  nonce: string;
  code_verifier: string;
  signup: Generated<boolean>;
  created_at: CreatedAt;
  expires_at: Timestamp;
}

export interface SignInFailuresTable {
  key: string;
  window_start: Timestamp;
  count: Generated<number>;
}

export interface SsoSettingsTable {
  account_id: string;
  provider: 'azure' | 'okta' | 'oidc';
  discovery_url: string;
  tenant: string | null;
  domain: string;
  client_id: string;
  /** encrypted with api/crypto.ts; never returned */
  client_secret: string;
  admin_group_id: string | null;
  agent_group_id: string | null;
  updated_at: Generated<Date>;
}

export interface DeveloperKeysTable {
  account_id: string;
  widget_key: string;
  /** encryptSecret() of the sk_… key */
  secret_key_encrypted: string;
  /** encryptSecret() of the whsec_… secret */
  webhook_secret_encrypted: string;
  created_at: CreatedAt;
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
  provider: 'twilio';
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

/** 0600: a signed-in session; its id is the token's `sid` claim */
export interface SessionsTable {
  id: Generated<string>;
  account_id: string;
  admin_id: string;
  ghost: Generated<boolean>;
  staff_id: string | null;
  created_at: CreatedAt;
  expires_at: Timestamp;
  revoked_at: Timestamp | null;
  reason: 'sign-out' | 'ghost-ended' | 'archived' | 'role-changed' | null;
}

export interface Schema {
  accounts: AccountsTable;
  admins: AdminsTable;
  app_billing: AppBillingTable;
  credit_ledger: CreditLedgerTable;
  branding: BrandingTable;
  invitations: InvitationsTable;
  audit_log: AuditLogTable;
  audit_counts: AuditCountsTable;
  oidc_flows: OidcFlowsTable;
  sign_in_failures: SignInFailuresTable;
  sso_settings: SsoSettingsTable;
  developer_keys: DeveloperKeysTable;
  customer_results: CustomerResultsTable;
  result_daily: ResultDailyTable;
  notifications: NotificationsTable;
  notification_reads: NotificationReadsTable;
  sms_settings: SmsSettingsTable;
  customer_lookup: CustomerLookupTable;
  logging_destinations: LoggingDestinationsTable;
  log_outbox: LogOutboxTable;
  sessions: SessionsTable;
}
