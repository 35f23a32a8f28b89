import { sql } from 'kysely';
import { mayRead, type Readable } from '../auth/roles';
import type { Role } from '../contract/common';
import type { Database } from '../db/index';
import { LIVE_HEARTBEAT_MS, type LiveChange } from '../contract/live';
import { measured, metrics } from '../observability/metrics';

// The process's side of live updates (docs/live-updates.md). Streams are grouped by account; a
// notification names an account, and that account's feed reads its new rows once, in a tenant
// transaction (row-level security decides what it may see), then hands them to each stream of the
// account, which applies its session's rules. An idle stream costs memory, never a connection.
//
// Ids come from a sequence, so a transaction may commit a smaller id after a larger one was
// read. A feed therefore reads from a floor (`low`) below which nothing new can appear, not from
// the largest id it has seen: an id read in a snapshot whose xmax is X is "settled" once every
// transaction older than X has ended (a later snapshot's xmin >= X), and then no smaller id can
// still commit. Until then the ids above the floor are remembered, so none is handed out twice.
//
// No client can make a stream cost more than its bounds (docs/live-updates.md#bounds): a tab's
// catch-up is read a page at a time and the next page waits until the client has taken the last
// (Sink.drained); more than `replayLimit` changes to catch up is answered `reset` instead; a
// stream is admitted only within its session's and account's caps (admit, before any work).

export type LiveRow = LiveChange & { agent: string | null };

/** Who holds a stream: what its session may see and how it ends. */
export type Viewer = {
  accountId: string;
  /** the `sessions` row; null for agent sessions (they have none) */
  sessionId: string | null;
  /** an agent (host user) session's e-mail: it sees only its own tasks */
  agent: string | null;
  /** the session's role: a stream carries only what this role may read through the API */
  role: Role | 'agent';
};

/** Where a tab resumes: the floor it had, and the ids above it it already has. */
export type Resume = { low: number; seen: number[] };

export type Sink = {
  /** one change, with the resume point to give the tab after it */
  change(change: LiveChange, resumeId: string): void;
  /** the tab must reload what it shows (it missed too much, or more than the window); resumeId is where it is now */
  reset(resumeId: string): void;
  /** the stream is over (the session ended, the process stops) */
  end(code: string): void;
  /** resolves once the client has taken what was written (or has gone): the catch-up waits on it between pages */
  drained(): Promise<void>;
};

export type Subscription = {
  close(): void;
  /** where the tab would resume now (also before it has had any change) */
  resumeId(): string;
};

const DEFAULT_BATCH = 500;
/** a tab with more changes than this to catch up on gets `reset` (it re-reads its page) instead */
export const LIVE_REPLAY_LIMIT = 1_000;
/** open streams a session may have on one process (a contact centre agent has a few tabs) */
export const LIVE_STREAMS_PER_SESSION = 20;
/** open streams an account may have on one process */
export const LIVE_STREAMS_PER_ACCOUNT = 1_000;
/** a tab's resume id names at most this many ids above the floor; older ones are sent again (harmless) rather than lost */
const RESUME_IDS = 64;
/** a feed's first floor: changes older than this are taken as settled */
const SETTLED_AFTER = "interval '30 seconds'";

export function parseResume(value: string | undefined | null): Resume | null {
  if (!value || value.length > 2000 || !/^\d+(\.\d+)*$/.test(value)) return null;
  const [low, ...seen] = value.split('.').map(Number);
  if (!Number.isSafeInteger(low)) return null;
  return { low: low!, seen: seen.filter((n) => Number.isSafeInteger(n) && n > low!) };
}

type ReadRow = {
  xmin: string;
  xmax: string;
  id: number | null;
  kind: string | null;
  app: string | null;
  ref: string | null;
  agent: string | null;
};

async function readAfter(
  db: Database,
  accountId: string,
  after: number,
  limit: number,
): Promise<{ xmin: bigint; xmax: bigint; rows: LiveRow[] }> {
  const result = await db.tenant(accountId, (trx) =>
    measured(trx, 'live.catch-up.read', () =>
      sql<ReadRow>`with s as (select pg_snapshot_xmin(pg_current_snapshot())::text as xmin, pg_snapshot_xmax(pg_current_snapshot())::text as xmax)
      select s.xmin, s.xmax, e.id, e.kind, e.app, e.ref, e.agent from s left join lateral (
        select id, kind, app, ref, agent from live_events where account_id = ${accountId} and id > ${after} order by id limit ${limit}
      ) e on true order by e.id`.execute(trx),
    ),
  );
  const first = result.rows[0]!;
  return {
    xmin: BigInt(first.xmin),
    xmax: BigInt(first.xmax),
    rows: result.rows
      .filter((r) => r.id !== null)
      .map((r) => ({ id: Number(r.id), kind: r.kind as LiveChange['kind'], app: r.app, ref: r.ref, agent: r.agent })),
  };
}

