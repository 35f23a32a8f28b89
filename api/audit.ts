import { sql } from 'kysely';
import type { Trx } from './db/index';
import type { Session } from './auth/context';
import type { AppId } from './contract/apps';
import { enqueueLogEvent } from './integrations/log-queue';

export type AuditEntry = {
  /** 'global' or the app id the change belongs to */
  namespace: 'global' | AppId;
  /** what a person reads in the audit log, e.g. "Invited jane@acme.com as admin" */
  description: string;
  /** a stable machine name, e.g. "invitation.created" */
  event: string;
  /** when it happened, for callers that run on their own clock (the demo history); else the transaction's time */
  at?: Date;
};

/** Who acted: an admin, or null when the provider did (ghost mode, staff actions). */
export type Actor = { id: string | null; firstName: string; lastName: string } | null;

export function actorOf(session: Session): Actor {
  if (session.ghost) return null;
  return { id: session.adminId, firstName: session.firstName, lastName: session.lastName };
}

/**
 * Writes one audit entry inside the caller's transaction, so the entry exists exactly when the
 * change does, and keeps the account's running total for x-count.
 */
export async function audit(trx: Trx, accountId: string, actor: Actor, entry: AuditEntry): Promise<void> {
  const row = await trx
    .insertInto('audit_log')
    .values({
      account_id: accountId,
      admin_id: actor?.id ?? null,
      admin_first_name: actor?.firstName ?? null,
      admin_last_name: actor?.lastName ?? null,
      namespace: entry.namespace,
      description: entry.description,
      event: entry.event,
      ...(entry.at ? { ts: entry.at } : {}),
    })
    .returning(['id', 'ts'])
    .executeTakeFirstOrThrow();
  await sql`insert into audit_counts (account_id, count) values (${accountId}, 1)
    on conflict (account_id) do update set count = audit_counts.count + 1`.execute(trx);
  // Connected logging destinations receive the entry through the durable outbox, same transaction.
  await enqueueLogEvent(trx, accountId, {
    id: row.id,
    timestamp: new Date(row.ts).toISOString(),
    accountId,
    namespace: entry.namespace,
    event: entry.event,
    description: entry.description,
    admin: actor ? { firstName: actor.firstName, lastName: actor.lastName } : null,
  });
}
