// Product-wide daily totals per app for Watch Tower's summary: one row per app and day instead
// of summing every account's rollup (10,000 accounts x a year is millions of rows per request).
// A trigger keeps them with every change to result_daily, whoever makes it, in the same
// transaction. Not tenant data: provider staff read it in the system scope; tenants never do,
// and only the trigger (security definer) writes it.

export const id = '0650_result_totals';

export const sql = `
create table result_daily_totals (
  app text not null,
  day date not null,
  count bigint not null default 0,
  primary key (app, day)
);
alter table result_daily_totals enable row level security;
create policy result_daily_totals_system on result_daily_totals
  using (current_setting('app.scope', true) = 'system') with check (current_setting('app.scope', true) = 'system');

create function result_daily_totals_keep() returns trigger language plpgsql security definer set search_path = public as $$
begin
  if tg_op in ('UPDATE', 'DELETE') then
    update result_daily_totals set count = count - old.count where app = old.app and day = old.day;
  end if;
  if tg_op in ('INSERT', 'UPDATE') then
    insert into result_daily_totals (app, day, count) values (new.app, new.day, new.count)
    on conflict (app, day) do update set count = result_daily_totals.count + excluded.count;
  end if;
  return null;
end $$;
create trigger result_daily_totals_keep after insert or update or delete on result_daily
  for each row execute function result_daily_totals_keep();

insert into result_daily_totals (app, day, count) select app, day, sum(count) from result_daily group by app, day;
`;
