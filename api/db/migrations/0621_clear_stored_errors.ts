// Delivery errors stored before error text was cleaned (api/http/error-text.ts) may quote a
// destination's key or a header value. They are replaced, not kept: the next attempt records a
// clean one.

export const id = '0621_clear_stored_errors';

// the table forces row-level security on its owner too: act in the system scope, for this
// transaction only
export const sql = `
select set_config('app.scope', 'system', true);
update log_outbox set last_error = 'The details of this error were removed; the next attempt records them again.'
  where last_error is not null;
`;
