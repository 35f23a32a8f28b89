// The language the signer signed in (the page's language when they pressed Sign): the sealed
// document's certificate of completion is written in it, with English beside it. Null for
// requests signed before this, whose certificates are English.
export const id = '1090_signer_language';

export const sql = `
alter table sig_requests add column signer_locale text;
`;
