// Accounts, admins, billing per app, branding, invitations and the audit log. Every tenant table
// carries account_id and a row-level-security policy bound to the transaction's app.account_id
// (or the explicit system scope); FORCE makes the policies bind the tables' owner too.
import { tenantPolicy } from './policy';

export const id = '0001_foundation';

export const sql = `
create table accounts (
  id uuid primary key default gen_random_uuid(),
  name text not null check (length(name) between 1 and 200),
  platform text not null default 'google',
  email_domain text,
  created_at timestamptz not null default now()
);
create unique index accounts_email_domain on accounts (email_domain) where email_domain is not null;

create table admins (
  id uuid primary key default gen_random_uuid(),
  account_id uuid not null references accounts(id) on delete cascade,
  first_name text not null default '',
  last_name text not null default '',
  email text not null check (email = lower(email)),
  role text not null check (role in ('owner', 'admin', 'supervisor')),
  is_root boolean not null default false,
  photo text,
  time_zone text,
  archived_at timestamptz,
  last_sign_in_at timestamptz,
  created_at timestamptz not null default now()
);
-- one active admin per e-mail across the product: an e-mail signs in to exactly one account
create unique index admins_active_email on admins (email) where archived_at is null;
create index admins_account on admins (account_id);
create unique index admins_one_owner on admins (account_id) where role = 'owner' and archived_at is null;

create table app_billing (
  account_id uuid not null references accounts(id) on delete cascade,
  app text not null,
  status text not null check (status in ('inactive', 'free-trial', 'subscription', 'enterprise', 'cancelled')),
  trial_ends_at timestamptz,
  credits integer not null default 0,
  free_tier integer not null default 0,
  updated_at timestamptz not null default now(),
  primary key (account_id, app)
);

create table branding (
  account_id uuid primary key references accounts(id) on delete cascade,
  name text not null,
  logo text not null default '',
  color text not null default '#2563EB',
  domain text,
  domain_is_verified boolean not null default false,
  updated_at timestamptz not null default now()
);
create unique index branding_domain on branding (domain) where domain is not null;

create table invitations (
  id uuid primary key default gen_random_uuid(),
  account_id uuid not null references accounts(id) on delete cascade,
  email text not null check (email = lower(email)),
  role text not null check (role in ('admin', 'supervisor')),
  expires_at timestamptz not null,
  invited_by uuid,
  created_at timestamptz not null default now(),
  unique (account_id, email)
);
create index invitations_email on invitations (email);

create table audit_log (
  id bigint generated always as identity primary key,
  account_id uuid not null references accounts(id) on delete cascade,
  ts timestamptz not null default now(),
  admin_id uuid,
  admin_first_name text,
  admin_last_name text,
  namespace text not null,
  description text not null,
  event text not null
);
-- keyset paging: (ts, id) < (last ts, last id), newest first, as a pure index scan
create index audit_log_page on audit_log (account_id, ts desc, id desc);

-- the audit total for x-count, kept in the same transaction as each entry
create table audit_counts (
  account_id uuid primary key references accounts(id) on delete cascade,
  count bigint not null default 0
);

${tenantPolicy('accounts', 'id')}
${tenantPolicy('admins')}
${tenantPolicy('app_billing')}
${tenantPolicy('branding')}
${tenantPolicy('invitations')}
${tenantPolicy('audit_log')}
${tenantPolicy('audit_counts')}
`;
