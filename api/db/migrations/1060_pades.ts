import { tenantPolicy } from './policy';

// PAdES seals: what each seal is (its PAdES level, who sealed it, the trusted time) and the
// accounts' own signing certificates. A certificate's private key is stored encrypted at rest
// (AES-256-GCM under ENCRYPTION_KEY, as every secret); the password that opened the upload is
// never stored. Certificates are kept after removal (removed_at) so every seal stays explained.
export const id = '1060_pades';

export const sql = `
create table sig_signing_certificates (
  id uuid primary key default gen_random_uuid(),
  account_id uuid not null references accounts(id) on delete cascade,
  subject text not null,
  issuer text not null,
  serial text not null,
  fingerprint text not null,
  key_type text not null,
  not_before timestamptz not null,
  not_after timestamptz not null,
  -- when it starts sealing: a new certificate may be scheduled while the current one still seals
  active_from timestamptz not null,
  -- the private key (PKCS#8 PEM), encrypted at rest; the chain (PEM, leaf first) is public
  encrypted_key text not null,
  chain_pem text not null,
  uploaded_by text not null,
  uploaded_at timestamptz not null,
  removed_at timestamptz,
  removed_by text
);
create index sig_signing_certificates_by_account on sig_signing_certificates (account_id, active_from desc) where removed_at is null;
${tenantPolicy('sig_signing_certificates')}

alter table sig_requests
  add column seal_level text check (seal_level in ('B-B', 'B-T', 'B-LT')),
  add column sealed_by text,
  add column signing_certificate_id uuid references sig_signing_certificates(id),
  add column timestamped_at timestamptz;
`;
