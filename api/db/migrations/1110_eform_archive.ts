// eForm: a retired form that was once published is archived, not deleted: its versions are what
// requests, submissions, delivered webhooks and the audit log refer to, and deleting the form
// would cascade its customers' answers away. An archived form leaves the Forms list and the
// Submissions filter's main list, and can be restored.
export const id = '1110_eform_archive';
export const sql = `
alter table eform_forms add column archived_at timestamptz;
`;
