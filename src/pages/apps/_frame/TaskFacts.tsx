import type { ReactNode } from 'react';
import { formatDateTime } from '../../../ui/format';
import { describeUserAgent } from '../../../ui/user-agent';

// The two halves of every task's detail, whichever app shows it: its facts (label and value) and
// its timeline.

/** One fact; `false`, `null` or `undefined` leaves it out (a fact that does not apply). */
export type Fact = readonly [label: string, value: ReactNode] | false | null | undefined;

export function TaskFacts({ facts, label }: { facts: readonly Fact[]; label?: string }) {
  return (
    <dl className="task-facts" aria-label={label}>
      {facts.map(
        (fact) =>
          fact && (
            <div key={fact[0]}>
              <dt>{fact[0]}</dt>
              <dd>{fact[1]}</dd>
            </div>
          ),
      )}
    </dl>
  );
}

/** Who did it, in the words every timeline uses: "customer" and "system" as words, not names. */
export function actorName(actor: string): string {
  return actor === 'Customer' || actor === 'System' ? actor.toLowerCase() : actor;
}

export type TimelineEvent = { time: string; description: string; actor: string; ip?: string | null; userAgent?: string | null };

/** A task's events, oldest first; `origins` adds where each came from (IP, browser) where known. */
export function Timeline({ events, origins = false }: { events: readonly TimelineEvent[]; origins?: boolean }) {
  return (
    <ol className="timeline" aria-label="Timeline">
      {events.map((e, i) => (
        <li key={i} className="timeline-item">
          <time dateTime={e.time}>{formatDateTime(e.time)}</time>
          <p>{e.description}</p>
          <p className="muted">
            By {actorName(e.actor)}
            {origins && e.ip && <> · IP {e.ip}</>}
            {origins && e.userAgent && (
              <>
                {' · '}
                <span title={e.userAgent}>{describeUserAgent(e.userAgent)}</span>
              </>
            )}
          </p>
        </li>
      ))}
    </ol>
  );
}
