// Sign-in state that must outlive one request but not the process: pending OpenID Connect flows
// (state, nonce, PKCE verifier, bound to the browser by a cookie), failed sign-in counters for
// rate limiting, and each account's single sign-on provider. The API keeps none of it in memory.
import { tenantPolicy } from './policy';

export const id = '0100_identity';

export const sql = `
-- One row per sign-in in progress, keyed by a hash of its state; consumed (deleted) on return.
create table oidc_flows (
  state_hash text primary key,
  kind text not null check (kind in ('google', 'azure', 'sso')),
  account_id uuid references accounts(id) on delete cascade,
  nonce text not null,
  code_verifier text not null,
  signup boolean not null default false,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null
);
create index oidc_flows_expires on oidc_flows (expires_at);

-- Failed sign-ins per key ('address:…' or 'email:…') per fixed window.
create table sign_in_failures (
  key text not null,
  window_start timestamptz not null,
  count integer not null default 0,
  primary key (key, window_start)
);
create index sign_in_failures_window on sign_in_failures (window_start);

-- One SSO provider per account; the client secret is encrypted (api/crypto.ts).
create table sso_settings (
  account_id uuid primary key references accounts(id) on delete cascade,
  provider text not null check (provider in ('azure', 'okta', 'oidc')),
  discovery_url text not null,
  tenant text,
  domain text not null check (domain = lower(domain)),
  client_id text not null,
  client_secret text not null,
  admin_group_id text,
  agent_group_id text,
  updated_at timestamptz not null default now()
);
-- an e-mail domain leads to exactly one account's identity provider
create unique index sso_settings_domain on sso_settings (domain);
${tenantPolicy('sso_settings')}
`;
