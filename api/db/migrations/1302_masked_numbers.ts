// Less personal data in sight (issue 42): webhook destinations made from now on and log shipments
// carry phone numbers masked (+1 •••• •• 4567) unless the account opts in per destination.
// Existing webhook destinations keep receiving full numbers, so no integration breaks.
export const id = '1302_masked_numbers';

export const sql = `
alter table webhook_endpoints add column full_phone_numbers boolean not null default false;
update webhook_endpoints set full_phone_numbers = true;
alter table logging_destinations add column full_phone_numbers boolean not null default false;
`;
