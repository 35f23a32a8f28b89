import type { ColumnType, Generated } from 'kysely';
import type { Timestamp } from './columns';

// The six apps' own tables. Row types as Kysely sees them; the SQL is in api/db/migrations.

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
  seal_level: 'B-B' | 'B-T' | 'B-LT' | 'B-LTA' | null;
  sealed_by: string | null;
  signing_certificate_id: string | null;
  timestamped_at: Date | null;
  /** the page's language when the signer signed (migration 1090) */
  signer_locale: string | null;
  /** kept through erasure and retention while set (1300_privacy) */
  legal_hold_reason: ColumnType<string | null, string | null | undefined, string | null>;
  legal_hold_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  legal_hold_by: ColumnType<string | null, string | null | undefined, string | null>;
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
