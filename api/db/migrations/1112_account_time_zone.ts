// The account's time zone: the console shows dates in it (in each admin's browser locale), and
// customer pages and the sealed PDF in the caller's language. An owner changes it in Settings >
// Branding. Existing accounts take their owner's time zone where one is known, else UTC.
export const id = '1112_account_time_zone';

export const sql = `
alter table accounts add column time_zone text not null default 'UTC';
update accounts a set time_zone = o.time_zone
  from admins o
  where o.account_id = a.id and o.role = 'owner' and o.archived_at is null
    and o.time_zone is not null and o.time_zone <> '' and o.time_zone ~ '^[A-Za-z_]+(/[A-Za-z0-9_+-]+)*$';
`;