class Stream {
  private readonly seen = new Set<number>();
  /** live rows that arrived during the catch-up, handed on after it (at most replayLimit) */
  private buffered: LiveRow[] | null = [];
  private overflowed = false;
  /** while catching up, the resume point is the stream's own floor, never the feed's (which is ahead) */
  private catchingUp = false;
  closed = false;
  /** every id at or below it the tab has had (or had before): nothing at or below it is still to come */
  private floor = 0;

  constructor(
    readonly viewer: Viewer,
    readonly sink: Sink,
    private readonly feed: Feed,
    private readonly ticket: Ticket,
  ) {}

  /** A tab resuming: the ids it has, and where it is. */
  beginCatchUp(resume: Resume): void {
    this.catchingUp = true;
    this.floor = resume.low;
    for (const id of resume.seen) this.seen.add(id);
  }

  /** One row of the catch-up, in id order; `settled`: no smaller id can still commit, so the tab is complete up to it. */
  replayed(row: LiveRow, settled: boolean): void {
    if (settled && row.id > this.floor) this.floor = row.id;
    this.take(row);
  }

  /** The catch-up is over (or skipped): what arrived meanwhile, then rows go straight through. */
  startLive(seen: Iterable<number> | null): void {
    this.catchingUp = false;
    const waiting = this.overflowed ? [] : (this.buffered ?? []);
    this.buffered = null;
    if (seen || this.overflowed) {
      // a fresh start: what the feed already handed out predates this stream
      this.floor = 0;
      this.seen.clear();
      for (const id of seen ?? this.feed.deliveredIds()) this.seen.add(id);
    }
    if (this.overflowed) this.sink.reset(this.resumeId());
    for (const row of waiting) this.take(row);
  }

  /** The tab must reload: it starts afresh from here. */
  reset(): void {
    this.overflowed = true;
    this.startLive(null);
  }

  deliver(row: LiveRow): void {
    if (!this.buffered) return this.take(row);
    // a catch-up that falls this far behind the live rows ends in a reset anyway
    if (this.buffered.length >= this.feed.hub.replayLimit) {
      this.overflowed = true;
      this.buffered.length = 0;
    } else if (!this.overflowed) this.buffered.push(row);
  }

  private take(row: LiveRow): void {
    if (this.closed || this.seen.has(row.id)) return;
    this.seen.add(row.id);
    if (row.kind === 'session') {
      if (row.ref === this.viewer.sessionId) this.end('SESSION_REVOKED');
      return;
    }
    if (!visibleTo(this.viewer, row)) return;
    const { agent: _agent, ...change } = row;
    this.sink.change(change, this.resumeId());
    metrics?.liveEvents.inc();
  }

  /** The floor the tab has and the ids above it it has (the newest ones). */
  resumeId(): string {
    const low = this.catchingUp ? this.floor : Math.max(this.feed.low, this.floor);
    for (const id of this.seen) if (id <= low) this.seen.delete(id);
    const above = [...this.seen].sort((a, b) => a - b).slice(-RESUME_IDS);
    return [low, ...above].join('.');
  }

  end(code: string): void {
    if (this.closed) return;
    this.close();
    this.sink.end(code);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.buffered = null;
    this.seen.clear();
    this.ticket.release();
    this.feed.remove(this);
  }
}

/** What a change is, for the read rules (api/auth/guards.ts). */
const READ_AS: Record<Exclude<LiveChange['kind'], 'session'>, Readable> = {
  task: 'tasks',
  tasks: 'tasks',
  notification: 'notifications',
  credits: 'credits',
  outbox: 'outbox',
};

/** Whether a stream may carry a change: the same rule as the routes that read it. */
export function visibleTo(viewer: Viewer, row: LiveRow): boolean {
  if (row.kind === 'session') return false;
  if (viewer.agent !== null)
    return row.kind === 'task' && row.agent !== null && row.agent.toLowerCase() === viewer.agent.toLowerCase();
  return mayRead(viewer.role, READ_AS[row.kind]);
}

/** One account's streams on this process and how far its rows have been read. */
class Feed {
  low = 0;
  readonly streams = new Set<Stream>();
  /** ids above the floor already handed out, with the snapshot xmax they were read in */
  private readonly delivered = new Map<number, bigint>();
  private readonly ready: Promise<void>;
  private running: Promise<void> | null = null;
  private again = false;

  constructor(
    readonly hub: LiveHub,
    readonly accountId: string,
  ) {
    this.ready = this.begin();
    // a feed whose first read failed is dropped once its streams are; no unhandled rejection meanwhile
    this.ready.catch(() => {});
  }

