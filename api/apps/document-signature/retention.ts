import { sql } from 'kysely';
import type { Deps } from '../../deps';
import type { Trx } from '../../db/index';
import { deleteFiles } from '../../storage/files';
import { addTaskEvent } from '../platform/task-events';
import { SIG_APP } from '../../contract/apps/document-signature';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Retention of completed documents: past the account's days for `document-signature.completed`
 * (Configuration > Storage, or Customer data's Retention card), a completed request's signed PDF
 * and drawn signatures are deleted from storage. The document version it was sent from is not:
 * other requests use it. The request, its times and its timeline stay, so the list still says who
 * signed what and when. One batch of the one `privacy.retention` job (which decides whether the
 * rule is in force and writes one audit entry per run with the counts): the files in bulk, the
 * rows set-based. Answers how many requests.
 */
export async function deleteExpiredSignedFiles(
  deps: Deps,
  trx: Trx,
  accountId: string,
  before: Date,
  limit = 200,
): Promise<number> {
  const now = deps.now();
  const rows = (
    await sql<{ id: string; signed_file_id: string | null }>`
      select id, signed_file_id from sig_requests
      where account_id = ${accountId} and status = 'completed' and files_deleted_at is null and legal_hold_at is null and completed_at < ${before}
      order by completed_at limit ${limit} for update skip locked`.execute(trx)
  ).rows;
  if (!rows.length) return 0;
  const ids = rows.map((r) => r.id);
  const images = (
    await sql<{
      image_file_id: string;
    }>`select image_file_id from sig_field_values where account_id = ${accountId} and request_id = any(${ids}::uuid[]) and image_file_id is not null`.execute(
      trx,
    )
  ).rows;
  await deleteFiles(deps, trx, accountId, [...rows.map((r) => r.signed_file_id), ...images.map((i) => i.image_file_id)]);
  await sql`update sig_field_values set image_file_id = null where account_id = ${accountId} and request_id = any(${ids}::uuid[]) and image_file_id is not null`.execute(
    trx,
  );
  await sql`update sig_requests set signed_file_id = null, files_deleted_at = ${now} where account_id = ${accountId} and id = any(${ids}::uuid[])`.execute(
    trx,
  );
  const days = Math.round((now.getTime() - before.getTime()) / DAY_MS);
  for (const id of ids) {
    await addTaskEvent(trx, accountId, {
      app: SIG_APP,
      taskId: id,
      ts: now,
      type: 'files_deleted',
      description: `Retention: the signed PDF and drawn signatures deleted after ${days} days`,
      caller: null,
    });
  }
  return ids.length;
}
