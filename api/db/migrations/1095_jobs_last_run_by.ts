// Which worker (process id and a random tag) finished each periodic job last: with several
// processes, what an operator reads to see who ran a job, and what the test of "each due job runs
// once across processes" checks.
export const id = '1095_jobs_last_run_by';

export const sql = `
alter table jobs add column last_run_by text;
`;
