// Customer results (one completed task of any app) with a daily rollup per account and app,
// the date each app became paid (for Watch Tower's cumulative paid accounts), and account
// notifications with per-admin read state.
import { tenantPolicy } from './policy';

export const id = '0500_results_notifications';

export const sql = `
create table customer_results (
  id uuid primary key default gen_random_uuid(),
  account_id uuid not null references accounts(id) on delete cascade,
  app text not null,
  status text not null check (status in ('success', 'failure', 'timeout')),
  ts timestamptz not null default now(),
  session_ref text not null,
  phone_number text,
  customer_ref text
);
-- the global customer search reads newest-first by either key without touching other rows
create index customer_results_by_ref on customer_results (account_id, customer_ref, ts desc) where customer_ref is not null;
create index customer_results_by_phone on customer_results (account_id, phone_number, ts desc) where phone_number is not null;

-- kept by recordResult() in the same transaction, so dashboards never scan customer_results
create table result_daily (
  account_id uuid not null references accounts(id) on delete cascade,
  app text not null,
  day date not null,
  count integer not null default 0,
  primary key (account_id, app, day)
);
create index result_daily_day on result_daily (day);

-- when an app last became paid (subscription or enterprise); null while it is not paid
alter table app_billing add column paid_since timestamptz;
create function app_billing_paid_since() returns trigger language plpgsql as $$
begin
  if new.status in ('subscription', 'enterprise') then
    if tg_op = 'INSERT' then
      new.paid_since := coalesce(new.paid_since, now());
    elsif old.status not in ('subscription', 'enterprise') then
      new.paid_since := coalesce(new.paid_since, now());
    end if;
  else
    new.paid_since := null;
  end if;
  return new;
end $$;
create trigger app_billing_paid_since before insert or update of status on app_billing
  for each row execute function app_billing_paid_since();

create table notifications (
  id uuid primary key default gen_random_uuid(),
  account_id uuid not null references accounts(id) on delete cascade,
  kind text not null,
  title text not null,
  body text not null default '',
  link text,
  -- notifications computed on read (trial ending, credits) are created once per cause
  dedupe_key text,
  created_at timestamptz not null default now()
);
create index notifications_recent on notifications (account_id, created_at desc, id desc);
create unique index notifications_dedupe on notifications (account_id, dedupe_key) where dedupe_key is not null;

create table notification_reads (
  account_id uuid not null references accounts(id) on delete cascade,
  notification_id uuid not null references notifications(id) on delete cascade,
  admin_id uuid not null references admins(id) on delete cascade,
  read_at timestamptz not null default now(),
  primary key (notification_id, admin_id)
);

-- A custom domain becomes verified wherever that happens (the domain settings, a background
-- re-check): the notification is written by the same statement, so it exists exactly when the
-- verified state does.
create function branding_domain_verified_notice() returns trigger language plpgsql as $$
begin
  if new.domain_is_verified and new.domain is not null
     and (not old.domain_is_verified or old.domain is distinct from new.domain) then
    insert into notifications (account_id, kind, title, body, link)
    values (new.account_id, 'domain.verified', 'Custom domain verified',
            new.domain || ' now points to your console.', '/settings/domain');
  end if;
  return new;
end $$;
create trigger branding_domain_verified_notice after update of domain_is_verified, domain on branding
  for each row execute function branding_domain_verified_notice();

${tenantPolicy('customer_results')}
${tenantPolicy('result_daily')}
${tenantPolicy('notifications')}
${tenantPolicy('notification_reads')}
`;
