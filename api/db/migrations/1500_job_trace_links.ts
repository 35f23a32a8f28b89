// Issue 43: a job run's span links to the spans of the requests that asked for it. A request that
// asks a job to run soon (an export) keeps its W3C traceparent with the job's row, newest first,
// at most 32; the run that leases the row takes them and clears them. Nothing but trace and span
// ids: no values of the request.
export const id = '1500_job_trace_links';

export const sql = `
alter table jobs add column trace_links text[];
`;
