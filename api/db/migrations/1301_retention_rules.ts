// Retention for every kind of caller data (issue 42), per account. Each rule has its days (null
// keeps) and the time its first run may come: defaults brought by an upgrade start 30 days after
// it, so existing data is never redacted by surprise; an admin may confirm sooner. An account
// made later has no rows and takes the defaults 30 days after it was made (api/privacy/retention.ts).
import { tenantPolicy } from './policy';
export const id = '1301_retention_rules';

export const sql = `
create table retention_rules (
  account_id uuid not null references accounts(id) on delete cascade,
  kind text not null,
  days integer check (days is null or days between 1 and 3650),
  starts_at timestamptz not null,
  confirmed_by text,
  updated_at timestamptz not null default now(),
  primary key (account_id, kind)
);
${tenantPolicy('retention_rules')}
insert into retention_rules (account_id, kind, days, starts_at)
  select a.id, k.kind, k.days, now() + interval '30 days'
  from accounts a, (values ('otp.tasks', 90), ('passkeys.tasks', 90), ('eform.answers', 365), ('payments.records', 180), ('sms.messages', 90), ('webhooks.events', 30)) as k(kind, days);

-- the redaction job looks for records past their time not yet redacted: these keep that a short
-- index range however many redacted records pile up
create index otp_verifications_unredacted on otp_verifications (account_id, created_at) where phone_number <> '[erased]';
create index passkey_tasks_unredacted on passkey_tasks (account_id, created_at) where phone_number <> '[erased]';
create index eform_requests_unredacted on eform_requests (account_id, created_at) where phone_number <> '[erased]';
create index payments_unredacted on payments (account_id, created_at) where phone_number <> '[erased]';
create index dev_sms_outbox_by_age on dev_sms_outbox (account_id, created_at);
create index webhook_events_by_age on webhook_events (account_id, created_at);
-- a redacted task's links are revoked by task: without this each batch would read every link
create index link_tokens_by_task on link_tokens (account_id, task_id) where revoked_at is null;
`;
