import { useEffect, useRef, useState } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import type { AppDefinition } from '../../../../api/contract/apps';
import {
  IDV_STATUS_TONES,
  documentTypeOf,
  type IdvQueue,
  type IdvReview,
} from '../../../../api/contract/apps/identity-verification';
import { useQuery } from '../../../api/hooks';
import { useLiveChanges } from '../../../api/live';
import { Button } from '../../../ui/Button';
import { Card } from '../../../ui/Card';
import { QueryState } from '../../../ui/QueryState';
import { formatDateTime } from '../../../ui/format';
import { StatusBadge } from '../_frame/task-cells';
import { ReviewBody, type DecisionCommand } from './review';
import { needsReviewHref, VerificationViews } from './views';

// The review queue, Verifications' "Needs review" view: the cases waiting for a reviewer, oldest
// first, beside the open case in full. A reviewer works through it by keyboard: J or → for the
// next case, K or ← for the previous, A to approve and D to decline, as the buttons say (each
// picks the decision and focuses the reason; Enter confirms). The open case is kept in the URL
// (&session=<id>), so the list of all verifications and search link to it.

/** Keys typed into a field are the field's; shortcuts only act on the page itself. */
function typing(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return (
    target.isContentEditable ||
    ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName) ||
    Boolean(target.closest('[role="dialog"]'))
  );
}

function ShortcutHints() {
  return (
    <p className="idv-shortcuts muted" id="idv-shortcuts">
      Keyboard: <kbd className="kbd">J</kbd> or <kbd className="kbd">→</kbd> next case · <kbd className="kbd">K</kbd> or{' '}
      <kbd className="kbd">←</kbd> previous · <kbd className="kbd">A</kbd> approve · <kbd className="kbd">D</kbd> decline with a
      reason · <kbd className="kbd">Enter</kbd> on the reason confirms
    </p>
  );
}

function OpenCase({ id, onDecided, command }: { id: string; onDecided: () => void; command: DecisionCommand | null }) {
  const query = useQuery(`identity-verification:review:${id}`, (a, signal) =>
    a.get<IdvReview>(`/identity-verification/sessions/${encodeURIComponent(id)}`, { signal }),
  );
  useLiveChanges((c) => c.kind === 'task' && c.ref === id, query.reload, null);
  const [latest, setLatest] = useState<IdvReview | null>(null);
  const review = latest?.session.id === id ? latest : query.data;
  const change = (r: IdvReview) => {
    setLatest(r);
    onDecided();
  };
  return (
    <QueryState query={query}>{() => review && <ReviewBody review={review} onChange={change} command={command} />}</QueryState>
  );
}

export default function ReviewQueue({ app }: { app: AppDefinition }) {
  const search = useSearch();
  const [, navigate] = useLocation();
  const queue = useQuery(`${app.id}:queue`, (a, signal) => a.get<IdvQueue>('/identity-verification/queue', { signal }));
  useLiveChanges((c) => c.app === app.id && (c.kind === 'task' || c.kind === 'tasks'), queue.reload, 60_000);
  const items = queue.data?.items ?? [];
  const asked = new URLSearchParams(search).get('session');
  const openId = asked ?? items[0]?.id ?? null;
  const index = items.findIndex((i) => i.id === openId);
  // where the open case stood, so that Next still means "the one after" once it leaves the queue
  const lastIndex = useRef(0);
  if (index >= 0) lastIndex.current = index;
  const [command, setCommand] = useState<DecisionCommand | null>(null);

  const open = (id: string) => {
    setCommand(null);
    navigate(needsReviewHref(id));
  };
  const step = (by: 1 | -1) => {
    if (!items.length) return;
    const from = index >= 0 ? index : by === 1 ? lastIndex.current - 1 : lastIndex.current;
    const to = Math.min(items.length - 1, Math.max(0, from + by));
    const target = items[to];
    if (target && target.id !== openId) open(target.id);
  };
  const stepRef = useRef(step);
  stepRef.current = step;

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey || typing(e.target)) return;
      const key = e.key.toLowerCase();
      if (key === 'j' || key === 'arrowright') stepRef.current(1);
      else if (key === 'k' || key === 'arrowleft') stepRef.current(-1);
      else if (key === 'a') setCommand((c) => ({ decision: 'approved', n: (c?.n ?? 0) + 1 }));
      else if (key === 'd') setCommand((c) => ({ decision: 'declined', n: (c?.n ?? 0) + 1 }));
      else return;
      e.preventDefault();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  const total = queue.data?.total ?? 0;
  const position = index >= 0 ? `Case ${index + 1} of ${total}` : openId ? 'Not in the queue' : null;
  return (
    <div className="page">
      <div className="page-header">
        <h1 className="page-title">Verifications</h1>
        <p className="muted" role="status" data-testid="queue-count">
          {queue.data ? (total === 1 ? '1 case waiting' : `${total} cases waiting`) : ''}
        </p>
      </div>
      <VerificationViews current="needs-review" />
      <ShortcutHints />
      <div className="idv-queue">
        <Card title="Waiting for a reviewer">
          <QueryState query={queue}>
            {() =>
              items.length === 0 ? (
                <p className="muted">No case is waiting for a reviewer.</p>
              ) : (
                <nav aria-label="Cases waiting">
                  <ol className="idv-queue-list">
                    {items.map((item) => (
                      <li key={item.id}>
                        <Link
                          href={needsReviewHref(item.id)}
                          aria-current={item.id === openId ? 'true' : undefined}
                          className="idv-queue-item"
                          onClick={() => setCommand(null)}
                        >
                          <span className="idv-queue-ref">{item.customerRef}</span>
                          <StatusBadge status={item.status} tones={IDV_STATUS_TONES} />
                          <span className="muted">
                            {item.documentType ? `${documentTypeOf(item.documentType)?.label ?? item.documentType} · ` : ''}
                            {item.submittedAt ? `sent ${formatDateTime(item.submittedAt)}` : ''}
                          </span>
                          <span className="muted">
                            {item.failedChecks ? `${item.failedChecks} failed check${item.failedChecks === 1 ? '' : 's'} · ` : ''}
                            {item.assignedToYou
                              ? 'Assigned to you'
                              : item.assignedTo
                                ? `Held by ${item.assignedTo.name}`
                                : 'Not assigned'}
                          </span>
                        </Link>
                      </li>
                    ))}
                  </ol>
                  {total > items.length && (
                    <p className="muted" data-testid="queue-more">
                      The {items.length} oldest of {total} are listed; the rest appear here as these are decided.
                    </p>
                  )}
                </nav>
              )
            }
          </QueryState>
        </Card>
        {openId ? (
          <section className="card idv-case" aria-labelledby="idv-case-title">
            <div className="idv-case-head">
              <h2 className="card-title" id="idv-case-title">
                {position}
              </h2>
              <div className="idv-case-nav">
                <Button
                  size="sm"
                  onClick={() => step(-1)}
                  disabled={items.length === 0 || index === 0}
                  aria-keyshortcuts="K ArrowLeft"
                >
                  ← Previous
                </Button>
                <Button
                  size="sm"
                  onClick={() => step(1)}
                  disabled={items.length === 0 || (index >= 0 && index === items.length - 1)}
                  aria-keyshortcuts="J ArrowRight"
                >
                  Next case →
                </Button>
              </div>
            </div>
            <OpenCase key={openId} id={openId} onDecided={queue.reload} command={command} />
          </section>
        ) : null}
      </div>
    </div>
  );
}
