// Developer credentials per account: the widget key is public (it goes into customers' pages),
// the secret key and webhook secret are stored encrypted with ENCRYPTION_KEY, so a copy of the
// database alone does not reveal them while the console can still show them for copying.
import { tenantPolicy } from './policy';

export const id = '0200_developer_keys';

export const sql = `
create table developer_keys (
  account_id uuid primary key references accounts(id) on delete cascade,
  widget_key text not null unique,
  secret_key_encrypted text not null,
  webhook_secret_encrypted text not null,
  created_at timestamptz not null default now()
);

${tenantPolicy('developer_keys')}
`;
