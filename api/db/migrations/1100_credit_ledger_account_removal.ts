// The ledger stays append-only for every statement but one: removing an account removes its
// ledger with it (the foreign key's cascade). Demo accounts carry opening usage in the ledger, so
// re-seeding and deleting an account must not be refused by the trigger that guards its history.
export const id = '1100_credit_ledger_account_removal';

export const sql = `
create or replace function credit_ledger_append_only() returns trigger language plpgsql as $$
begin
  -- a cascade runs inside the foreign key's own trigger, after the account row is gone
  if tg_op = 'DELETE' and pg_trigger_depth() > 1
     and not exists (select 1 from accounts where id = old.account_id) then
    return old;
  end if;
  raise exception 'credit_ledger is append-only';
end $$;
`;
