// Billing: subscription state per app (set only from Stripe's own subscription object, so
// events may arrive in any order), the account's Stripe customer and billing e-mail, the
// Stripe events already processed (each once), overage reports to Stripe's billing meters
// (written before they are sent, so a crash resends the same identifier), and a generic table
// of periodic jobs that several server processes share.
import { tenantPolicy } from './policy';

export const id = '0800_billing';

export const sql = `
alter table app_billing
  add column period_start timestamptz,
  add column period_end timestamptz,
  add column cancel_at_period_end boolean not null default false,
  add column payment_failed_at timestamptz,
  add column stripe_subscription_id text unique,
  add column checkout_session_id text,
  add column checkout_url text;

create table billing_customers (
  account_id uuid primary key references accounts(id) on delete cascade,
  stripe_customer_id text unique,
  billing_email text,
  updated_at timestamptz not null default now()
);
${tenantPolicy('billing_customers')}

-- Stripe's webhook has no account: this table is only touched in the system scope.
create table stripe_events (
  id text primary key,
  type text not null,
  processed_at timestamptz not null default now()
);

create table meter_reports (
  id bigint generated always as identity primary key,
  account_id uuid not null references accounts(id) on delete cascade,
  app text not null,
  -- the credits of the period this report covers: (from_credits, to_credits]
  period_start timestamptz not null,
  from_credits integer not null,
  to_credits integer not null check (to_credits > from_credits),
  -- Stripe de-duplicates meter events by identifier: a resend is harmless
  identifier text not null unique,
  created_at timestamptz not null default now(),
  reported_at timestamptz,
  attempts integer not null default 0,
  last_error text,
  unique (account_id, app, period_start, from_credits)
);
create index meter_reports_pending on meter_reports (id) where reported_at is null;
${tenantPolicy('meter_reports')}

-- Periodic jobs: one row per job; a worker leases a due row (for update skip locked) so
-- exactly one process runs it, and a crashed run is taken again when its lease expires.
create table jobs (
  name text primary key,
  interval_seconds integer not null check (interval_seconds > 0),
  next_run_at timestamptz not null,
  locked_until timestamptz,
  locked_by text,
  last_started_at timestamptz,
  last_finished_at timestamptz,
  last_error text,
  runs integer not null default 0
);
`;
