// What an upload's cleaning took out of the PDF (JavaScript, embedded files, actions...), kept on
// the version so its page can say so; a new draft copies it with the file it shares. Versions
// uploaded before cleaning have none recorded (their seals are cleaned all the same).
export const id = '1070_signature_removed_content';
export const sql = `
alter table sig_document_versions add column removed_content text[] not null default '{}';
`;
