import type { Generated, GeneratedAlways } from 'kysely';
import type { Timestamp, CreatedAt } from './columns';

// Accounts, their admins and how they sign in: invitations, sessions, single sign-on, developer
// keys and branding. Row types as Kysely sees them; the SQL is in api/db/migrations.

export interface AccountsTable {
  id: Generated<string>;
  name: string;
  /** how the account signs in: azure, google, webex, zoom, okta, oidc */
  platform: string;
  /** the company's e-mail domain; null for accounts of public mail domains */
  email_domain: string | null;
  /** 'switchboard-verification=…': the TXT value that proves a custom domain is this account's (0201) */
  domain_challenge: Generated<string>;
  /** lower(name), kept by the database for Watch Tower's search (0960) */
  name_lower: GeneratedAlways<string>;
  created_at: CreatedAt;
  /** the language of customer pages and SMS texts when the agent picks none; null: the caller's browser (1040) */
  customer_locale: Generated<string | null>;
  /** IANA time zone the console, customer pages and sealed PDFs show dates in (1112) */
  time_zone: Generated<string>;
}

export interface AdminsTable {
  id: Generated<string>;
  account_id: string;
  first_name: string;
  last_name: string;
  email: string;
  role: 'owner' | 'admin' | 'supervisor';
  is_root: Generated<boolean>;
  photo: string | null;
  time_zone: string | null;
  archived_at: Timestamp | null;
  last_sign_in_at: Timestamp | null;
  /** lower(email) and lower(first_name || ' ' || last_name), kept for Watch Tower's search (0960) */
  email_lower: GeneratedAlways<string>;
  name_lower: GeneratedAlways<string>;
  created_at: CreatedAt;
}

export interface BrandingTable {
  account_id: string;
  name: string;
  logo: Generated<string>;
  color: Generated<string>;
  domain: string | null;
  domain_is_verified: Generated<boolean>;
  updated_at: Generated<Date>;
}

export interface InvitationsTable {
  id: Generated<string>;
  account_id: string;
  email: string;
  role: 'admin' | 'supervisor';
  expires_at: Timestamp;
  invited_by: string | null;
  created_at: CreatedAt;
  /** accepted-elsewhere: the person joined another account's invitation instead */
  status: Generated<'pending' | 'accepted-elsewhere'>;
  closed_at: Timestamp | null;
}

export interface OidcFlowsTable {
  state_hash: string;
  kind: 'google' | 'azure' | 'sso';
  account_id: string | null;
  nonce: string;
  code_verifier: string;
  signup: Generated<boolean>;
  created_at: CreatedAt;
  expires_at: Timestamp;
}

export interface SignInFailuresTable {
  key: string;
  window_start: Timestamp;
  count: Generated<number>;
}

export interface SsoSettingsTable {
  account_id: string;
  provider: 'azure' | 'okta' | 'oidc';
  discovery_url: string;
  tenant: string | null;
  domain: string;
  client_id: string;
  /** encrypted with api/crypto.ts; never returned */
  client_secret: string;
  admin_group_id: string | null;
  agent_group_id: string | null;
  updated_at: Generated<Date>;
  /** when the account proved the domain by DNS; null: saved but routes no sign-in, holds nothing */
  domain_verified_at: Timestamp | null;
}

export interface DeveloperKeysTable {
  account_id: string;
  widget_key: string;
  /** encryptSecret() of the sk_… key */
  secret_key_encrypted: string;
  /** encryptSecret() of the whsec_… secret */
  webhook_secret_encrypted: string;
  created_at: CreatedAt;
  /** sha256Hex of the sk_… key: how /api/v1 finds the account (0701) */
  secret_key_hash: string | null;
  /** the webhook secret before the last rotation, still signing for 24 h (0701) */
  webhook_secret_prev_encrypted: string | null;
  webhook_secret_rotated_at: Timestamp | null;
}

/** 0600: a signed-in session; its id is the token's `sid` claim */
export interface SessionsTable {
  id: Generated<string>;
  account_id: string;
  admin_id: string;
  ghost: Generated<boolean>;
  staff_id: string | null;
  created_at: CreatedAt;
  expires_at: Timestamp;
  revoked_at: Timestamp | null;
  reason: 'sign-out' | 'ghost-ended' | 'archived' | 'role-changed' | null;
}
