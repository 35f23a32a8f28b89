import { sql } from 'kysely';
import type { Trx } from '../../db/index';
import { later } from '../../db/batch';
import type { AppId } from '../../contract/apps';
import type { TaskEvent } from '../../contract/platform';
import type { Caller } from './caller';

/**
 * Adds one step to a task's timeline, in the transaction of the change (sent with its next
 * statement or its COMMIT: nothing reads the answer).
 */
export async function addTaskEvent(
  trx: Trx,
  accountId: string,
  e: { app: AppId; taskId: string; ts: Date; type: string; description: string; caller: Caller | null },
): Promise<void> {
  await later(
    trx,
    sql`insert into task_events (account_id, app, task_id, ts, type, description, actor, ip, user_agent)
    values (${accountId}, ${e.app}, ${e.taskId}, ${e.ts}, ${e.type}, ${e.description}, ${e.caller?.label ?? 'System'},
            ${e.caller?.ip ?? null}, ${e.caller?.userAgent?.slice(0, 300) ?? null})`,
  );
}

export async function taskEvents(trx: Trx, accountId: string, taskId: string): Promise<TaskEvent[]> {
  const rows = await sql<{
    ts: Date;
    type: string;
    description: string;
    actor: string;
    ip: string | null;
    user_agent: string | null;
  }>`
    select ts, type, description, actor, ip, user_agent from task_events
    where account_id = ${accountId} and task_id = ${taskId} order by ts, id`.execute(trx);
  return rows.rows.map((r) => ({
    time: new Date(r.ts).toISOString(),
    type: r.type,
    description: r.description,
    actor: r.actor,
    ip: r.ip,
    userAgent: r.user_agent,
  }));
}
