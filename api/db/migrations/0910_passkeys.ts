import { tenantPolicy } from './policy';

// The Passkeys app: its tasks (enrollments and verifications, each a link sent by SMS), the
// customers' credentials, and the ceremony challenges (single use, expiring).

export const id = '0910_passkeys';

export const sql = `
create table passkey_tasks (
  id uuid primary key default gen_random_uuid(),
  account_id uuid not null references accounts(id) on delete cascade,
  kind text not null check (kind in ('enrollment', 'verification')),
  customer_ref text not null,
  phone_number text not null,
  display_name text,
  agent text,
  status text not null check (status in ('link_sent', 'started', 'succeeded', 'failed', 'expired', 'not_delivered', 'cancelled')),
  failure_reason text,
  credential_id uuid,
  created_at timestamptz not null,
  expires_at timestamptz not null,
  ended_at timestamptz
);
-- the activity list's keyset and its filters, each already in the list's order
create index passkey_tasks_page on passkey_tasks (account_id, created_at desc, id desc);
create index passkey_tasks_by_status on passkey_tasks (account_id, status, created_at desc, id desc);
create index passkey_tasks_by_agent on passkey_tasks (account_id, agent, created_at desc, id desc);
create index passkey_tasks_by_customer on passkey_tasks (account_id, customer_ref, created_at desc, id desc);
create index passkey_tasks_by_phone on passkey_tasks (account_id, phone_number, created_at desc, id desc);
create index passkey_tasks_due on passkey_tasks (expires_at) where status in ('link_sent', 'started');
${tenantPolicy('passkey_tasks')}

create trigger passkey_tasks_counted after insert on passkey_tasks
  referencing new table as added for each statement execute function task_counts_added('passkeys');
create trigger passkey_tasks_uncounted after delete on passkey_tasks
  referencing old table as removed for each statement execute function task_counts_removed('passkeys');

create table passkey_credentials (
  id uuid primary key default gen_random_uuid(),
  account_id uuid not null references accounts(id) on delete cascade,
  customer_ref text not null,
  display_name text not null,
  -- the WebAuthn user handle of this customer (the same for all of the customer's passkeys)
  user_handle text not null,
  -- base64url, as the browser names it
  credential_id text not null,
  -- COSE public key, base64url
  public_key text not null,
  counter bigint not null default 0,
  transports text[] not null default '{}',
  aaguid text not null,
  backup_eligible boolean not null,
  backed_up boolean not null,
  rp_id text not null,
  created_at timestamptz not null,
  last_used_at timestamptz,
  revoked_at timestamptz,
  unique (account_id, credential_id)
);
create index passkey_credentials_page on passkey_credentials (account_id, created_at desc, id desc);
create index passkey_credentials_by_customer on passkey_credentials (account_id, customer_ref, created_at desc, id desc);
${tenantPolicy('passkey_credentials')}

create table passkey_challenges (
  id uuid primary key default gen_random_uuid(),
  account_id uuid not null references accounts(id) on delete cascade,
  task_id uuid not null references passkey_tasks(id) on delete cascade,
  challenge text not null,
  -- what the ceremony must match: the host the page was served on, and its origin
  rp_id text not null,
  origin text not null,
  created_at timestamptz not null,
  expires_at timestamptz not null,
  used_at timestamptz,
  unique (task_id, challenge)
);
${tenantPolicy('passkey_challenges')}
`;
