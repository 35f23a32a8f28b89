// Server-side sessions: every token names its row, and each request checks the row in the same
// statement that re-reads the admin, so sign-out, the end of ghost mode, archiving an admin and
// a role change end a session at once instead of when its token expires.
import { tenantPolicy } from './policy';

export const id = '0600_sessions';

export const sql = `
create table sessions (
  id uuid primary key default gen_random_uuid(),
  account_id uuid not null references accounts(id) on delete cascade,
  -- who the session acts as (in ghost mode: the account's owner)
  admin_id uuid not null references admins(id) on delete cascade,
  ghost boolean not null default false,
  -- in ghost mode: the provider staff member behind the session
  staff_id uuid references admins(id) on delete cascade,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  revoked_at timestamptz,
  reason text check (reason in ('sign-out', 'ghost-ended', 'archived', 'role-changed'))
);
create index sessions_admin_live on sessions (admin_id) where revoked_at is null;
create index sessions_expires on sessions (expires_at);
${tenantPolicy('sessions')}
`;
