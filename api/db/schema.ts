// Every table as Kysely sees it: the row types live by area in api/db/tables; the SQL that creates
// them in api/db/migrations.

import type {
  AccountsTable,
  AdminsTable,
  BrandingTable,
  InvitationsTable,
  OidcFlowsTable,
  SignInFailuresTable,
  SsoSettingsTable,
  DeveloperKeysTable,
  SessionsTable,
} from './tables/accounts';
export type {
  AccountsTable,
  AdminsTable,
  BrandingTable,
  InvitationsTable,
  OidcFlowsTable,
  SignInFailuresTable,
  SsoSettingsTable,
  DeveloperKeysTable,
  SessionsTable,
} from './tables/accounts';
import type {
  AppBillingTable,
  BillingCustomersTable,
  StripeEventsTable,
  MeterReportsTable,
  CreditLedgerTable,
} from './tables/billing';
export type {
  AppBillingTable,
  BillingCustomersTable,
  StripeEventsTable,
  MeterReportsTable,
  CreditLedgerTable,
} from './tables/billing';
import type {
  JobsTable,
  AuditLogTable,
  AuditCountsTable,
  TaskCountsTable,
  CustomerResultsTable,
  ResultDailyTable,
  NotificationsTable,
  NotificationReadsTable,
  SmsSettingsTable,
  CustomerLookupTable,
  LoggingDestinationsTable,
  LogOutboxTable,
  AppSettingsTable,
  WebhookEndpointsTable,
  DevSmsOutboxTable,
  LinkTokensTable,
  StorageSettingsTable,
  StoredFilesTable,
  PrivacyRequestsTable,
  SmsMessagesTable,
  RetentionRulesTable,
} from './tables/platform';
export type {
  JobsTable,
  AuditLogTable,
  AuditCountsTable,
  TaskCountsTable,
  CustomerResultsTable,
  ResultDailyTable,
  NotificationsTable,
  NotificationReadsTable,
  SmsSettingsTable,
  CustomerLookupTable,
  LoggingDestinationsTable,
  LogOutboxTable,
  AppSettingsTable,
  WebhookEndpointsTable,
  DevSmsOutboxTable,
  LinkTokensTable,
  StorageSettingsTable,
  StoredFilesTable,
  PrivacyRequestsTable,
  SmsMessagesTable,
  RetentionRulesTable,
} from './tables/platform';
import type {
  OtpVerificationsTable,
  PasskeyTasksTable,
  PasskeyCredentialsTable,
  PasskeyChallengesTable,
  IdvSessionsTable,
  IdvImagesTable,
  IdvChecksTable,
  EformFormsTable,
  EformVersionsTable,
  EformRequestsTable,
  StripeConnectionsTable,
  StripeOauthStatesTable,
  PaymentsTable,
  EformSubmissionsTable,
  PaymentStripeEventsTable,
  SigDocumentsTable,
  SigDocumentVersionsTable,
  SigRequestsTable,
  SigSigningCertificatesTable,
  SigFieldValuesTable,
} from './tables/apps';
export type {
  OtpVerificationsTable,
  PasskeyTasksTable,
  PasskeyCredentialsTable,
  PasskeyChallengesTable,
  IdvSessionsTable,
  IdvImagesTable,
  IdvChecksTable,
  EformFormsTable,
  EformVersionsTable,
  EformRequestsTable,
  StripeConnectionsTable,
  StripeOauthStatesTable,
  PaymentsTable,
  EformSubmissionsTable,
  PaymentStripeEventsTable,
  SigDocumentsTable,
  SigDocumentVersionsTable,
  SigRequestsTable,
  SigSigningCertificatesTable,
  SigFieldValuesTable,
} from './tables/apps';

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
  privacy_requests: PrivacyRequestsTable;
  sms_messages: SmsMessagesTable;
  retention_rules: RetentionRulesTable;
}
