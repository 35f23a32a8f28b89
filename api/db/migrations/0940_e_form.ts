import { tenantPolicy } from './policy';

// eForm: forms with a working draft and immutable published versions; requests sent to
// customers are the app's tasks (counted in task_counts, paged by keyset like 0710); each
// request has at most one submission, stored with the version it answered.

export const id = '0940_e_form';

export const sql = `
create table eform_forms (
  id uuid primary key default gen_random_uuid(),
  account_id uuid not null references accounts(id) on delete cascade,
  status text not null default 'draft' check (status in ('draft', 'published', 'closed')),
  draft jsonb not null,
  latest_version integer,
  submissions integer not null default 0,
  last_submission_at timestamptz,
  created_at timestamptz not null,
  updated_at timestamptz not null
);
create index eform_forms_by_account on eform_forms (account_id, updated_at desc);
${tenantPolicy('eform_forms')}

create table eform_versions (
  account_id uuid not null references accounts(id) on delete cascade,
  form_id uuid not null references eform_forms(id) on delete cascade,
  version integer not null,
  definition jsonb not null,
  published_at timestamptz not null,
  published_by text not null,
  primary key (form_id, version)
);
${tenantPolicy('eform_versions')}
-- a published version is what requests were sent with: never changed afterwards
create function eform_versions_immutable() returns trigger language plpgsql as $$
begin
  raise exception 'a published form version cannot be changed';
end $$;
create trigger eform_versions_frozen before update on eform_versions for each row execute function eform_versions_immutable();

create table eform_requests (
  id uuid primary key default gen_random_uuid(),
  account_id uuid not null references accounts(id) on delete cascade,
  form_id uuid not null references eform_forms(id) on delete cascade,
  version integer not null,
  status text not null check (status in ('sent', 'opened', 'submitted', 'expired', 'failed')),
  phone_number text not null,
  customer_ref text,
  agent text,
  prefill jsonb not null default '{}',
  created_at timestamptz not null,
  expires_at timestamptz not null,
  opened_at timestamptz,
  submitted_at timestamptz,
  ended_at timestamptz,
  failure_reason text,
  foreign key (form_id, version) references eform_versions (form_id, version)
);
create index eform_requests_page on eform_requests (account_id, created_at desc, id desc);
create index eform_requests_by_form on eform_requests (account_id, form_id, created_at desc, id desc);
create index eform_requests_by_status on eform_requests (account_id, status, created_at desc, id desc);
create index eform_requests_by_agent on eform_requests (account_id, agent, created_at desc, id desc);
create index eform_requests_by_customer on eform_requests (account_id, customer_ref, created_at desc, id desc);
create index eform_requests_by_phone on eform_requests (account_id, phone_number, created_at desc, id desc);
create index eform_requests_due on eform_requests (expires_at) where status in ('sent', 'opened');
${tenantPolicy('eform_requests')}
create trigger eform_requests_counted after insert on eform_requests
  referencing new table as added for each statement execute function task_counts_added('e-form');
create trigger eform_requests_uncounted after delete on eform_requests
  referencing old table as removed for each statement execute function task_counts_removed('e-form');

create table eform_submissions (
  request_id uuid primary key references eform_requests(id) on delete cascade,
  account_id uuid not null references accounts(id) on delete cascade,
  form_id uuid not null references eform_forms(id) on delete cascade,
  version integer not null,
  answers jsonb not null,
  -- the answers as one lower-cased text, for "answer contains"
  answers_text text not null,
  file_ids uuid[] not null default '{}',
  submitted_at timestamptz not null
);
create index eform_submissions_by_form on eform_submissions (account_id, form_id, submitted_at);
${tenantPolicy('eform_submissions')}
`;
