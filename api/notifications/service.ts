import { sql } from 'kysely';
import type { Session } from '../auth/context';
import type { Deps } from '../deps';
import { NOTIFICATION_LIMIT, type MarkReadBody, type NotificationList } from '../contract/notifications';
import { ApiError } from '../http/errors';
import { addTimeBasedNotifications, unreadCount } from './notify';

// The bell is a header tool for admins and owners; read state is per admin, so one admin
// reading a notification leaves it unread for the others.

/** The newest notifications of the signed-in admin's account, each marked read or not for them. */
export async function listNotifications(deps: Deps, session: Session): Promise<NotificationList> {
  return deps.db.tenant(session.accountId, async (trx) => {
    await addTimeBasedNotifications(trx, session.accountId, deps.now());
    const rows = await sql<{
      id: string;
      kind: string;
      title: string;
      body: string;
      link: string | null;
      created_at: Date;
      read: boolean;
    }>`
      select n.id, n.kind, n.title, n.body, n.link, n.created_at,
        exists (select 1 from notification_reads r where r.notification_id = n.id and r.admin_id = ${session.adminId}) as read
      from notifications n where n.account_id = ${session.accountId}
      order by n.created_at desc, n.id desc limit ${NOTIFICATION_LIMIT}`.execute(trx);
    return {
      notifications: rows.rows.map((r) => ({
        id: r.id,
        kind: r.kind,
        title: r.title,
        body: r.body,
        link: r.link,
        createdAt: new Date(r.created_at).toISOString(),
        read: r.read,
      })),
      unread: await unreadCount(trx, session.accountId, session.adminId),
    };
  });
}

/** Marks one notification, or all of them, read for the signed-in admin; answers what is left unread. */
export async function markNotificationsRead(deps: Deps, session: Session, input: MarkReadBody): Promise<number> {
  // Staff looking around in ghost mode must not clear what the owner has yet to see.
  if (session.ghost) throw new ApiError(409, 'GHOST_MODE', 'Notifications stay unread for the account in ghost mode.');
  return deps.db.tenant(session.accountId, async (trx) => {
    if ('id' in input) {
      const found = await trx
        .selectFrom('notifications')
        .select('id')
        .where('account_id', '=', session.accountId)
        .where('id', '=', input.id)
        .executeTakeFirst();
      if (!found) throw new ApiError(404, 'NOTIFICATION_NOT_FOUND', 'There is no such notification.');
    }
    await sql`insert into notification_reads (account_id, notification_id, admin_id)
      select n.account_id, n.id, ${session.adminId} from notifications n
      where n.account_id = ${session.accountId} ${'id' in input ? sql`and n.id = ${input.id}` : sql``}
      on conflict (notification_id, admin_id) do nothing`.execute(trx);
    return unreadCount(trx, session.accountId, session.adminId);
  });
}
