// Watch Tower's account search matches part of a name or e-mail, case-insensitively (ILIKE
// '%…%'), across every account: no B-tree index serves a substring, so each search scans
// accounts and admins. What made that slow at 10,000 accounts was not the scan but lower(),
// which ILIKE runs on every value (in a UTF-8 database `x ILIKE p` is exactly
// `lower(x) LIKE lower(p)`, PostgreSQL's like.c): four ILIKEs per admin and one per account,
// each lowering its text again. The lowered text is kept here, computed once when a row is
// written, and the search runs LIKE on it: same matches, a third of the time.
// (pg_trgm would index the substring, but it needs an extension on every deployment and on the
// embedded database for a search that is already within its budget.)
export const id = '0960_watch_tower_search';

export const sql = `
alter table accounts add column name_lower text generated always as (lower(name)) stored;
-- first and last name on their own are substrings of "first last": one column covers all three
alter table admins add column email_lower text generated always as (lower(email)) stored,
  add column name_lower text generated always as (lower(first_name || ' ' || last_name)) stored;
`;
