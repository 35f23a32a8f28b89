import { sql } from 'kysely';
import { audit, type Actor } from '../../audit';
import { ApiError } from '../../http/errors';
import { EFORM_APP, type FormDeleted, type FormDetail } from '../../contract/apps/e-form';
import { detailOf, formRow, type EformDeps } from './service';

// The end of a form's life. Delete or archive is decided by whether the form was ever published:
// - never published: nothing was sent with it (a draft cannot be sent), so nothing refers to it;
//   it is deleted for good, like the "Untitled form" an admin opened and left.
// - published once: its versions are what requests, submissions, webhooks already delivered and
//   the audit log refer to, and deleting the form would cascade its customers' answers away.
//   It is archived instead, once it is closed (a live form first stops taking requests): it
//   leaves the Forms list and the Send picker, its submissions stay in Submissions and the export,
//   and Restore brings it back as closed.

/** DELETE /api/e-form/forms/{id}: a form that was never published. */
export async function deleteDraftForm(deps: EformDeps, accountId: string, id: string, actor: Actor): Promise<FormDeleted> {
  const now = deps.now();
  return deps.db.tenant(accountId, async (trx) => {
    const row = await formRow(trx, accountId, id, true);
    if (row.latest_version !== null) {
      throw new ApiError(
        409,
        'FORM_HAS_HISTORY',
        'This form was published: it keeps its versions and submissions. Close it, then archive it.',
      );
    }
    await sql`delete from eform_forms where account_id = ${accountId} and id = ${id}`.execute(trx);
    await audit(trx, accountId, actor, {
      namespace: EFORM_APP,
      description: `Deleted the draft form "${row.draft.title}"`,
      event: 'form.deleted',
      at: now,
    });
    return { id, deleted: true as const };
  });
}

/** POST /api/e-form/forms/{id}/archive: a closed form, kept with its submissions. */
export async function archiveForm(deps: EformDeps, accountId: string, id: string, actor: Actor): Promise<FormDetail> {
  const now = deps.now();
  return deps.db.tenant(accountId, async (trx) => {
    const row = await formRow(trx, accountId, id, true);
    if (row.latest_version === null)
      throw new ApiError(409, 'FORM_NOT_PUBLISHED', 'This form was never published: delete it instead.');
    if (row.status === 'published')
      throw new ApiError(409, 'FORM_NOT_CLOSED', 'This form still takes requests: close it before archiving it.');
    if (!row.archived_at) {
      await sql`update eform_forms set archived_at = ${now} where account_id = ${accountId} and id = ${id}`.execute(trx);
      const kept = row.submissions ? ` (its ${row.submissions} submission${row.submissions === 1 ? ' is' : 's are'} kept)` : '';
      await audit(trx, accountId, actor, {
        namespace: EFORM_APP,
        description: `Archived the form "${row.draft.title}"${kept}`,
        event: 'form.archived',
        at: now,
      });
    }
    return detailOf(trx, accountId, await formRow(trx, accountId, id));
  });
}

/** POST /api/e-form/forms/{id}/restore: back in the Forms list, still closed. */
export async function restoreForm(deps: EformDeps, accountId: string, id: string, actor: Actor): Promise<FormDetail> {
  const now = deps.now();
  return deps.db.tenant(accountId, async (trx) => {
    const row = await formRow(trx, accountId, id, true);
    if (row.archived_at) {
      await sql`update eform_forms set archived_at = null where account_id = ${accountId} and id = ${id}`.execute(trx);
      await audit(trx, accountId, actor, {
        namespace: EFORM_APP,
        description: `Restored the archived form "${row.draft.title}"`,
        event: 'form.restored',
        at: now,
      });
    }
    return detailOf(trx, accountId, await formRow(trx, accountId, id));
  });
}
