import { sql } from 'kysely';
import { IDV_QUEUE_LIMIT, type IdvQueue } from '../../contract/apps/identity-verification';
import type { IdvDeps, SessionRow } from './service';
import { heldBy, type Reviewer } from './review';

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

// The review queue: which cases wait for a reviewer and who holds each. A case is held by the
// reviewer who took it (Assign to me, typing the MRZ or deciding); the holder may release it
// (heldBy, beside the rules that take and release a case in ./review).

/** The review queue: cases waiting for a reviewer, the oldest submission first. */
export async function reviewQueue(deps: IdvDeps, accountId: string, viewer: Reviewer): Promise<IdvQueue> {
  return deps.db.tenant(accountId, async (trx) => {
    const rows = (
      await sql<SessionRow & { total: number }>`select *, count(*) over ()::int as total from idv_sessions
        where account_id = ${accountId} and status in ('submitted', 'needs_review')
        order by submitted_at nulls last, created_at, id limit ${IDV_QUEUE_LIMIT}`.execute(trx)
    ).rows;
    return {
      total: rows[0]?.total ?? 0,
      items: rows.map((r) => ({
        id: r.id,
        status: r.status,
        customerRef: r.customer_ref,
        documentType: r.document_type,
        submittedAt: iso(r.submitted_at),
        failedChecks: r.failed_checks,
        assignedTo: r.assigned_name ? { id: r.assigned_id, name: r.assigned_name } : null,
        assignedToYou: heldBy(r, viewer),
      })),
    };
  });
}
