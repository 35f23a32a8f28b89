import { tenantPolicy } from './policy';

// Live updates (docs/live-updates.md): what changed, as small id-only rows with increasing ids,
// written by triggers in the transaction of the change (so no writer can forget it and a
// rolled-back change announces nothing), and announced with pg_notify, which PostgreSQL delivers
// at commit. The payload of the notification is only the account id: each server process reads
// the rows of the accounts it holds streams for, under row-level security, and the same rows
// replay what a reconnecting tab missed. Rows live ten minutes (the live-events job deletes them).
//
// Statement-level triggers over transition tables: a bulk insert of a million tasks (the scale
// benches) costs one insert per statement, and past BULK rows one "many changed" row per account
// instead of one per task. pg_current_xact_id() is recorded so a reader can tell when every
// transaction that might still add a smaller id has ended (api/live/hub.ts).

export const id = '1030_live_events';

const TASK_TABLES: [table: string, app: string][] = [
  ['otp_verifications', 'one-time-passcode'],
  ['passkey_tasks', 'passkeys'],
  ['idv_sessions', 'identity-verification'],
  ['sig_requests', 'document-signature'],
  ['eform_requests', 'e-form'],
  ['payments', 'payments'],
];

const BULK = 100;

export const sql = `
create table live_events (
  id bigint generated always as identity primary key,
  account_id uuid not null,
  -- task | tasks (many at once) | notification | credits | outbox | session (ended; never sent to a tab)
  kind text not null,
  app text,
  ref uuid,
  -- a task's agent: an agent (host user) stream gets only its own tasks
  agent text,
  xid xid8 not null default pg_current_xact_id(),
  created_at timestamptz not null default now()
);
create index live_events_by_account on live_events (account_id, id);
create index live_events_by_time on live_events (created_at);
${tenantPolicy('live_events')}

create function live_notify_accounts(accounts uuid[]) returns void language plpgsql as $$
declare a uuid;
begin
  -- identical notifications of one transaction are folded into one by PostgreSQL
  foreach a in array accounts loop perform pg_notify('live', a::text); end loop;
end $$;

create function live_tasks_changed() returns trigger language plpgsql as $$
declare n int;
begin
  select count(*) into n from changed;
  if n = 0 then return null; end if;
  if n > ${BULK} then
    insert into live_events (account_id, kind, app) select distinct account_id, 'tasks', tg_argv[0] from changed;
  else
    insert into live_events (account_id, kind, app, ref, agent) select account_id, 'task', tg_argv[0], id, agent from changed;
  end if;
  perform live_notify_accounts(array(select distinct account_id from changed));
  return null;
end $$;

create function live_rows_added() returns trigger language plpgsql as $$
begin
  -- tg_argv[0]: the kind; tg_argv[1]: 'app' when the row's app column names the app
  if tg_argv[1] = 'app' then
    insert into live_events (account_id, kind, app) select distinct account_id, tg_argv[0], app from changed;
  else
    insert into live_events (account_id, kind, ref)
      select account_id, tg_argv[0], case when count(*) = 1 then (array_agg(id))[1] end from changed group by account_id;
  end if;
  perform live_notify_accounts(array(select distinct account_id from changed));
  return null;
end $$;

create function live_sessions_ended() returns trigger language plpgsql as $$
begin
  insert into live_events (account_id, kind, ref)
    select n.account_id, 'session', n.id from changed n join ended o on o.id = n.id
    where n.revoked_at is not null and o.revoked_at is null;
  perform live_notify_accounts(array(select distinct n.account_id from changed n join ended o on o.id = n.id
    where n.revoked_at is not null and o.revoked_at is null));
  return null;
end $$;

${TASK_TABLES.map(
  ([table, app]) => `
create trigger ${table}_live_added after insert on ${table}
  referencing new table as changed for each statement execute function live_tasks_changed('${app}');
create trigger ${table}_live_changed after update on ${table}
  referencing new table as changed for each statement execute function live_tasks_changed('${app}');`,
).join('\n')}

create trigger notifications_live after insert on notifications
  referencing new table as changed for each statement execute function live_rows_added('notification', '');
create trigger credit_ledger_live after insert on credit_ledger
  referencing new table as changed for each statement execute function live_rows_added('credits', 'app');
create trigger dev_sms_outbox_live after insert on dev_sms_outbox
  referencing new table as changed for each statement execute function live_rows_added('outbox', '');
create trigger sessions_live_ended after update on sessions
  referencing old table as ended new table as changed for each statement execute function live_sessions_ended();
`;
