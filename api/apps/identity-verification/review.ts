import { sql } from 'kysely';
import type { Deps } from '../../deps';
import type { Trx } from '../../db/index';
import { audit } from '../../audit';
import { ApiError } from '../../http/errors';
import { decryptSecret } from '../../crypto';
import { addTaskEvent } from '../platform/task-events';
import { enqueueWebhookEvent } from '../platform/webhook-events';
import { taskLanguage } from '../../customer-pages/language';
import type { Caller } from '../platform/caller';
import { revokeTaskLinks } from '../../customer-pages/links';
import { deleteFile, fileLink } from '../../storage/files';
import { maskPhone } from '../../contract/platform';
import {
  IDV_APP,
  IDV_DECISION_REASONS,
  IDV_REVIEW_STATUSES,
  type IdvDecisionBody,
  type IdvReview,
  type IdvSide,
} from '../../contract/apps/identity-verification';
import { readMrz, runChecks } from './checks';
import {
  checksOf,
  end,
  eventData,
  expireIfDue,
  idvSettings,
  iso,
  linkText,
  lockRow,
  prepareLink,
  sessionOf,
  storeChecks,
  trySend,
  update,
  type IdvDeps,
  type ImageRow,
  type SessionRow,
} from './service';

// The reviewer's side of Identity Verification: the review of one case, taking and releasing it,
// the MRZ the reviewer types from the photo, and the decision. The console's review screen, the
// demo seed and the tests call these; the rules of a session's life stay in ./service.

export type Reviewer = Caller & { adminId: string | null };

/** Whether the case is held by this reviewer (the same admin, or the same name for an API caller). */
export function heldBy(row: Pick<SessionRow, 'assigned_id' | 'assigned_name'>, viewer: Reviewer | null): boolean {
  if (!viewer || !row.assigned_name) return false;
  return viewer.adminId ? row.assigned_id === viewer.adminId : row.assigned_id === null && row.assigned_name === viewer.label;
}

export async function reviewOf(deps: IdvDeps, accountId: string, id: string, viewer: Reviewer | null = null): Promise<IdvReview> {
  const now = deps.now();
  return deps.db.tenant(accountId, async (trx) => {
    const row = await expireIfDue(trx, accountId, await lockRow(trx, accountId, id), now);
    const images = (
      await sql<ImageRow>`select side, file_id, content_type, size, uploaded_at from idv_images where account_id = ${accountId} and session_id = ${id} order by side`.execute(
        trx,
      )
    ).rows;
    const order: IdvSide[] = ['front', 'back', 'selfie'];
    images.sort((a, b) => order.indexOf(a.side) - order.indexOf(b.side));
    const reasonLabel = row.decision
      ? (IDV_DECISION_REASONS[row.decision].find((r) => r.key === row.decision_reason)?.label ?? row.decision_reason ?? '')
      : '';
    return {
      session: sessionOf(row, await checksOf(trx, accountId, id)),
      expectedName: row.expected_name,
      expectedDateOfBirth: row.expected_date_of_birth,
      // short-lived signed links: the reviewer's browser fetches each photo for a few minutes
      images: images.map((i) => ({
        side: i.side,
        url: i.file_id
          ? fileLink(deps as Deps, accountId, i.file_id, {
              ttlSeconds: 300,
              filename: `${i.side}.${i.content_type === 'image/png' ? 'png' : 'jpg'}`,
            })
          : null,
        contentType: i.file_id ? i.content_type : null,
        size: i.file_id ? i.size : null,
        uploadedAt: new Date(i.uploaded_at).toISOString(),
      })),
      imagesRedactedAt: iso(row.images_redacted_at),
      extracted: row.extracted,
      dataRedactedAt: iso(row.data_redacted_at),
      assignedTo: row.assigned_name ? { id: row.assigned_id, name: row.assigned_name } : null,
      assignedToYou: heldBy(row, viewer),
      decision: row.decision
        ? {
            decision: row.decision,
            reason: row.decision_reason ?? '',
            reasonLabel,
            note: row.decision_note,
            reviewer: { id: row.reviewer_id, name: row.reviewer_name ?? '' },
            at: iso(row.decided_at)!,
          }
        : null,
      reviewable: IDV_REVIEW_STATUSES.includes(row.status),
    };
  });
}

function assertReviewable(row: SessionRow): void {
  if (!IDV_REVIEW_STATUSES.includes(row.status))
    throw new ApiError(409, 'NOT_IN_REVIEW', 'This verification is not waiting for a review.');
}

