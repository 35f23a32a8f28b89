import { tenantPolicy } from './policy';

// Identity Verification: one session per request to a customer, its photos (ids of stored files,
// never the bytes here), the result of each automatic check, the data read from the document's
// machine-readable zone and the reviewer's decision. Redaction (retention settings) deletes the
// photos and the extracted data but keeps status and times, and says when.

export const id = '0920_identity_verification';

export const sql = `
create table idv_sessions (
  id uuid primary key default gen_random_uuid(),
  account_id uuid not null references accounts(id) on delete cascade,
  phone_number text not null,
  customer_ref text not null,
  agent text,
  status text not null check (status in ('created', 'link_sent', 'in_progress', 'submitted', 'needs_review', 'approved', 'declined',
                                         'resubmission_requested', 'expired', 'cancelled')),
  document_type text check (document_type in ('passport', 'id_card', 'residence_permit')),
  expected_name text,
  expected_date_of_birth text,
  attempt integer not null default 1,
  created_at timestamptz not null,
  link_expires_at timestamptz,
  started_at timestamptz,
  submitted_at timestamptz,
  ended_at timestamptz,
  -- the data the reviewer read from the machine-readable zone (null until typed, and once redacted)
  extracted jsonb,
  -- kept apart (and indexed) to flag a document seen in another session of the same account
  document_number text,
  failed_checks integer not null default 0,
  assigned_id uuid,
  assigned_name text,
  decision text check (decision in ('approved', 'declined', 'resubmission_requested')),
  decision_reason text,
  decision_note text,
  reviewer_id uuid,
  reviewer_name text,
  decided_at timestamptz,
  failure_reason text,
  images_redacted_at timestamptz,
  data_redacted_at timestamptz,
  redacted_at timestamptz
);
create index idv_sessions_page on idv_sessions (account_id, created_at desc, id desc);
create index idv_sessions_by_status on idv_sessions (account_id, status, created_at desc, id desc);
create index idv_sessions_by_agent on idv_sessions (account_id, agent, created_at desc, id desc);
create index idv_sessions_by_customer on idv_sessions (account_id, customer_ref, created_at desc, id desc);
create index idv_sessions_by_phone on idv_sessions (account_id, phone_number, created_at desc, id desc);
create index idv_sessions_by_document on idv_sessions (account_id, document_number) where document_number is not null;
create index idv_sessions_due on idv_sessions (link_expires_at) where status in ('created', 'link_sent', 'in_progress', 'resubmission_requested');
create index idv_sessions_unredacted on idv_sessions (created_at) where redacted_at is null or images_redacted_at is null or data_redacted_at is null;
${tenantPolicy('idv_sessions')}

create trigger idv_sessions_counted after insert on idv_sessions
  referencing new table as added for each statement execute function task_counts_added('identity-verification');
create trigger idv_sessions_uncounted after delete on idv_sessions
  referencing old table as removed for each statement execute function task_counts_removed('identity-verification');

create table idv_images (
  account_id uuid not null references accounts(id) on delete cascade,
  session_id uuid not null references idv_sessions(id) on delete cascade,
  side text not null check (side in ('front', 'back', 'selfie')),
  file_id uuid,
  content_type text not null,
  size integer not null,
  uploaded_at timestamptz not null,
  primary key (session_id, side)
);
${tenantPolicy('idv_images')}

create table idv_checks (
  account_id uuid not null references accounts(id) on delete cascade,
  session_id uuid not null references idv_sessions(id) on delete cascade,
  key text not null,
  status text not null check (status in ('passed', 'failed', 'not_run')),
  reason text not null,
  checked_at timestamptz not null,
  primary key (session_id, key)
);
${tenantPolicy('idv_checks')}
`;
