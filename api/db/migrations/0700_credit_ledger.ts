// The credit meter every app charges: an append-only ledger, one row per billable unit of a
// task, written in the task's own transaction. The unique key makes a retried charge a no-op;
// app_billing.credits is the running total of the current period, kept in the same statement
// path so bootstrap and the header never sum the ledger.
import { tenantPolicy } from './policy';

export const id = '0700_credit_ledger';

export const sql = `
create table credit_ledger (
  id uuid primary key default gen_random_uuid(),
  account_id uuid not null references accounts(id) on delete cascade,
  app text not null,
  -- the task that consumed the credits (its id in the app's task table)
  task_id text not null,
  -- what was charged, e.g. 'sms' for one SMS sent; a task can be charged once per kind
  kind text not null check (length(kind) between 1 and 40),
  units integer not null check (units > 0),
  ts timestamptz not null default now(),
  unique (account_id, app, task_id, kind)
);
create index credit_ledger_by_day on credit_ledger (account_id, app, ts);

-- append-only: corrections are new rows, never edits
create function credit_ledger_append_only() returns trigger language plpgsql as $$
begin
  raise exception 'credit_ledger is append-only';
end $$;
create trigger credit_ledger_no_update before update or delete on credit_ledger
  for each row execute function credit_ledger_append_only();

${tenantPolicy('credit_ledger')}
`;
