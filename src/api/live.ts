import { useAtomValue } from 'jotai';
import { useContext, useEffect, useRef, useState } from 'react';
import { LIVE_PATH, TIME_ZONE_HEADER } from '../../api/contract/constants';
import type { LiveChange } from '../../api/contract/live';
import { tokenAtom } from '../state/session';
import { timeZone } from './client';
import { LiveTokenContext } from './live-token';
import { sseParser } from './sse';

// The tab's one live stream (GET /api/live, docs/live-updates.md), read with fetch so the bearer
// token goes in a header, never in the URL; fetch also works in the Zoom and Webex webviews. Pages
// subscribe to the changes they show and re-read them through the normal API. When the stream
// cannot be opened at all, subscribers fall back to a slow poll. It is never part of the console's
// first load: pages import it lazily with themselves, the header through app/header-live.tsx.

/**
 * connecting: first attempt; live: replay done, changes arrive as they happen; reconnecting: the
 * stream dropped and is being reopened (it resumes where it was); unavailable: it cannot be opened
 * (pages poll slowly); ended: the session is over.
 */
export type LiveState = 'connecting' | 'live' | 'reconnecting' | 'unavailable' | 'ended';

/** a change, or null: the tab missed more than the replay window, reload everything shown */
export type LiveListener = (change: LiveChange | null) => void;

export type LiveOptions = {
  /** first wait before reopening a dropped stream (doubles up to maxRetryMs) */
  retryMs?: number;
  maxRetryMs?: number;
  /** failed opens in a row before pages fall back to polling */
  failuresBeforeFallback?: number;
  /** no byte for this long (heartbeats come every 20 s) means the connection is dead */
  silenceMs?: number;
  fetch?: typeof fetch;
};

export class LiveConnection {
  state: LiveState = 'connecting';
  /** the code the stream ended with (SESSION_REVOKED, JWT_EXPIRED) when state is 'ended' */
  endCode: string | null = null;
  private readonly listeners = new Set<LiveListener>();
  private readonly stateListeners = new Set<(state: LiveState) => void>();
  private lastEventId: string | null = null;
  private controller: AbortController | null = null;
  private stopped = false;
  private users = 0;
  /** a stopped and restarted connection's old loop must not run beside the new one */
  private generation = 0;

  constructor(
    private readonly token: string,
    private readonly options: LiveOptions = {},
  ) {}

  subscribe(fn: LiveListener): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  onState(fn: (state: LiveState) => void): () => void {
    this.stateListeners.add(fn);
    return () => this.stateListeners.delete(fn);
  }

  /** Counts the components using it; the stream runs while one does. */
  retain(): () => void {
    this.users++;
    if (this.users === 1) {
      this.stopped = false;
      void this.run(++this.generation);
    }
    return () => {
      this.users--;
      if (this.users === 0) this.stop();
    };
  }

  stop(): void {
    this.stopped = true;
    this.controller?.abort();
  }

  private setState(state: LiveState): void {
    if (this.state === state) return;
    this.state = state;
    for (const fn of [...this.stateListeners]) fn(state);
  }

  private emit(change: LiveChange | null): void {
    for (const fn of [...this.listeners]) {
      try {
        fn(change);
      } catch {
        // one page's failure must not stop the others hearing of the change
      }
    }
  }