async function assign(trx: Trx, accountId: string, row: SessionRow, reviewer: Reviewer, now: Date): Promise<SessionRow> {
  if (heldBy(row, reviewer)) return row;
  const from = row.assigned_name;
  const updated = await update(trx, row.id, { assigned_id: reviewer.adminId, assigned_name: reviewer.label });
  await addTaskEvent(trx, accountId, {
    app: IDV_APP,
    taskId: row.id,
    ts: now,
    type: 'assigned',
    description: from ? `Taken over from ${from} by ${reviewer.label}` : `Assigned to ${reviewer.label}`,
    caller: reviewer,
  });
  await audit(trx, accountId, reviewer.actor, {
    namespace: IDV_APP,
    description: from
      ? `Took over the identity verification of ${row.customer_ref} from ${from}`
      : `Took the identity verification of ${row.customer_ref} for review`,
    event: 'idv.assigned',
    at: now,
  });
  return updated;
}

/** The reviewer who holds a case gives it back to the queue; only the holder may. */
export async function releaseCase(deps: IdvDeps, accountId: string, id: string, reviewer: Reviewer): Promise<IdvReview> {
  const now = deps.now();
  await deps.db.tenant(accountId, async (trx) => {
    const row = await expireIfDue(trx, accountId, await lockRow(trx, accountId, id), now);
    assertReviewable(row);
    if (!row.assigned_name) return;
    if (!heldBy(row, reviewer))
      throw new ApiError(409, 'HELD_BY_ANOTHER', `${row.assigned_name} holds this case; only they can release it.`);
    await update(trx, id, { assigned_id: null, assigned_name: null });
    await addTaskEvent(trx, accountId, {
      app: IDV_APP,
      taskId: id,
      ts: now,
      type: 'released',
      description: `Released by ${reviewer.label}`,
      caller: reviewer,
    });
    await audit(trx, accountId, reviewer.actor, {
      namespace: IDV_APP,
      description: `Released the identity verification of ${row.customer_ref} back to the queue`,
      event: 'idv.released',
      at: now,
    });
  });
  return reviewOf(deps, accountId, id, reviewer);
}

export async function assignToMe(deps: IdvDeps, accountId: string, id: string, reviewer: Reviewer): Promise<IdvReview> {
  const now = deps.now();
  await deps.db.tenant(accountId, async (trx) => {
    const row = await expireIfDue(trx, accountId, await lockRow(trx, accountId, id), now);
    assertReviewable(row);
    await assign(trx, accountId, row, reviewer, now);
  });
  return reviewOf(deps, accountId, id, reviewer);
}

/**
 * The reviewer typed the MRZ lines from the photo (no OCR runs here): the lines are parsed, the
 * check digits verified and every check run again; any failure puts the session in needs_review.
 */
export async function enterMrz(
  deps: IdvDeps,
  accountId: string,
  id: string,
  lines: string[],
  reviewer: Reviewer,
): Promise<IdvReview> {
  const now = deps.now();
  await deps.db.tenant(accountId, async (trx) => {
    let row = await expireIfDue(trx, accountId, await lockRow(trx, accountId, id), now);
    assertReviewable(row);
    row = await assign(trx, accountId, row, reviewer, now);
    const reading = readMrz(lines, now);
    const data = 'error' in reading ? null : reading.extracted;
    const number = data?.documentNumber ?? null;
    // this account only: the same number in any other session of another account is not looked at
    const seen = number
      ? (
          await sql<{
            n: number;
          }>`select count(*)::int as n from idv_sessions where account_id = ${accountId} and document_number = ${number} and id <> ${id}`.execute(
            trx,
          )
        ).rows[0]!.n > 0
      : false;
    const settings = await idvSettings(trx, accountId);
    const results = runChecks({
      reading,
      expectedName: row.expected_name,
      expectedDateOfBirth: row.expected_date_of_birth,
      minimumAge: settings.minimumAge,
      today: now,
      seenElsewhere: seen,
    });
    const failed = await storeChecks(trx, accountId, id, results, now);
    await update(trx, id, { status: 'needs_review', extracted: data, document_number: number, failed_checks: failed });
    const summary =
      'error' in reading
        ? 'the lines are not a machine-readable zone'
        : failed
          ? `${failed} check${failed === 1 ? '' : 's'} failed`
          : 'every check that can run passed';
    await addTaskEvent(trx, accountId, {
      app: IDV_APP,
      taskId: id,
      ts: now,
      type: 'checks',
      description: `MRZ typed by the reviewer; ${summary}`,
      caller: reviewer,
    });
    await audit(trx, accountId, reviewer.actor, {
      namespace: IDV_APP,
      description: `Entered the MRZ of the identity verification of ${row.customer_ref} (${summary})`,
      event: 'idv.mrz-entered',
      at: now,
    });
  });
  return reviewOf(deps, accountId, id, reviewer);
}

