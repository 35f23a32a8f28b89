import { useAtomValue } from 'jotai';
import { useState } from 'react';
import { Link } from 'wouter';
import type { NotificationList } from '../../api/contract/notifications';
import { errorMessage } from '../api/client';
import { useApi, useQuery } from '../api/hooks';
import { useLiveChanges } from '../api/live';
import { payloadAtom } from '../state/session';
import { Popover } from '../ui/Popover';
import { BellIcon } from '../ui/icons';
import { formatDate, formatDateTime } from '../ui/format';
import { toast } from '../ui/Toast';

/** How often the bell looks for new notifications when the live stream cannot be opened. */
const FALLBACK_MS = 60_000;

/** The header bell: the account's notifications, the caller's unread count and mark-as-read. */
export function Notifications() {
  const api = useApi();
  const ghost = useAtomValue(payloadAtom)?.ghost ?? false;
  const [local, setLocal] = useState<NotificationList | null>(null);
  const { data, error, loading, reload } = useQuery('notifications', (a, signal) =>
    a.get<NotificationList>('notifications', { signal }),
  );
  const list = local ?? data;

  // a new notification (live) re-reads the list; a refresh replaces what marking as read changed locally
  useLiveChanges(
    (c) => c.kind === 'notification',
    () => {
      setLocal(null);
      reload();
    },
    FALLBACK_MS,
  );

  const markRead = async (body: { id: string } | { all: true }) => {
    if (!list) return;
    try {
      const { unread } = await api.post<{ unread: number }>('notifications/read', body);
      setLocal({
        unread,
        notifications: list.notifications.map((n) => ('all' in body || n.id === body.id ? { ...n, read: true } : n)),
      });
    } catch (e) {
      toast.error('Could not mark as read', errorMessage(e), e);
    }
  };

  const unread = list?.unread ?? 0;
  return (
    <Popover
      label={unread ? `Notifications, ${unread} unread` : 'Notifications'}
      trigger={
        <span className="bell">
          <BellIcon />
          {unread > 0 && (
            <span className="bell-count" aria-hidden="true">
              {unread > 99 ? '99+' : unread}
            </span>
          )}
        </span>
      }
    >
      {(close) => (
        <div className="notifications" role="region" aria-label="Notifications">
          <div className="notifications-head">
            <p className="notifications-title">Notifications</p>
            {!ghost && unread > 0 && (
              <button type="button" className="link-btn" onClick={() => markRead({ all: true })}>
                Mark all as read
              </button>
            )}
          </div>
          {error !== undefined && !list && <p role="alert">Notifications could not be loaded: {errorMessage(error)}</p>}
          {loading && !list && <p className="muted">Loading…</p>}
          {list && list.notifications.length === 0 && <p className="muted">You're all caught up.</p>}
          {list && list.notifications.length > 0 && (
            <ul className="notification-list">
              {list.notifications.map((n) => (
                <li key={n.id} className={n.read ? 'notification' : 'notification notification-unread'}>
                  <div className="notification-text">
                    <p className="notification-title">
                      {!n.read && <span className="sr-only">Unread: </span>}
                      {n.link ? (
                        <Link
                          href={n.link}
                          onClick={() => {
                            if (!n.read && !ghost) void markRead({ id: n.id });
                            close();
                          }}
                        >
                          {n.title}
                        </Link>
                      ) : (
                        n.title
                      )}
                    </p>
                    {n.body && <p className="muted notification-body">{n.body}</p>}
                    <time className="muted notification-time" dateTime={n.createdAt} title={formatDateTime(n.createdAt)}>
                      {formatDate(n.createdAt)}
                    </time>
                  </div>
                  {!n.read && !ghost && (
                    <button
                      type="button"
                      className="link-btn"
                      onClick={() => markRead({ id: n.id })}
                      aria-label={`Mark "${n.title}" as read`}
                    >
                      Mark as read
                    </button>
                  )}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </Popover>
  );
}
