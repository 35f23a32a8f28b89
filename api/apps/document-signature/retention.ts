import { sql } from 'kysely';
import type { Deps } from '../../deps';
import { deleteFile } from '../../storage/files';
import { addTaskEvent } from '../platform/task-events';
import { SIG_APP } from '../../contract/apps/document-signature';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Retention of completed documents: past the account's days for `document-signature.completed`
 * (Configuration > Storage), a completed request's signed PDF and drawn signatures are deleted
 * from storage. The document version it was sent from is not: other requests use it. The request,
 * its times and its timeline stay, so the list still says who signed what and when. Run by the
 * one `privacy.retention` job, which writes one audit entry per run with the counts `tally` gets.
 */
export async function deleteExpiredSignedFiles(deps: Deps, limit = 200, tally: (accountId: string, kind: string, n: number) => void = () => {}): Promise<number> {
  const now = deps.now();
  const accounts = await deps.db.system((trx) =>
    sql<{ account_id: string; days: number }>`
      select account_id, (retention->>'document-signature.completed')::int as days from storage_settings
      where retention->>'document-signature.completed' ~ '^[0-9]{1,6}$'`.execute(trx),
  );
  let deleted = 0;
  for (const a of accounts.rows) {
    const before = new Date(now.getTime() - a.days * DAY_MS);
    const done = await deps.db.tenant(a.account_id, async (trx) => {
      const rows = (
        await sql<{ id: string; signed_file_id: string | null }>`
          select id, signed_file_id from sig_requests
          where account_id = ${a.account_id} and status = 'completed' and files_deleted_at is null and legal_hold_at is null and completed_at < ${before}
          order by completed_at limit ${limit} for update skip locked`.execute(trx)
      ).rows;
      for (const row of rows) {
        if (row.signed_file_id) await deleteFile(deps, trx, a.account_id, row.signed_file_id);
        const images = (await sql<{ image_file_id: string }>`select image_file_id from sig_field_values where request_id = ${row.id} and image_file_id is not null`.execute(trx)).rows;
        for (const img of images) await deleteFile(deps, trx, a.account_id, img.image_file_id);
        await sql`update sig_field_values set image_file_id = null where request_id = ${row.id}`.execute(trx);
        await sql`update sig_requests set signed_file_id = null, files_deleted_at = ${now} where id = ${row.id}`.execute(trx);
        const description = `Retention: the signed PDF and drawn signatures deleted after ${a.days} days`;
        await addTaskEvent(trx, a.account_id, { app: SIG_APP, taskId: row.id, ts: now, type: 'files_deleted', description, caller: null });
      }
      return rows.length;
    });
    if (done) tally(a.account_id, 'document-signature.completed', done);
    deleted += done;
  }
  return deleted;
}
