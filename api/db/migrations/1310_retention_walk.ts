// The redaction job walks each kind's due records in (created_at, id) order, a batch per
// statement (api/privacy/retention.ts): these partial indexes answer each batch as one index
// range that starts after the last key taken, so the entries that earlier batches left behind
// (a redacted row leaves the index only at the next vacuum) are never read again. They replace
// the (account_id, created_at) ones of 1301. The Storage kinds (Identity Verification images and
// data, completed signed documents) get theirs for the dry run and the job alike.
export const id = '1310_retention_walk';

export const sql = `
drop index if exists otp_verifications_unredacted;
drop index if exists passkey_tasks_unredacted;
drop index if exists eform_requests_unredacted;
drop index if exists payments_unredacted;
create index otp_verifications_unredacted on otp_verifications (account_id, created_at, id) where phone_number <> '[erased]';
create index passkey_tasks_unredacted on passkey_tasks (account_id, created_at, id) where phone_number <> '[erased]';
create index eform_requests_unredacted on eform_requests (account_id, created_at, id) where phone_number <> '[erased]';
create index payments_unredacted on payments (account_id, created_at, id) where phone_number <> '[erased]';
create index idv_sessions_images_kept on idv_sessions (account_id, created_at) where images_redacted_at is null;
create index idv_sessions_data_kept on idv_sessions (account_id, created_at) where data_redacted_at is null;
create index sig_requests_files_kept on sig_requests (account_id, completed_at) where status = 'completed' and files_deleted_at is null;
`;
