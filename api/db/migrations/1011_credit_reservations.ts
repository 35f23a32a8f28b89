// A credit is taken in the transaction that checks it (app_billing locked), before the SMS is
// sent; a send that fails gives it back. The ledger stays append-only: the release is a new row
// of negative units (kind '<kind>:released', once per charge by the unique key), so the ledger
// still sums to app_billing.credits.
export const id = '1011_credit_reservations';
export const sql = `
alter table credit_ledger drop constraint credit_ledger_units_check;
alter table credit_ledger add constraint credit_ledger_units_check check (units <> 0);
`;