  deliveredIds(): Iterable<number> {
    return this.delivered.keys();
  }

  private async begin(): Promise<void> {
    const floor = await this.hub.db.tenant(this.accountId, (trx) =>
      measured(trx, 'live.floor', () =>
        sql<{ low: number }>`select coalesce(max(id), 0) as low from live_events
        where account_id = ${this.accountId} and created_at < now() - ${sql.raw(SETTLED_AFTER)}`.execute(trx),
      ),
    );
    this.low = Number(floor.rows[0]?.low ?? 0);
    // what is already there predates every stream of this feed: remembered, not handed out
    await this.read(false);
  }

  /** Reads what is new (now, or once the read in progress ends). */
  schedule(): void {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = (async () => {
      try {
        await this.ready;
        do {
          this.again = false;
          await this.read(true);
        } while (this.again);
      } catch (err) {
        this.hub.log('Live updates: reading the changes of an account failed', err);
        // a failed read leaves the floor where it was: the next notification (or reconnect) reads again
      } finally {
        this.running = null;
      }
    })();
  }

  private async read(hand: boolean): Promise<void> {
    const batch = this.hub.batch;
    for (;;) {
      const { xmin, xmax, rows } = await readAfter(this.hub.db, this.accountId, this.low, batch);
      for (const row of rows) {
        if (this.delivered.has(row.id)) continue;
        this.delivered.set(row.id, xmax);
        if (hand) for (const stream of [...this.streams]) stream.deliver(row);
      }
      // Settle: an id read in a snapshot every older transaction of which has now ended has no
      // smaller id still to come, and this read (same snapshot as xmin) has seen all of them.
      const lastRead = rows.length ? rows[rows.length - 1]!.id : Infinity;
      let low = this.low;
      for (const [id, readXmax] of this.delivered) if (readXmax <= xmin && id <= lastRead && id > low) low = id;
      for (const id of this.delivered.keys()) if (id <= low) this.delivered.delete(id);
      this.low = low;
      if (rows.length < batch) return;
    }
  }

  /** A new member, at once: a client that leaves while the feed starts or catches it up is removed at once. */
  attach(ticket: Ticket, sink: Sink): Stream {
    const stream = new Stream(ticket.viewer, sink, this, ticket);
    this.streams.add(stream);
    return stream;
  }

  async start(stream: Stream, resume: Resume | null): Promise<void> {
    try {
      await this.ready;
      if (stream.closed) return;
      if (!resume) stream.startLive(this.delivered.keys());
      else await this.catchUp(stream, resume);
    } catch (err) {
      stream.close();
      throw err;
    }
  }

  /**
   * What a tab missed since its resume point, in order, a page at a time: the next page is read
   * only once the client has taken the last, and a client that left stops it. More than the
   * hub's replayLimit, or a resume point older than the window, is a reset.
   */
  private async catchUp(stream: Stream, resume: Resume): Promise<void> {
    const { db, batch, replayLimit } = this.hub;
    const counted = await this.hub.db.tenant(this.accountId, (trx) =>
      measured(trx, 'live.catch-up.count', () =>
        sql<{ kept: number; after: number }>`select
        (select count(*)::int from live_events where account_id = ${this.accountId} and id = ${resume.low}) as kept,
        (select count(*)::int from (select 1 from live_events where account_id = ${this.accountId} and id > ${resume.low} limit ${replayLimit + 1}) r) as after`.execute(
          trx,
        ),
      ),
    );
    const { kept, after: missed } = counted.rows[0]!;
    if (stream.closed) return;
    if ((resume.low > 0 && !kept) || missed > replayLimit) return stream.reset();
    stream.beginCatchUp(resume);
    let replayed = 0;
    for (let after = resume.low; ; ) {
      // ids at or below the floor as it is before the read are all in the read's snapshot
      const settled = this.low;
      const read = await readAfter(db, this.accountId, after, batch);
      for (const row of read.rows) {
        if (stream.closed) return;
        stream.replayed(row, row.id <= settled);
      }
      replayed += read.rows.length;
      if (stream.closed) return;
      // rows still arriving while it catches up: past the bound, the tab re-reads instead
      if (replayed > replayLimit) return stream.reset();
      if (read.rows.length < batch) break;
      await stream.sink.drained();
      if (stream.closed) return;
      after = read.rows[read.rows.length - 1]!.id;
    }
    stream.startLive(null);
  }

  remove(stream: Stream): void {
    this.streams.delete(stream);
    if (this.streams.size === 0) this.hub.drop(this);
  }
}

export type HubOptions = {
  /** rows read per query (and per page of a catch-up) */
  batch?: number;
  /** more changes than this to catch up on answers `reset` */
  replayLimit?: number;
  /** open streams per session (an agent token counts as one session) on this process */
  perSession?: number;
  /** open streams per account on this process */
  perAccount?: number;
  /** how often an idle stream gets a comment line (tests make it short) */
  heartbeatMs?: number;
  log?: (msg: string, err?: unknown) => void;
};

