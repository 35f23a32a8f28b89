import { tenantPolicy } from './policy';

// The /api/v1 rate limit of each account, set by provider staff in Watch Tower. No row: the
// default (20 requests a second, bursts of 40). The account reads its own; staff write it in the
// system scope.
export const id = '1051_api_rate_limits';

export const sql = `
create table api_rate_limits (
  account_id uuid primary key references accounts(id) on delete cascade,
  per_second integer not null check (per_second between 1 and 100000),
  updated_at timestamptz not null default now()
);
${tenantPolicy('api_rate_limits')}
`;
