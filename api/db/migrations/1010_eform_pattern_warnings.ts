// A published eForm version whose pattern the linear-time engine cannot run keeps working without
// that pattern; the first submission that meets it writes one audit entry and marks the version.
// The version itself stays frozen: the mark is the one column an update may set.
export const id = '1010_eform_pattern_warnings';
export const sql = `
alter table eform_versions add column patterns_dropped_at timestamptz;
create or replace function eform_versions_immutable() returns trigger language plpgsql as $$
begin
  if (new.account_id, new.form_id, new.version, new.definition, new.published_at, new.published_by)
     is not distinct from (old.account_id, old.form_id, old.version, old.definition, old.published_at, old.published_by) then
    return new;
  end if;
  raise exception 'a published form version cannot be changed';
end $$;
`;
