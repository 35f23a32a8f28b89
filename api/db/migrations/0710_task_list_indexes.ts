import { tenantPolicy } from './policy';

// Activity lists at scale (1,000,000 tasks): every filter walks an index already in the list's
// order (created_at desc, id desc), so a page is an index range scan that stops at the limit,
// with or without a filter and however deep. The first page's unfiltered total comes from a
// counter kept by a statement trigger in the transaction of each insert or delete, not a count.
// Searching by part of a phone number (a substring) is the one filter still scanned; see docs/architecture.md.

export const id = '0710_task_list_indexes';

export const sql = `
create index otp_verifications_by_status on otp_verifications (account_id, status, created_at desc, id desc);
create index otp_verifications_by_agent on otp_verifications (account_id, agent, created_at desc, id desc);
create index otp_verifications_by_customer on otp_verifications (account_id, customer_ref, created_at desc, id desc);
create index otp_verifications_by_phone on otp_verifications (account_id, phone_number, created_at desc, id desc);

create table task_counts (
  account_id uuid not null references accounts(id) on delete cascade,
  app text not null,
  count bigint not null default 0,
  primary key (account_id, app)
);
${tenantPolicy('task_counts')}

-- per statement over the transition table: a bulk insert costs one upsert per account, not per row
create function task_counts_added() returns trigger language plpgsql as $$
begin
  insert into task_counts (account_id, app, count) select account_id, tg_argv[0], count(*) from added group by account_id
    on conflict (account_id, app) do update set count = task_counts.count + excluded.count;
  return null;
end $$;
create function task_counts_removed() returns trigger language plpgsql as $$
begin
  update task_counts set count = task_counts.count - r.n
    from (select account_id, count(*) as n from removed group by account_id) r
    where task_counts.account_id = r.account_id and task_counts.app = tg_argv[0];
  return null;
end $$;
create trigger otp_verifications_counted after insert on otp_verifications
  referencing new table as added for each statement execute function task_counts_added('one-time-passcode');
create trigger otp_verifications_uncounted after delete on otp_verifications
  referencing old table as removed for each statement execute function task_counts_removed('one-time-passcode');

insert into task_counts (account_id, app, count) select account_id, 'one-time-passcode', count(*) from otp_verifications group by account_id;
`;
