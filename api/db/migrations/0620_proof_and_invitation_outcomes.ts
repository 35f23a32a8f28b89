// Single sign-on for a domain needs proof (the `_switchboard-challenge.<domain>` TXT record
// carrying the account's token): only a proven domain is held against other accounts and routes
// sign-ins, so the unique index covers proven rows only. Connections saved before proof was
// required start unproven and verify once.
// An invitation whose person joined another account is kept, marked, so the account that sent
// it sees what happened instead of a row that silently vanished.

export const id = '0620_proof_and_invitation_outcomes';

export const sql = `
alter table sso_settings add column domain_verified_at timestamptz;
drop index sso_settings_domain;
create unique index sso_settings_proven_domain on sso_settings (domain) where domain_verified_at is not null;

alter table invitations add column status text not null default 'pending'
  check (status in ('pending', 'accepted-elsewhere'));
alter table invitations add column closed_at timestamptz;
`;
