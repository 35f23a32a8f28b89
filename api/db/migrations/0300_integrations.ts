// SMS provider settings, customer lookup, logging destinations and the durable log outbox.
// Secrets (Twilio auth token, lookup header values, API keys, AWS keys, collector URLs that
// carry tokens) are stored only encrypted (api/crypto.ts); the *_view columns hold what may be
// shown back.
import { tenantPolicy } from './policy';

export const id = '0300_integrations';

export const sql = `
create table sms_settings (
  account_id uuid primary key references accounts(id) on delete cascade,
  provider text not null check (provider in ('twilio')),
  account_sid text not null,
  auth_token_enc text not null,
  phone_number text not null,
  updated_at timestamptz not null default now()
);
${tenantPolicy('sms_settings')}

create table customer_lookup (
  account_id uuid primary key references accounts(id) on delete cascade,
  url text not null,
  method text not null check (method in ('GET', 'POST')),
  -- [{ "key": "...", "valueEnc": "v1...." }], at most 3
  headers jsonb not null default '[]',
  customer_path text not null,
  customer_id text not null,
  title_template text not null,
  description_template text not null,
  updated_at timestamptz not null default now()
);
${tenantPolicy('customer_lookup')}

create table logging_destinations (
  account_id uuid not null references accounts(id) on delete cascade,
  destination text not null check (destination in ('datadog', 'cloudwatch', 'sumologic', 'rapid7')),
  -- what the settings screen may show (site, region, log group)
  view jsonb not null default '{}',
  -- every field, encrypted as one JSON document
  settings_enc text not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (account_id, destination)
);
${tenantPolicy('logging_destinations')}

-- One row per event and destination. Written in the transaction that produced the event;
-- a worker leases due rows (next_attempt_at), delivers them, deletes them on success and
-- pushes next_attempt_at back on failure. Disconnecting a destination drops its rows.
create table log_outbox (
  id bigint generated always as identity primary key,
  account_id uuid not null,
  destination text not null,
  payload jsonb not null,
  created_at timestamptz not null default now(),
  attempts integer not null default 0,
  next_attempt_at timestamptz not null default now(),
  last_error text,
  failed_at timestamptz,
  foreign key (account_id, destination) references logging_destinations (account_id, destination) on delete cascade
);
create index log_outbox_due on log_outbox (next_attempt_at, id) where failed_at is null;
create index log_outbox_destination on log_outbox (account_id, destination);
${tenantPolicy('log_outbox')}
`;
