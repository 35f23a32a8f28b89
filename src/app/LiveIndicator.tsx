import { useStore } from 'jotai';
import { useEffect } from 'react';
import { useLocation } from 'wouter';
import { liveConnection, useLiveState, type LiveState } from '../api/live';
import { tokenAtom } from '../state/session';

const LABELS: Record<LiveState, string> = {
  connecting: 'Connecting to live updates',
  live: 'Live: changes show as they happen',
  reconnecting: 'Reconnecting live updates…',
  unavailable: 'Live updates are unavailable; pages refresh themselves every so often',
  ended: 'Live updates ended',
};

/** A small dot in the header saying whether changes show as they happen; words only when they do not. */
export function LiveIndicator() {
  const state = useLiveState();
  const store = useStore();
  const [, navigate] = useLocation();
  useEffect(() => {
    if (state !== 'ended') return;
    const token = store.get(tokenAtom);
    // the stream ends with the session (signed out elsewhere, ghost mode ended, role changed): as any call would
    if (token && liveConnection(token).endCode) {
      navigate('/?expired=true', { replace: true });
      store.set(tokenAtom, null);
    }
  }, [state, store, navigate]);
  return (
    <span
      className={`live-indicator live-${state}`}
      role="status"
      title={LABELS[state]}
      data-testid="live-indicator"
      data-state={state}
    >
      <span className="live-dot" aria-hidden="true" />
      <span className={state === 'reconnecting' || state === 'unavailable' ? 'live-text' : 'sr-only'}>
        {state === 'reconnecting' ? 'Reconnecting…' : state === 'unavailable' ? 'Not live' : LABELS[state]}
      </span>
    </span>
  );
}
