// Callers' languages (customer pages, SMS texts): the account's default for its customers (null:
// the caller's browser decides), and the language a link was sent in (null: the account had no
// default and the agent chose none, so the page follows the browser).
export const id = '1040_customer_languages';

export const sql = `
alter table accounts add column customer_locale text;
alter table link_tokens add column locale text;
`;
