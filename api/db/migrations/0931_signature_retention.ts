// Retention of completed documents (Configuration > Storage): when the signed PDF and the drawn
// signatures of a completed request were deleted. The request itself, its times and its audit
// trail stay.
export const id = '0931_signature_retention';

export const sql = `
alter table sig_requests add column files_deleted_at timestamptz;
create index sig_requests_retention on sig_requests (completed_at) where status = 'completed' and files_deleted_at is null;
`;
