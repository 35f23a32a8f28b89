// The signer's page offers each page image in two widths (srcset): the 1000 px one published so
// far and a 720 px one for a phone (360 px at 2x), made by the console at publish like the other. Versions
// published before this have none (their page offers the one width). Adding a column fires no
// row trigger, so published versions stay as they are.
export const id = '1091_signature_page_images_small';

export const sql = `
alter table sig_document_versions add column page_image_small_ids jsonb not null default '[]';
`;
