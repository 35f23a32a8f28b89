import type { ColumnType, Generated, GeneratedAlways } from 'kysely';

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
  /** lower(name), kept by the database for Watch Tower's search (0960) */
  name_lower: GeneratedAlways<string>;
  created_at: CreatedAt;
  /** the language of customer pages and SMS texts when the agent picks none; null: the caller's browser (1040) */
  customer_locale: Generated<string | null>;
  /** IANA time zone the console, customer pages and sealed PDFs show dates in (1112) */
  time_zone: Generated<string>;
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
  /** lower(email) and lower(first_name || ' ' || last_name), kept for Watch Tower's search (0960) */
  email_lower: GeneratedAlways<string>;
  name_lower: GeneratedAlways<string>;
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
  /** billing (0800): the Stripe subscription's current period and state */
  period_start: Generated<Date | null>;
  period_end: Generated<Date | null>;
  cancel_at_period_end: Generated<boolean>;
  payment_failed_at: Generated<Date | null>;
  stripe_subscription_id: Generated<string | null>;
  checkout_session_id: Generated<string | null>;
  checkout_url: Generated<string | null>;
}

export interface BillingCustomersTable {
  account_id: string;
  stripe_customer_id: string | null;
  billing_email: string | null;
  updated_at: Generated<Date>;
}

export interface StripeEventsTable {
  id: string;
  type: string;
  processed_at: Generated<Date>;
}

export interface MeterReportsTable {
  id: Generated<number>;
  account_id: string;
  app: string;
  period_start: Date;
  from_credits: number;
  to_credits: number;
  identifier: string;
  created_at: Generated<Date>;
  reported_at: Date | null;
  attempts: Generated<number>;
  last_error: string | null;
}

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
  /** accepted-elsewhere: the person joined another account's invitation instead */
  status: Generated<'pending' | 'accepted-elsewhere'>;
  closed_at: Timestamp | null;
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
  /** when the account proved the domain by DNS; null: saved but routes no sign-in, holds nothing */
  domain_verified_at: Timestamp | null;
}

