// "Answer contains" on eForm Submissions: a substring of the answers, which no B-tree serves (it
// scanned every submission of the account: 395 ms at 1,000,000 tasks). A trigram index (pg_trgm,
// in Debian's PostgreSQL and loaded into the embedded PGlite by api/db/index.ts) finds the
// submissions holding a needle of 3 characters or more; shorter needles have no trigram, so the
// API refuses them (CONTAINS_TOO_SHORT) rather than scan. pg_trgm is a trusted extension: the
// database's owner creates it without superuser rights.
//
// Under row-level security PostgreSQL never uses an index for LIKE: the operator is not
// LEAKPROOF, so it runs only after the policy's filter, on every row of the account. The search
// therefore goes through a SECURITY DEFINER function owned by the role that migrates (which
// PostgreSQL's row-level security does not bind when it is a superuser or has BYPASSRLS): it
// scopes itself to the same `app.account_id` the policies read, so it returns no row the caller's
// own policies would hide; under an owner that row-level security does bind, it is as correct
// and as slow as before. It returns request ids only.
//
// A trigram index reads every submission holding the needle before it can order them: right for
// a rare needle ("city 042": a few hundred rows), ruinous for one in every submission ("pipe
// burst": 500,000). The list walks its own index newest first for those, stopping at the page;
// which way it goes is the planner's own estimate of how many submissions hold the needle
// (eform_answers_estimate, from the column's statistics, read past row-level security like the
// search; it answers a row count, never a row).
export const id = '1250_eform_answers_trigram';

export const sql = `
create extension if not exists pg_trgm;
create index if not exists eform_submissions_answers_trgm on eform_submissions using gin (answers_text gin_trgm_ops);
create or replace function eform_requests_answering(needle text) returns setof uuid
  language sql stable security definer set search_path = pg_catalog, public as $$
  select s.request_id from public.eform_submissions s
   where s.account_id = nullif(current_setting('app.account_id', true), '')::uuid
     and s.answers_text like needle
$$;
create or replace function eform_answers_estimate(needle text) returns double precision
  language plpgsql volatile security definer set search_path = pg_catalog, public as $$
declare plan json;
begin
  execute format('explain (format json) select 1 from public.eform_submissions where answers_text like %L', needle) into plan;
  return (plan->0->'Plan'->>'Plan Rows')::double precision;
end $$;
revoke all on function eform_answers_estimate(text) from public;
grant execute on function eform_answers_estimate(text) to switchboard_app;
revoke all on function eform_requests_answering(text) from public;
grant execute on function eform_requests_answering(text) to switchboard_app;
`;
