import { tenantPolicy } from './policy';

// Document Signature: documents with versions (one editable draft, published versions that never
// change), signature requests (tasks, counted and listed like every app's), the customer's field
// values. A request names the version it sent, so editing a document never changes what a
// customer signs. The timeline of a request is task_events, as for every app.

export const id = '0930_document_signature';

export const sql = `
create table sig_documents (
  id uuid primary key default gen_random_uuid(),
  account_id uuid not null references accounts(id) on delete cascade,
  name text not null,
  created_at timestamptz not null,
  created_by text not null,
  updated_at timestamptz not null
);
create index sig_documents_by_account on sig_documents (account_id, updated_at desc, id desc);
${tenantPolicy('sig_documents')}

create table sig_document_versions (
  id uuid primary key default gen_random_uuid(),
  account_id uuid not null references accounts(id) on delete cascade,
  document_id uuid not null references sig_documents(id) on delete cascade,
  version integer not null,
  state text not null check (state in ('draft', 'published')),
  name text not null,
  file_id uuid not null,
  file_name text not null,
  page_count integer not null,
  -- [{width, height}] in PDF points, per page
  page_sizes jsonb not null,
  -- [{id, kind, page, x, y, w, h, label, required}], positions as fractions of the page
  fields jsonb not null default '[]',
  -- stored file ids of the page images the customer page shows (rendered at publish), or []
  page_image_ids jsonb not null default '[]',
  created_at timestamptz not null,
  created_by text not null,
  published_at timestamptz,
  published_by text,
  unique (document_id, version)
);
create unique index sig_document_versions_one_draft on sig_document_versions (document_id) where state = 'draft';
${tenantPolicy('sig_document_versions')}

-- a published version is what requests point at: the database refuses to change it
create function sig_versions_immutable() returns trigger language plpgsql as $$
begin
  if old.state = 'published' then
    raise exception 'a published document version cannot be changed' using errcode = 'check_violation';
  end if;
  return new;
end $$;
create trigger sig_versions_immutable before update on sig_document_versions
  for each row execute function sig_versions_immutable();

create table sig_requests (
  id uuid primary key default gen_random_uuid(),
  account_id uuid not null references accounts(id) on delete cascade,
  document_id uuid not null references sig_documents(id),
  version_id uuid not null references sig_document_versions(id),
  version integer not null,
  document_name text not null,
  signer_name text not null,
  phone_number text not null,
  customer_ref text,
  agent text,
  status text not null check (status in ('sent', 'opened', 'signed', 'completed', 'declined', 'expired', 'cancelled')),
  sends integer not null default 0,
  consent_text text not null,
  created_at timestamptz not null,
  expires_at timestamptz not null,
  opened_at timestamptz,
  signed_at timestamptz,
  completed_at timestamptz,
  ended_at timestamptz,
  decline_reason text,
  signer_ip text,
  signer_user_agent text,
  original_file_id uuid not null,
  original_sha256 text not null,
  -- set by sealing: the stamped content before the certificate page, and the sealed file
  content_sha256 text,
  signed_file_id uuid,
  signed_sha256 text,
  seal_attempts integer not null default 0,
  seal_error text
);
create index sig_requests_page on sig_requests (account_id, created_at desc, id desc);
create index sig_requests_by_status on sig_requests (account_id, status, created_at desc, id desc);
create index sig_requests_by_agent on sig_requests (account_id, agent, created_at desc, id desc);
create index sig_requests_by_customer on sig_requests (account_id, customer_ref, created_at desc, id desc);
create index sig_requests_by_phone on sig_requests (account_id, phone_number, created_at desc, id desc);
create index sig_requests_due on sig_requests (expires_at) where status in ('sent', 'opened');
create index sig_requests_to_seal on sig_requests (signed_at) where status = 'signed';
${tenantPolicy('sig_requests')}

create trigger sig_requests_counted after insert on sig_requests
  referencing new table as added for each statement execute function task_counts_added('document-signature');
create trigger sig_requests_uncounted after delete on sig_requests
  referencing old table as removed for each statement execute function task_counts_removed('document-signature');

create table sig_field_values (
  account_id uuid not null references accounts(id) on delete cascade,
  request_id uuid not null references sig_requests(id) on delete cascade,
  field_id text not null,
  -- text, initials, full name, date: the text; checkbox: 'true' or 'false'; a typed signature: the name typed
  value text,
  -- a drawn signature: the PNG, a stored file
  image_file_id uuid,
  primary key (request_id, field_id)
);
${tenantPolicy('sig_field_values')}
`;
