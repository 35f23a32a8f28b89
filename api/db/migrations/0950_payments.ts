import { tenantPolicy } from './policy';

// The Payments app: the account's connected Stripe account (only its id and what the page shows;
// Stripe Connect needs no stored secret), single-use OAuth states bound to the admin's browser,
// payment requests as tasks, and the Connect events already applied (each once).

export const id = '0950_payments';

export const sql = `
create table stripe_connections (
  account_id uuid primary key references accounts(id) on delete cascade,
  -- one Stripe account serves one of our accounts: Connect events are routed by it
  stripe_account_id text not null unique check (stripe_account_id ~ '^acct_[A-Za-z0-9]+$'),
  name text,
  country text,
  default_currency text,
  charges_enabled boolean not null default false,
  connected_at timestamptz not null
);
${tenantPolicy('stripe_connections')}

create table stripe_oauth_states (
  state_hash text primary key,
  account_id uuid not null references accounts(id) on delete cascade,
  admin_id uuid not null,
  -- sha256 of the nonce in the admin's browser cookie: a state lifted from a URL is useless elsewhere
  browser_hash text not null,
  created_at timestamptz not null,
  expires_at timestamptz not null,
  used_at timestamptz
);
create index stripe_oauth_states_by_account on stripe_oauth_states (account_id, created_at);
${tenantPolicy('stripe_oauth_states')}

create table payments (
  id uuid primary key,
  account_id uuid not null references accounts(id) on delete cascade,
  stripe_account_id text not null,
  phone_number text not null,
  customer_ref text,
  agent text,
  status text not null check (status in ('requested', 'opened', 'succeeded', 'failed', 'expired', 'partially_refunded', 'refunded')),
  -- minor units of currency (cents; yen for jpy)
  amount integer not null check (amount > 0),
  currency text not null check (currency ~ '^[a-z]{3}$'),
  description text not null,
  product_id text,
  product_name text,
  price_id text,
  checkout_session_id text,
  checkout_url text,
  payment_intent_id text,
  refunded_amount integer not null default 0 check (refunded_amount >= 0 and refunded_amount <= amount),
  created_at timestamptz not null,
  expires_at timestamptz not null,
  opened_at timestamptz,
  paid_at timestamptz,
  ended_at timestamptz,
  failure_reason text
);
create index payments_page on payments (account_id, created_at desc, id desc);
create index payments_by_status on payments (account_id, status, created_at desc, id desc);
create index payments_by_agent on payments (account_id, agent, created_at desc, id desc);
create index payments_by_customer on payments (account_id, customer_ref, created_at desc, id desc);
create index payments_by_phone on payments (account_id, phone_number, created_at desc, id desc);
create unique index payments_by_session on payments (checkout_session_id) where checkout_session_id is not null;
create index payments_by_intent on payments (payment_intent_id) where payment_intent_id is not null;
create index payments_paid on payments (account_id, paid_at) where paid_at is not null;
${tenantPolicy('payments')}

create trigger payments_counted after insert on payments
  referencing new table as added for each statement execute function task_counts_added('payments');
create trigger payments_uncounted after delete on payments
  referencing old table as removed for each statement execute function task_counts_removed('payments');

-- Connect events applied, by Stripe's event id: a replay or a retry changes nothing
create table payment_stripe_events (
  id text primary key,
  account_id uuid not null references accounts(id) on delete cascade,
  type text not null,
  processed_at timestamptz not null default now()
);
${tenantPolicy('payment_stripe_events')}
`;
