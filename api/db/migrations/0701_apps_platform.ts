// The apps platform: per-app settings, /api/v1 idempotency and rate limits, the webhook queue,
// the development SMS outbox, customer-page link tokens, the task timeline, and the first app's
// task table (One-Time Passcode verifications).
import { tenantPolicy } from './policy';

export const id = '0701_apps_platform';

export const sql = `
-- v1 calls find the account by its secret key: a SHA-256 of it is the lookup (the key itself
-- stays encrypted). The previous webhook secret signs beside the new one for 24 h after rotation.
alter table developer_keys add column secret_key_hash text;
create unique index developer_keys_by_secret_hash on developer_keys (secret_key_hash);
alter table developer_keys add column webhook_secret_prev_encrypted text;
alter table developer_keys add column webhook_secret_rotated_at timestamptz;

-- the development outbox is a provider with no credentials (empty strings in the Twilio columns)
alter table sms_settings drop constraint sms_settings_provider_check;
alter table sms_settings add constraint sms_settings_provider_check check (provider in ('twilio', 'dev-outbox'));

create table app_settings (
  account_id uuid not null references accounts(id) on delete cascade,
  app text not null,
  general jsonb not null default '{}',
  -- { "<template key>": "<body>" }; a missing key means the default
  templates jsonb not null default '{}',
  updated_at timestamptz not null default now(),
  primary key (account_id, app)
);
${tenantPolicy('app_settings')}

create table api_idempotency (
  account_id uuid not null references accounts(id) on delete cascade,
  key text not null,
  request_hash text not null,
  status integer not null,
  answer jsonb not null,
  created_at timestamptz not null default now(),
  primary key (account_id, key)
);
create index api_idempotency_by_age on api_idempotency (created_at);
${tenantPolicy('api_idempotency')}

-- token bucket per secret key, refilled on read: one upsert per call, correct across processes
create table api_rate_buckets (
  account_id uuid primary key references accounts(id) on delete cascade,
  tokens double precision not null,
  updated_at timestamptz not null,
  -- whether the last call got a token (the upsert's answer)
  allowed boolean not null
);
${tenantPolicy('api_rate_buckets')}

-- every step of any app's task (the detail panel's timeline)
create table task_events (
  id bigint generated always as identity primary key,
  account_id uuid not null references accounts(id) on delete cascade,
  app text not null,
  task_id uuid not null,
  ts timestamptz not null,
  type text not null,
  description text not null,
  actor text not null,
  ip text,
  user_agent text
);
create index task_events_by_task on task_events (account_id, task_id, ts, id);
${tenantPolicy('task_events')}

create table otp_verifications (
  id uuid primary key default gen_random_uuid(),
  account_id uuid not null references accounts(id) on delete cascade,
  phone_number text not null,
  customer_ref text,
  agent text,
  status text not null check (status in ('pending', 'approved', 'canceled', 'max_attempts_reached', 'expired', 'failed')),
  -- HMAC-SHA256 of the code (compared in constant time) and the code encrypted for resends only
  code_hmac text not null,
  code_encrypted text not null,
  sends integer not null default 0,
  checks integer not null default 0,
  max_checks integer not null,
  created_at timestamptz not null,
  expires_at timestamptz not null,
  ended_at timestamptz,
  verified_at timestamptz,
  failure_reason text
);
create index otp_verifications_page on otp_verifications (account_id, created_at desc, id desc);
create index otp_verifications_pending_by_phone on otp_verifications (account_id, phone_number, created_at) where status = 'pending';
create index otp_verifications_due on otp_verifications (expires_at) where status = 'pending';
${tenantPolicy('otp_verifications')}

-- sends per number, for the per-10-minutes limit
create table otp_sends (
  account_id uuid not null references accounts(id) on delete cascade,
  phone_number text not null,
  ts timestamptz not null
);
create index otp_sends_by_phone on otp_sends (account_id, phone_number, ts);
${tenantPolicy('otp_sends')}

create table webhook_endpoints (
  id uuid primary key default gen_random_uuid(),
  account_id uuid not null references accounts(id) on delete cascade,
  app text not null,
  url text not null,
  event_types text[] not null,
  enabled boolean not null default true,
  disabled_reason text,
  -- first failure of the current failing streak; cleared by a success
  failing_since timestamptz,
  created_at timestamptz not null default now()
);
create index webhook_endpoints_by_app on webhook_endpoints (account_id, app);
${tenantPolicy('webhook_endpoints')}

create table webhook_events (
  id uuid primary key default gen_random_uuid(),
  account_id uuid not null references accounts(id) on delete cascade,
  app text not null,
  type text not null,
  payload jsonb not null,
  created_at timestamptz not null
);
${tenantPolicy('webhook_events')}

-- one row per (endpoint, event): the job the worker leases, with its latest attempt
create table webhook_deliveries (
  id uuid primary key default gen_random_uuid(),
  account_id uuid not null references accounts(id) on delete cascade,
  endpoint_id uuid not null references webhook_endpoints(id) on delete cascade,
  event_id uuid not null references webhook_events(id) on delete cascade,
  seq bigint generated always as identity,
  state text not null check (state in ('pending', 'succeeded', 'failed')),
  attempts integer not null default 0,
  next_attempt_at timestamptz,
  status_code integer,
  duration_ms integer,
  response_excerpt text,
  created_at timestamptz not null,
  updated_at timestamptz not null
);
create index webhook_deliveries_due on webhook_deliveries (next_attempt_at, seq) where state = 'pending';
create index webhook_deliveries_by_endpoint on webhook_deliveries (account_id, endpoint_id, created_at desc, seq desc);
${tenantPolicy('webhook_deliveries')}

create table dev_sms_outbox (
  id uuid primary key default gen_random_uuid(),
  account_id uuid not null references accounts(id) on delete cascade,
  to_number text not null,
  body text not null,
  created_at timestamptz not null
);
create index dev_sms_outbox_by_time on dev_sms_outbox (account_id, created_at desc);
${tenantPolicy('dev_sms_outbox')}

-- customer-page links: the token is only stored hashed; single purpose, bound to one task
create table link_tokens (
  token_hash text primary key,
  account_id uuid not null references accounts(id) on delete cascade,
  app text not null,
  purpose text not null,
  task_id uuid,
  expires_at timestamptz not null,
  used_at timestamptz,
  revoked_at timestamptz,
  created_at timestamptz not null default now()
);
${tenantPolicy('link_tokens')}
`;