/** Approve, decline (both final) or ask for new photos (a new link by SMS). */
export async function decide(
  deps: IdvDeps,
  accountId: string,
  id: string,
  body: IdvDecisionBody,
  reviewer: Reviewer,
): Promise<IdvReview> {
  const now = deps.now();
  const label = IDV_DECISION_REASONS[body.decision].find((r) => r.key === body.reason)!.label;
  const resend = await deps.db.tenant(accountId, async (trx) => {
    let row = await expireIfDue(trx, accountId, await lockRow(trx, accountId, id), now);
    assertReviewable(row);
    if (body.decision === 'approved' && !row.extracted) {
      throw new ApiError(
        409,
        'MRZ_REQUIRED',
        'Type the machine-readable zone from the photo first: the checks run on it before an approval.',
      );
    }
    row = await assign(trx, accountId, row, reviewer, now);
    const decision = {
      decision: body.decision,
      decision_reason: body.reason,
      decision_note: body.note || null,
      reviewer_id: reviewer.adminId,
      reviewer_name: reviewer.label,
      decided_at: now,
    };
    const words = { approved: 'Approved', declined: 'Declined', resubmission_requested: 'Asked for new photos' }[body.decision];
    await audit(trx, accountId, reviewer.actor, {
      namespace: IDV_APP,
      description: `${words}: identity verification of ${row.customer_ref} (${label})`,
      event: `idv.${body.decision}`,
      at: now,
    });
    if (body.decision !== 'resubmission_requested') {
      await end(trx, accountId, row, body.decision, now, reviewer, `${words}: ${label}`, decision);
      return null;
    }
    // new photos: the old ones and their link go, a new link is sent
    await revokeTaskLinks(trx, accountId, id, now);
    const old = (
      await sql<{ file_id: string | null }>`delete from idv_images where session_id = ${id} returning file_id`.execute(trx)
    ).rows;
    for (const o of old) if (o.file_id) await deleteFile(deps as Deps, trx, accountId, o.file_id);
    await sql`delete from idv_checks where session_id = ${id}`.execute(trx);
    // the new link speaks the language the session was started in
    const language = await taskLanguage(trx, accountId, id);
    // a journey's step: the SMS carries the journey's one link, whose page asks IDV for the
    // step's new token when it finds this one revoked (renewStepToken)
    const journeyUrl = row.return_url_encrypted ? decryptSecret(row.return_url_encrypted, deps.config.encryptionKey) : null;
    const link = journeyUrl
      ? {
          text: await linkText(trx, accountId, 'resubmission', journeyUrl, language),
          expiresAt: new Date(now.getTime() + (await idvSettings(trx, accountId)).linkValidityMinutes * 60_000),
        }
      : await prepareLink(deps, trx, accountId, row, 'resubmission', now, language);
    const updated = await update(trx, id, {
      ...decision,
      status: 'resubmission_requested',
      attempt: row.attempt + 1,
      link_expires_at: link.expiresAt,
      submitted_at: null,
      extracted: null,
      document_number: null,
      failed_checks: 0,
    });
    await addTaskEvent(trx, accountId, {
      app: IDV_APP,
      taskId: id,
      ts: now,
      type: 'resubmission_requested',
      description: `${words}: ${label}; earlier photos deleted`,
      caller: reviewer,
    });
    await enqueueWebhookEvent(trx, accountId, IDV_APP, 'idv.session.resubmission_requested', eventData(updated), now);
    return { phone: row.phone_number, text: link.text };
  });
  if (resend) {
    const failure = await trySend(deps, accountId, resend.phone, resend.text);
    await deps.db.tenant(accountId, (trx) =>
      addTaskEvent(trx, accountId, {
        app: IDV_APP,
        taskId: id,
        ts: now,
        type: failure ? 'send_failed' : 'link_sent',
        description: failure ? `New link not delivered: ${failure}` : `New link sent to ${maskPhone(resend.phone)}`,
        caller: reviewer,
      }),
    );
  }
  return reviewOf(deps, accountId, id, reviewer);
}