export interface DeveloperKeysTable {
  account_id: string;
  widget_key: string;
  /** encryptSecret() of the sk_… key */
  secret_key_encrypted: string;
  /** encryptSecret() of the whsec_… secret */
  webhook_secret_encrypted: string;
  created_at: CreatedAt;
  /** sha256Hex of the sk_… key: how /api/v1 finds the account (0701) */
  secret_key_hash: string | null;
  /** the webhook secret before the last rotation, still signing for 24 h (0701) */
  webhook_secret_prev_encrypted: string | null;
  webhook_secret_rotated_at: Timestamp | null;
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

// ---- apps platform (0701); most of its queries are SQL in api/apps/platform
type Json<T = Record<string, unknown>> = ColumnType<T, string, string>;

export interface AppSettingsTable {
  account_id: string;
  app: string;
  general: Json;
  templates: Json<Record<string, string>>;
  updated_at: Generated<Date>;
}

export interface OtpVerificationsTable {
  id: Generated<string>;
  account_id: string;
  phone_number: string;
  customer_ref: string | null;
  agent: string | null;
  status: 'pending' | 'approved' | 'canceled' | 'max_attempts_reached' | 'expired' | 'failed';
  code_hmac: string;
  code_encrypted: string;
  sends: Generated<number>;
  checks: Generated<number>;
  max_checks: number;
  created_at: Timestamp;
  expires_at: Timestamp;
  ended_at: Timestamp | null;
  verified_at: Timestamp | null;
  failure_reason: string | null;
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

export interface PasskeyTasksTable {
  id: Generated<string>;
  account_id: string;
  kind: 'enrollment' | 'verification';
  customer_ref: string;
  phone_number: string;
  display_name: string | null;
  agent: string | null;
  status: 'link_sent' | 'started' | 'succeeded' | 'failed' | 'expired' | 'not_delivered' | 'cancelled';
  failure_reason: string | null;
  credential_id: string | null;
  created_at: Timestamp;
  expires_at: Timestamp;
  ended_at: Timestamp | null;
}

export interface PasskeyCredentialsTable {
  id: Generated<string>;
  account_id: string;
  customer_ref: string;
  display_name: string;
  user_handle: string;
  credential_id: string;
  public_key: string;
  counter: ColumnType<string, number | string | undefined, number | string>;
  transports: Generated<string[]>;
  aaguid: string;
  backup_eligible: boolean;
  backed_up: boolean;
  rp_id: string;
  created_at: Timestamp;
  last_used_at: Timestamp | null;
  revoked_at: Timestamp | null;
}

export interface PasskeyChallengesTable {
  id: Generated<string>;
  account_id: string;
  task_id: string;
  challenge: string;
  rp_id: string;
  origin: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: Timestamp | null;
}

export interface IdvSessionsTable {
  id: Generated<string>;
  account_id: string;
  phone_number: string;
  customer_ref: string;
  agent: string | null;
  status: string;
  document_type: string | null;
  expected_name: string | null;
  expected_date_of_birth: string | null;
  attempt: Generated<number>;
  created_at: Timestamp;
  link_expires_at: Timestamp | null;
  started_at: Timestamp | null;
  submitted_at: Timestamp | null;
  ended_at: Timestamp | null;
  extracted: unknown;
  document_number: string | null;
  failed_checks: Generated<number>;
  assigned_id: string | null;
  assigned_name: string | null;
  decision: string | null;
  decision_reason: string | null;
  decision_note: string | null;
  reviewer_id: string | null;
  reviewer_name: string | null;
  decided_at: Timestamp | null;
  failure_reason: string | null;
  images_redacted_at: Timestamp | null;
  data_redacted_at: Timestamp | null;
  redacted_at: Timestamp | null;
}

export interface IdvImagesTable {
  account_id: string;
  session_id: string;
  side: 'front' | 'back' | 'selfie';
  file_id: string | null;
  content_type: string;
  size: number;
  uploaded_at: Timestamp;
}

export interface IdvChecksTable {
  account_id: string;
  session_id: string;
  key: string;
  status: 'passed' | 'failed' | 'not_run';
  reason: string;
  checked_at: Timestamp;
}

export interface EformFormsTable {
  id: Generated<string>;
  account_id: string;
  status: 'draft' | 'published' | 'closed';
  draft: unknown;
  latest_version: number | null;
  submissions: Generated<number>;
  last_submission_at: Date | null;
  created_at: Date;
  updated_at: Date;
  archived_at: Date | null;
}

export interface EformVersionsTable {
  account_id: string;
  form_id: string;
  version: number;
  definition: unknown;
  published_at: Date;
  published_by: string;
  /** set by the first submission that met a pattern the engine cannot run (audited once) */
  patterns_dropped_at: Date | null;
}

export interface EformRequestsTable {
  id: Generated<string>;
  account_id: string;
  form_id: string;
  version: number;
  status: 'sent' | 'opened' | 'submitted' | 'expired' | 'failed';
  phone_number: string;
  customer_ref: string | null;
  agent: string | null;
  prefill: Generated<unknown>;
  created_at: Date;
  expires_at: Date;
  opened_at: Date | null;
  submitted_at: Date | null;
  ended_at: Date | null;
  failure_reason: string | null;
}

export interface StripeConnectionsTable {
  account_id: string;
  stripe_account_id: string;
  name: string | null;
  country: string | null;
  default_currency: string | null;
  charges_enabled: boolean;
  connected_at: Date;
}

export interface StripeOauthStatesTable {
  state_hash: string;
  account_id: string;
  admin_id: string;
  browser_hash: string;
  created_at: Date;
  expires_at: Date;
  used_at: Date | null;
}

export interface PaymentsTable {
  id: string;
  account_id: string;
  stripe_account_id: string;
  phone_number: string;
  customer_ref: string | null;
  agent: string | null;
  status: string;
  amount: number;
  currency: string;
  description: string;
  product_id: string | null;
  product_name: string | null;
  price_id: string | null;
  checkout_session_id: string | null;
  checkout_url: string | null;
  payment_intent_id: string | null;
  refunded_amount: Generated<number>;
  /** refunds asked of Stripe and not yet settled (api/apps/payments/service.ts refundPayment) */
  refunding_amount: Generated<number>;
  created_at: Date;
  expires_at: Date;
  opened_at: Date | null;
  paid_at: Date | null;
  ended_at: Date | null;
  failure_reason: string | null;
}

export interface EformSubmissionsTable {
  request_id: string;
  account_id: string;
  form_id: string;
  version: number;
  answers: unknown;
  answers_text: string;
  file_ids: Generated<string[]>;
  submitted_at: Date;
}

export interface PaymentStripeEventsTable {
  id: string;
  account_id: string;
  type: string;
  processed_at: Generated<Date>;
}

export interface SigDocumentsTable {
  id: Generated<string>;
  account_id: string;
  name: string;
  created_at: Date;
  created_by: string;
  updated_at: Date;
}

export interface SigDocumentVersionsTable {
  id: Generated<string>;
  account_id: string;
  document_id: string;
  version: number;
  state: 'draft' | 'published';
  name: string;
  file_id: string;
  file_name: string;
  page_count: number;
  page_sizes: { width: number; height: number }[];
  fields: Generated<unknown[]>;
  page_image_ids: Generated<string[]>;
  /** the same pages 480 px wide, for srcset (migration 1091); empty before it */
  page_image_small_ids: Generated<string[]>;
  /** what cleaning took out of the uploaded file (the contract's SigRemovedContent kinds) */
  removed_content: Generated<string[]>;
  created_at: Date;
  created_by: string;
  published_at: Date | null;
  published_by: string | null;
}

export interface SigRequestsTable {
  id: Generated<string>;
  account_id: string;
  document_id: string;
  version_id: string;
  version: number;
  document_name: string;
  signer_name: string;
  phone_number: string;
  customer_ref: string | null;
  agent: string | null;
  status: 'sent' | 'opened' | 'signed' | 'completed' | 'declined' | 'expired' | 'cancelled';
  sends: Generated<number>;
  consent_text: string;
  created_at: Date;
  expires_at: Date;
  opened_at: Date | null;
  signed_at: Date | null;
  completed_at: Date | null;
  ended_at: Date | null;
  decline_reason: string | null;
  signer_ip: string | null;
  signer_user_agent: string | null;
  original_file_id: string;
  original_sha256: string;
  content_sha256: string | null;
  signed_file_id: string | null;
  signed_sha256: string | null;
  seal_attempts: Generated<number>;
  seal_error: string | null;
  files_deleted_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  seal_level: 'B-B' | 'B-T' | 'B-LT' | null;
  sealed_by: string | null;
  signing_certificate_id: string | null;
  timestamped_at: Date | null;
  /** the page's language when the signer signed (migration 1090) */
  signer_locale: string | null;
}

/** An account's own signing certificate (1060_pades). */
export interface SigSigningCertificatesTable {
  id: Generated<string>;
  account_id: string;
  subject: string;
  issuer: string;
  serial: string;
  fingerprint: string;
  key_type: string;
  not_before: Date;
  not_after: Date;
  active_from: Date;
  encrypted_key: string;
  chain_pem: string;
  uploaded_by: string;
  uploaded_at: Date;
  removed_at: Date | null;
  removed_by: string | null;
}

export interface SigFieldValuesTable {
  account_id: string;
  request_id: string;
  field_id: string;
  value: string | null;
  image_file_id: string | null;
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
  task_counts: TaskCountsTable;
  oidc_flows: OidcFlowsTable;
  sign_in_failures: SignInFailuresTable;
  sso_settings: SsoSettingsTable;
  developer_keys: DeveloperKeysTable;
  customer_results: CustomerResultsTable;
  result_daily: ResultDailyTable;
  result_daily_totals: Omit<ResultDailyTable, 'account_id'>;
  notifications: NotificationsTable;
  notification_reads: NotificationReadsTable;
  sms_settings: SmsSettingsTable;
  customer_lookup: CustomerLookupTable;
  logging_destinations: LoggingDestinationsTable;
  log_outbox: LogOutboxTable;
  billing_customers: BillingCustomersTable;
  stripe_events: StripeEventsTable;
  meter_reports: MeterReportsTable;
  jobs: JobsTable;
  app_settings: AppSettingsTable;
  otp_verifications: OtpVerificationsTable;
  webhook_endpoints: WebhookEndpointsTable;
  dev_sms_outbox: DevSmsOutboxTable;
  link_tokens: LinkTokensTable;
  sessions: SessionsTable;
  storage_settings: StorageSettingsTable;
  stored_files: StoredFilesTable;
  passkey_tasks: PasskeyTasksTable;
  passkey_credentials: PasskeyCredentialsTable;
  passkey_challenges: PasskeyChallengesTable;
  idv_sessions: IdvSessionsTable;
  idv_images: IdvImagesTable;
  idv_checks: IdvChecksTable;
  eform_forms: EformFormsTable;
  eform_versions: EformVersionsTable;
  eform_requests: EformRequestsTable;
  eform_submissions: EformSubmissionsTable;
  stripe_connections: StripeConnectionsTable;
  stripe_oauth_states: StripeOauthStatesTable;
  payments: PaymentsTable;
  payment_stripe_events: PaymentStripeEventsTable;
  sig_documents: SigDocumentsTable;
  sig_document_versions: SigDocumentVersionsTable;
  sig_requests: SigRequestsTable;
  sig_field_values: SigFieldValuesTable;
  sig_signing_certificates: SigSigningCertificatesTable;
}
