/**
 * Row-level security for a tenant table: rows are visible and writable only when the
 * transaction's app.account_id names their account, or in the explicit system scope.
 * A query with neither setting sees no rows.
 */
export function tenantPolicy(table: string, column = 'account_id'): string {
  const check = `(${column} = nullif(current_setting('app.account_id', true), '')::uuid or current_setting('app.scope', true) = 'system')`;
  return `
alter table ${table} enable row level security;
alter table ${table} force row level security;
create policy ${table}_tenant on ${table} using ${check} with check ${check};`;
}