/** Which cap refused a stream. */
export class LiveStreamLimit extends Error {
  constructor(readonly scope: 'session' | 'account') {
    super(`too many live streams for this ${scope}`);
  }
}

/** A stream's place within its caps, held from admission until the stream closes. */
export type Ticket = { readonly viewer: Viewer; release(): void };

/** The streams of this process, by account; fed by api/live/listener.ts. */
export class LiveHub {
  private readonly feeds = new Map<string, Feed>();
  private readonly perSessionCount = new Map<string, number>();
  private readonly perAccountCount = new Map<string, number>();
  readonly batch: number;
  readonly replayLimit: number;
  readonly perSession: number;
  readonly perAccount: number;
  readonly heartbeatMs: number;
  readonly log: (msg: string, err?: unknown) => void;
  private stopped = false;

  constructor(
    readonly db: Database,
    options: HubOptions = {},
  ) {
    this.batch = options.batch ?? DEFAULT_BATCH;
    this.replayLimit = options.replayLimit ?? LIVE_REPLAY_LIMIT;
    this.perSession = options.perSession ?? LIVE_STREAMS_PER_SESSION;
    this.perAccount = options.perAccount ?? LIVE_STREAMS_PER_ACCOUNT;
    this.heartbeatMs = options.heartbeatMs ?? LIVE_HEARTBEAT_MS;
    this.log = options.log ?? (() => {});
  }

  /** A notification: something of this account committed. */
  notified(accountId: string): void {
    this.feeds.get(accountId.toLowerCase())?.schedule();
  }

  /** After the listening connection was (re)opened: read whatever was notified while it was away. */
  catchUp(): void {
    for (const feed of this.feeds.values()) feed.schedule();
  }

  /**
   * Takes a place for a stream within its session's and its account's caps, at once (before any
   * await, so a thousand opens at the same moment cannot all pass); throws LiveStreamLimit.
   */
  admit(viewer: Viewer): Ticket {
    if (this.stopped) throw new Error('live updates are stopped');
    const accountId = viewer.accountId.toLowerCase();
    const sessionKey = viewer.sessionId ?? `agent:${accountId}:${(viewer.agent ?? '').toLowerCase()}`;
    const ofSession = this.perSessionCount.get(sessionKey) ?? 0;
    const ofAccount = this.perAccountCount.get(accountId) ?? 0;
    if (ofSession >= this.perSession) throw new LiveStreamLimit('session');
    if (ofAccount >= this.perAccount) throw new LiveStreamLimit('account');
    this.perSessionCount.set(sessionKey, ofSession + 1);
    this.perAccountCount.set(accountId, ofAccount + 1);
    let held = true;
    const less = (map: Map<string, number>, key: string) => {
      const n = (map.get(key) ?? 1) - 1;
      if (n > 0) map.set(key, n);
      else map.delete(key);
    };
    return {
      viewer: { ...viewer, accountId },
      release: () => {
        if (!held) return;
        held = false;
        less(this.perSessionCount, sessionKey);
        less(this.perAccountCount, accountId);
      },
    };
  }

  /**
   * Opens an admitted stream at once; `started` settles once it is live (after catching up from
   * `resume`, a tab reconnecting) and rejects when the account's changes cannot be read.
   */
  open(ticket: Ticket, sink: Sink, resume: Resume | null): Subscription & { started: Promise<void> } {
    if (this.stopped) {
      ticket.release();
      throw new Error('live updates are stopped');
    }
    const accountId = ticket.viewer.accountId;
    let feed = this.feeds.get(accountId);
    if (!feed) this.feeds.set(accountId, (feed = new Feed(this, accountId)));
    const stream = feed.attach(ticket, sink);
    return { close: () => stream.close(), resumeId: () => stream.resumeId(), started: feed.start(stream, resume) };
  }

  drop(feed: Feed): void {
    if (this.feeds.get(feed.accountId) === feed && feed.streams.size === 0) this.feeds.delete(feed.accountId);
  }

  /** How many accounts have a feed on this process (tests: a feed with no stream is gone). */
  feedCount(): number {
    return this.feeds.size;
  }

  /** How many streams are open (benchmarks, health). */
  streamCount(): number {
    let n = 0;
    for (const feed of this.feeds.values()) n += feed.streams.size;
    return n;
  }

  /** Ends every stream (the process is stopping): tabs reconnect to another process. */
  stop(): void {
    this.stopped = true;
    for (const feed of [...this.feeds.values()]) for (const stream of [...feed.streams]) stream.end('RESTARTING');
  }
}
