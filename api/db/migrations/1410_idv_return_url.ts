// An identity step of a journey runs on Identity Verification's own page and forms, which post to
// IDV's own addresses and answer with a redirect. The session keeps where its step came from (the
// journey's link, encrypted like the journey's own copy: it opens the caller's journey), so each of
// those redirects lands the caller back on the journey rather than on IDV's page alone.

export const id = '1410_idv_return_url';

export const sql = `
alter table idv_sessions add column return_url_encrypted text;
`;
