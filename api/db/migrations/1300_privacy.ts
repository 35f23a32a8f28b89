// A caller's data on request (issue 42): erasure and export requests, the provider's copy of each
// text message (so an erasure can ask Twilio to delete it), and a legal hold per signature request.
import { tenantPolicy } from './policy';
export const id = '1300_privacy';

export const sql = `
-- One erasure or export of one caller. The subject (the phone numbers and customer references it
-- covers) is kept encrypted only while the request is being worked on; the receipt (counts per
-- store, documents kept under a legal hold) holds no personal data. subject_hash (an HMAC) lets a
-- repeated request find the one in progress without the number being stored in the clear.
create table privacy_requests (
  id uuid primary key default gen_random_uuid(),
  account_id uuid not null references accounts(id) on delete cascade,
  kind text not null check (kind in ('erasure', 'export')),
  subject_kind text not null check (subject_kind in ('phone', 'customer_ref')),
  subject_hash text not null,
  subject_enc text,
  state text not null check (state in ('pending', 'running', 'done')),
  progress jsonb not null default '{}',
  held jsonb not null default '[]',
  requested_by text not null,
  requested_via text not null check (requested_via in ('console', 'api')),
  created_at timestamptz not null,
  started_at timestamptz,
  finished_at timestamptz,
  locked_until timestamptz,
  attempts integer not null default 0,
  last_error text,
  file_id uuid
);
create index privacy_requests_page on privacy_requests (account_id, created_at desc, id desc);
create index privacy_requests_open on privacy_requests (created_at) where state <> 'done';
create unique index privacy_requests_one_open on privacy_requests (account_id, kind, subject_hash) where state <> 'done';
${tenantPolicy('privacy_requests')}

-- What each text message became at the provider (Twilio's message SID): an erasure deletes the
-- provider's copy through its API, then this row.
create table sms_messages (
  id bigint generated always as identity primary key,
  account_id uuid not null references accounts(id) on delete cascade,
  provider text not null,
  sid text not null,
  phone_number text not null,
  sent_at timestamptz not null
);
create index sms_messages_by_phone on sms_messages (account_id, phone_number);
create index sms_messages_by_age on sms_messages (sent_at);
${tenantPolicy('sms_messages')}

-- A signed document under a legal hold is kept through erasure and retention.
alter table sig_requests add column legal_hold_reason text;
alter table sig_requests add column legal_hold_at timestamptz;
alter table sig_requests add column legal_hold_by text;
`;
