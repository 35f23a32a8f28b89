import type { LiveChange } from '../../api/contract/live';
import { useLiveChanges, type LiveListener } from '../api/live';

// What the header shows of the live stream: the connection state, the bell, and the follower of
// any figure the header keeps (the credit count). Loaded after the first paint (app/lazy-live.tsx),
// so the stream and its reader are never in the console's first load.

export { LiveIndicator } from './LiveIndicator';
export { Notifications } from './Notifications';

export type FollowLiveProps = {
  /** the changes that concern what the parent shows */
  match: (change: LiveChange) => boolean;
  /** re-reads what the parent shows (also called with null: the tab missed too much, reload) */
  onChange: LiveListener;
  /** how often onChange runs while the stream cannot be opened; null: never */
  fallbackMs: number | null;
};

/** Renders nothing: calls `onChange` for the live changes `match` accepts (api/live). */
export function FollowLive({ match, onChange, fallbackMs }: FollowLiveProps) {
  useLiveChanges(match, onChange, fallbackMs);
  return null;
}