  private async run(generation: number): Promise<void> {
    const fetchFn = this.options.fetch ?? fetch.bind(globalThis);
    const firstRetry = this.options.retryMs ?? 500;
    const maxRetry = this.options.maxRetryMs ?? 10_000;
    const fallbackAfter = this.options.failuresBeforeFallback ?? 3;
    const silenceMs = this.options.silenceMs ?? 45_000;
    let wait = firstRetry;
    let failures = 0;
    /** a refusal's Retry-After: the next try waits at least this long */
    let retryAfterMs = 0;
    const current = () => !this.stopped && generation === this.generation;
    while (current()) {
      const controller = new AbortController();
      this.controller = controller;
      let silence: ReturnType<typeof setTimeout> | undefined;
      const quiet = () => {
        clearTimeout(silence);
        silence = setTimeout(() => controller.abort(), silenceMs);
      };
      let opened = false;
      try {
        quiet();
        const headers: Record<string, string> = {
          Authorization: `Bearer ${this.token}`,
          Accept: 'text/event-stream',
          [TIME_ZONE_HEADER]: timeZone(),
        };
        if (this.lastEventId) headers['Last-Event-ID'] = this.lastEventId;
        const response = await fetchFn(`/api${LIVE_PATH}`, { headers, signal: controller.signal, cache: 'no-store' });
        if (response.status === 401) {
          const body = (await response.json().catch(() => ({}))) as { code?: string };
          this.end(body.code ?? 'UNAUTHORIZED');
          return;
        }
        if (response.status === 429) {
          // too many streams open (TOO_MANY_STREAMS): the server says when to ask again
          const after = Number(response.headers.get('retry-after'));
          if (Number.isFinite(after) && after > 0) retryAfterMs = Math.min(after, 3600) * 1000;
        }
        if (response.status !== 200 || !response.body) throw new Error(`status ${response.status}`);
        const reader = response.body.getReader();
        const decoder = new TextDecoder();
        const parse = sseParser();
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          quiet();
          for (const message of parse(decoder.decode(value, { stream: true }))) {
            if (message.event === 'ready') {
              if (message.id) this.lastEventId = message.id;
              opened = true;
              failures = 0;
              wait = firstRetry;
              this.setState('live');
            } else if (message.event === 'change') {
              if (message.id) this.lastEventId = message.id;
              this.emit(JSON.parse(message.data) as LiveChange);
            } else if (message.event === 'reset') {
              // where the tab is after it re-reads what it shows
              if (message.id) this.lastEventId = message.id;
              this.emit(null);
            } else if (message.event === 'end') {
              const { code } = JSON.parse(message.data) as { code: string };
              if (code === 'SESSION_REVOKED' || code === 'JWT_EXPIRED') {
                this.end(code);
                return;
              }
              // RESTARTING: the process stops; another one takes the tab at once
              wait = 0;
            }
          }
        }
      } catch {
        // dropped, refused or silent: tried again below
      } finally {
        clearTimeout(silence);
      }
      if (!current()) return;
      if (!opened) failures++;
      this.setState(failures >= fallbackAfter ? 'unavailable' : 'reconnecting');
      // a little randomness so the tabs of a killed process do not all come back at once
      await new Promise((resolve) => setTimeout(resolve, Math.max(retryAfterMs, wait * (0.75 + Math.random() / 2))));
      retryAfterMs = 0;
      wait = Math.min(Math.max(wait, firstRetry / 2) * 2, maxRetry);
    }
  }

  private end(code: string): void {
    this.endCode = code;
    this.stopped = true;
    this.setState('ended');
  }
}

// One connection per token in this tab, shared by every component.
const connections = new Map<string, LiveConnection>();

export function liveConnection(token: string): LiveConnection {
  let connection = connections.get(token);
  if (!connection) {
    for (const [other, c] of connections) {
      c.stop();
      connections.delete(other);
    }
    connections.set(token, (connection = new LiveConnection(token)));
  }
  return connection;
}

function useLiveToken(): string | null {
  const own = useContext(LiveTokenContext);
  const session = useAtomValue(tokenAtom);
  return own ?? session;
}

/** The state of this tab's stream (for the discreet indicator). */
export function useLiveState(): LiveState {
  const token = useLiveToken();
  const [state, setState] = useState<LiveState>(() => (token ? liveConnection(token).state : 'ended'));
  useEffect(() => {
    if (!token) return;
    const connection = liveConnection(token);
    setState(connection.state);
    const release = connection.retain();
    const off = connection.onState(setState);
    return () => {
      off();
      release();
    };
  }, [token]);
  return state;
}

/**
 * Calls `onChange` for each change `match` accepts (null: reload everything), and every
 * `fallbackMs` while the stream cannot be opened. `onChange` should re-read what it shows.
 */
export function useLiveChanges(
  match: (change: LiveChange) => boolean,
  onChange: LiveListener,
  fallbackMs: number | null,
): LiveState {
  const token = useLiveToken();
  const matchRef = useRef(match);
  matchRef.current = match;
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;
  const state = useLiveState();
  useEffect(() => {
    if (!token) return;
    return liveConnection(token).subscribe((change) => {
      if (change === null || matchRef.current(change)) onChangeRef.current(change);
    });
  }, [token]);
  useEffect(() => {
    if (state !== 'unavailable' || fallbackMs === null) return;
    const timer = setInterval(() => onChangeRef.current(null), fallbackMs);
    return () => clearInterval(timer);
  }, [state, fallbackMs]);
  return state;
}
