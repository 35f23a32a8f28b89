import { useState } from 'react';
import { Link } from 'wouter';
import { DEV_OUTBOX_MAX, DEV_OUTBOX_MORE_HEADER, DEV_OUTBOX_PAGE_SIZE, type DevSmsMessage } from '../../../api/contract/platform';
import { ApiError, errorMessage } from '../../api/client';
import { useQuery } from '../../api/hooks';
import { useLiveChanges } from '../../api/live';
import { Button } from '../../ui/Button';
import { Card, EmptyState } from '../../ui/Card';
import { LoadingPanel } from '../../ui/Spinner';
import { formatDate, formatDateTime } from '../../ui/format';

/** How often the list looks for new messages when the live stream cannot be opened. */
export const OUTBOX_FALLBACK_MS = 5000;

/**
 * The development SMS outbox: outside production, the messages the apps "sent" through the
 * 'Development outbox' provider, newest first, so a passcode can be read without a phone.
 */
/** A message's text with its links made links: the customer page is one click away, as on the phone. */
export function Linked({ text }: { text: string }) {
  const parts = text.split(/(https?:\/\/\S+)/);
  return (
    <>
      {parts.map((part, i) =>
        i % 2 === 1 ? (
          <a key={i} href={part.replace(/[.,)]+$/, '')} target="_blank" rel="noopener">
            {part}
          </a>
        ) : (
          part
        ),
      )}
    </>
  );
}

export default function DevSmsOutbox() {
  // How many of the newest messages to show: "Show older messages" asks for more of them in one
  // read (new ones keep arriving at the top, so a next page would shift under the reader).
  const [limit, setLimit] = useState(DEV_OUTBOX_PAGE_SIZE);
  const outbox = useQuery('dev-sms-outbox', (a, signal) =>
    a
      .getWithHeaders<DevSmsMessage[]>('/dev/sms-outbox', { signal, query: { limit: String(limit) } })
      .then(({ data, headers }) => ({ messages: data, more: headers.get(DEV_OUTBOX_MORE_HEADER) === 'true' })),
  );
  const { reload } = outbox;
  const showOlder = () => {
    setLimit((n) => Math.min(DEV_OUTBOX_MAX, n + DEV_OUTBOX_PAGE_SIZE));
    reload();
  };
  // a new message shows at once (the live stream says so)
  useLiveChanges((c) => c.kind === 'outbox', reload, OUTBOX_FALLBACK_MS);

  const unavailable = outbox.error instanceof ApiError && outbox.error.status === 404;
  return (
    <div className="page page-narrow">
      <div className="page-header">
        <h1 className="page-title">Development SMS outbox</h1>
        <Button size="sm" onClick={reload}>
          Refresh
        </Button>
      </div>
      <p className="page-lead">
        Messages sent while the <Link href="~/settings/sms-configuration">SMS provider</Link> is the development outbox are kept
        here instead of being sent. Newest first; the list refreshes itself.
      </p>
      <Card>
        {unavailable ? (
          <EmptyState title="The development outbox is not available">It exists only outside production.</EmptyState>
        ) : outbox.error && !outbox.data ? (
          <div role="alert">
            <p>{errorMessage(outbox.error, 'The outbox could not be loaded.')}</p>
            <Button onClick={reload}>Try again</Button>
          </div>
        ) : !outbox.data ? (
          <LoadingPanel label="Loading messages" />
        ) : outbox.data.messages.length === 0 ? (
          <EmptyState title="No messages yet">Send a passcode or a test SMS and it shows here.</EmptyState>
        ) : (
          <OutboxList messages={outbox.data.messages} more={outbox.data.more} loading={outbox.loading} onShowOlder={showOlder} />
        )}
      </Card>
    </div>
  );
}

function OutboxList({
  messages,
  more,
  loading,
  onShowOlder,
}: {
  messages: DevSmsMessage[];
  more: boolean;
  loading: boolean;
  onShowOlder: () => void;
}) {
  const count = messages.length.toLocaleString('en');
  return (
    <>
      <ol className="outbox-list" aria-label="Messages, newest first">
        {messages.map((m) => (
          <li key={m.id} className="outbox-item" data-testid="outbox-message">
            <p className="outbox-meta">
              <span className="outbox-to">{m.to}</span>
              <time className="muted" dateTime={m.createdAt} title={formatDateTime(m.createdAt)}>
                {formatDate(m.createdAt)}
              </time>
            </p>
            <p className="sms-bubble">
              <Linked text={m.body} />
            </p>
          </li>
        ))}
      </ol>
      <div className="outbox-footer">
        <p className="muted" aria-live="polite">
          {!more
            ? `All ${count} message${messages.length === 1 ? '' : 's'}.`
            : `The newest ${count} messages.${messages.length >= DEV_OUTBOX_MAX ? ' Older ones are kept but not listed here.' : ''}`}
        </p>
        {more && messages.length < DEV_OUTBOX_MAX && (
          <Button size="sm" onClick={onShowOlder} disabled={loading}>
            {loading ? 'Loading older messages…' : 'Show older messages'}
          </Button>
        )}
      </div>
    </>
  );
}
