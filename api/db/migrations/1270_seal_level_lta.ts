// PAdES B-LTA: a seal whose validation data is covered by a document time-stamp (the DSS and the
// time-stamp in one revision, docs/signatures.md). B-LT stays allowed for seals made before.
export const id = '1270_seal_level_lta';

export const sql = `
alter table sig_requests drop constraint if exists sig_requests_seal_level_check;
alter table sig_requests add constraint sig_requests_seal_level_check check (seal_level in ('B-B', 'B-T', 'B-LT', 'B-LTA'));
`;
