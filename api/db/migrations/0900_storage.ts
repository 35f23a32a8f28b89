// Files the apps keep (signed PDFs, ID images, form uploads) and where each account keeps them:
// in this database (the default) or in its own S3-compatible bucket.
import { tenantPolicy } from './policy';

export const id = '0900_storage';

export const sql = `
create table storage_settings (
  account_id uuid primary key references accounts(id) on delete cascade,
  backend text not null default 'database' check (backend in ('database', 's3')),
  s3_endpoint text,
  s3_region text,
  s3_bucket text,
  s3_access_key_id text,
  s3_secret_encrypted text,
  s3_path_style boolean not null default true,
  -- days to keep each kind of content ({"idv.images": 30, ...}); a missing kind is kept
  retention jsonb not null default '{}',
  updated_at timestamptz not null default now()
);
${tenantPolicy('storage_settings')}

create table stored_files (
  id uuid primary key default gen_random_uuid(),
  account_id uuid not null references accounts(id) on delete cascade,
  app text not null,
  content_type text not null,
  size integer not null,
  sha256 text not null,
  -- where the bytes went when written (a later change of settings does not move old files)
  backend text not null check (backend in ('database', 's3')),
  s3_bucket text,
  object_key text,
  bytes bytea,
  created_at timestamptz not null,
  deleted_at timestamptz
);
create index stored_files_by_account on stored_files (account_id, created_at);
${tenantPolicy('stored_files')}
`;
