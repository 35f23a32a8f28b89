import { sql } from 'kysely';
import type { Trx } from './db/index';
import type { Session } from './auth/context';
import type { AppId } from './contract/apps';
import { later } from './db/batch';
import type { LogEvent } from './integrations/log-shippers';

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
 * change does, keeps the account's running total for x-count, and queues the entry for the
 * account's connected logging destinations (the durable outbox, api/integrations/log-queue.ts).
 * One statement, sent with the transaction's next statement or its COMMIT (`later`): nothing
 * reads its answer, and its failure still fails the transaction.
 */
export async function audit(trx: Trx, accountId: string, actor: Actor, entry: AuditEntry): Promise<void> {
  // the log event without the two fields only the insert knows (its id and time)
  const event: Omit<LogEvent, 'id' | 'timestamp'> = {
    accountId,
    namespace: entry.namespace,
    event: entry.event,
    description: entry.description,
    admin: actor ? { firstName: actor.firstName, lastName: actor.lastName } : null,
  };
  await later(
    trx,
    sql`with entry as (
        insert into audit_log (account_id, admin_id, admin_first_name, admin_last_name, namespace, description, event, ts)
        values (${accountId}, ${actor?.id ?? null}, ${actor?.firstName ?? null}, ${actor?.lastName ?? null}, ${entry.namespace}, ${entry.description}, ${entry.event}, ${entry.at ?? sql`now()`})
        returning id, ts
      ), counted as (
        insert into audit_counts as c (account_id, count) values (${accountId}, 1)
        on conflict (account_id) do update set count = c.count + 1
      )
      insert into log_outbox (account_id, destination, payload)
      select d.account_id, d.destination, ${JSON.stringify(event)}::jsonb || jsonb_build_object('id', entry.id, 'timestamp', ${LOG_TIMESTAMP})
      from logging_destinations d, entry where d.account_id = ${accountId}`,
  );
}

/** The entry's time as the log event carries it: ISO 8601 in UTC with milliseconds (as Date#toISOString). */
const LOG_TIMESTAMP = sql`to_char(entry.ts at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
