import { sql } from 'kysely';
import type { Database } from '../db/index';
import { LIVE_HEARTBEAT_MS, type LiveChange } from '../contract/live';
import { metrics } from '../observability/metrics';

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

export type LiveRow = LiveChange & { agent: string | null };

/** Who holds a stream: what its session may see and how it ends. */
export type Viewer = {
  accountId: string;
  /** the `sessions` row; null for agent sessions (they have none) */
  sessionId: string | null;
  /** an agent (host user) session's e-mail: it sees only its own tasks */
  agent: string | null;
};

/** Where a tab resumes: the floor it had, and the ids above it it already has. */
export type Resume = { low: number; seen: number[] };

export type Sink = {
  /** one change, with the resume point to give the tab after it */
  change(change: LiveChange, resumeId: string): void;
  /** the tab must reload what it shows: the changes it missed are older than the replay window */
  reset(): void;
  /** the stream is over (the session ended, the process stops) */
  end(code: string): void;
};

export type Subscription = {
  close(): void;
  /** where the tab would resume now (also before it has had any change) */
  resumeId(): string;
};

const DEFAULT_BATCH = 500;
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

type ReadRow = { xmin: string; xmax: string; id: number | null; kind: string | null; app: string | null; ref: string | null; agent: string | null };

async function readAfter(db: Database, accountId: string, after: number, limit: number): Promise<{ xmin: bigint; xmax: bigint; rows: LiveRow[] }> {
  const result = await db.tenant(accountId, (trx) =>
    sql<ReadRow>`with s as (select pg_snapshot_xmin(pg_current_snapshot())::text as xmin, pg_snapshot_xmax(pg_current_snapshot())::text as xmax)
      select s.xmin, s.xmax, e.id, e.kind, e.app, e.ref, e.agent from s left join lateral (
        select id, kind, app, ref, agent from live_events where account_id = ${accountId} and id > ${after} order by id limit ${limit}
      ) e on true order by e.id`.execute(trx),
  );
  const first = result.rows[0]!;
  return {
    xmin: BigInt(first.xmin),
    xmax: BigInt(first.xmax),
    rows: result.rows.filter((r) => r.id !== null).map((r) => ({ id: Number(r.id), kind: r.kind as LiveChange['kind'], app: r.app, ref: r.ref, agent: r.agent })),
  };
}

class Stream {
  private readonly seen = new Set<number>();
  private buffered: LiveRow[] | null = [];
  private closed = false;
  /** settled on whichever process the tab came from: nothing at or below it is still to come */
  private floor = 0;

  constructor(
    readonly viewer: Viewer,
    private readonly sink: Sink,
    private readonly feed: Feed,
  ) {}

  /** The rows of the replay, then what arrived meanwhile; from then on rows go straight through. */
  startLive(replayed: LiveRow[], seen: Iterable<number>, floor: number): void {
    this.floor = floor;
    for (const id of seen) this.seen.add(id);
    for (const row of replayed) this.take(row);
    const waiting = this.buffered ?? [];
    this.buffered = null;
    for (const row of waiting) this.take(row);
  }

  deliver(row: LiveRow): void {
    if (this.buffered) this.buffered.push(row);
    else this.take(row);
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

  /** The floor of the feed and the ids above it this stream has (the newest ones). */
  resumeId(): string {
    const low = Math.max(this.feed.low, this.floor);
    for (const id of this.seen) if (id <= low) this.seen.delete(id);
    const above = [...this.seen].sort((a, b) => a - b).slice(-RESUME_IDS);
    return [low, ...above].join('.');
  }

  end(code: string): void {
    if (this.closed) return;
    this.closed = true;
    this.feed.remove(this);
    this.sink.end(code);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.feed.remove(this);
  }
}

function visibleTo(viewer: Viewer, row: LiveRow): boolean {
  if (viewer.agent === null) return true;
  return row.kind === 'task' && row.agent !== null && row.agent.toLowerCase() === viewer.agent.toLowerCase();
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
    private readonly hub: LiveHub,
    readonly accountId: string,
  ) {
    this.ready = this.start();
  }

  private async start(): Promise<void> {
    const floor = await this.hub.db.tenant(this.accountId, (trx) =>
      sql<{ low: number }>`select coalesce(max(id), 0) as low from live_events
        where account_id = ${this.accountId} and created_at < now() - ${sql.raw(SETTLED_AFTER)}`.execute(trx),
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

  async join(viewer: Viewer, sink: Sink, resume: Resume | null): Promise<Stream> {
    await this.ready;
    const stream = new Stream(viewer, sink, this);
    this.streams.add(stream);
    if (!resume) {
      // what the feed already handed out predates this stream: a later resume must not replay it
      stream.startLive([], this.delivered.keys(), 0);
      return stream;
    }
    try {
      const replay = await this.replay(resume);
      if (replay === null) {
        sink.reset();
        stream.startLive([], this.delivered.keys(), 0);
      } else {
        stream.startLive(replay, resume.seen, resume.low);
      }
    } catch (err) {
      stream.close();
      throw err;
    }
    return stream;
  }

  /** What a tab missed since its resume point, in order; null when that is older than the window. */
  private async replay(resume: Resume): Promise<LiveRow[] | null> {
    if (resume.low > 0) {
      const kept = await this.hub.db.tenant(this.accountId, (trx) =>
        sql<{ n: number }>`select count(*)::int as n from live_events where account_id = ${this.accountId} and id = ${resume.low}`.execute(trx),
      );
      if (!kept.rows[0]?.n) return null;
    }
    const seen = new Set(resume.seen);
    const rows: LiveRow[] = [];
    for (let after = resume.low; ; ) {
      const read = await readAfter(this.hub.db, this.accountId, after, this.hub.batch);
      rows.push(...read.rows.filter((r) => !seen.has(r.id)));
      if (read.rows.length < this.hub.batch) return rows;
      after = read.rows[read.rows.length - 1]!.id;
    }
  }

  remove(stream: Stream): void {
    this.streams.delete(stream);
    if (this.streams.size === 0) this.hub.drop(this);
  }
}

export type HubOptions = {
  /** rows read per query */
  batch?: number;
  /** how often an idle stream gets a comment line (tests make it short) */
  heartbeatMs?: number;
  log?: (msg: string, err?: unknown) => void;
};

/** The streams of this process, by account; fed by api/live/listener.ts. */
export class LiveHub {
  private readonly feeds = new Map<string, Feed>();
  readonly batch: number;
  readonly heartbeatMs: number;
  readonly log: (msg: string, err?: unknown) => void;
  private stopped = false;

  constructor(
    readonly db: Database,
    options: HubOptions = {},
  ) {
    this.batch = options.batch ?? DEFAULT_BATCH;
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

  /** Opens a stream: replays from `resume` (a tab reconnecting), then hands it every new change it may see. */
  async open(viewer: Viewer, sink: Sink, resume: Resume | null): Promise<Subscription> {
    if (this.stopped) throw new Error('live updates are stopped');
    const accountId = viewer.accountId.toLowerCase();
    let feed = this.feeds.get(accountId);
    if (!feed) this.feeds.set(accountId, (feed = new Feed(this, accountId)));
    try {
      return await feed.join({ ...viewer, accountId }, sink, resume);
    } catch (err) {
      if (feed.streams.size === 0) this.drop(feed);
      throw err;
    }
  }

  drop(feed: Feed): void {
    if (this.feeds.get(feed.accountId) === feed && feed.streams.size === 0) this.feeds.delete(feed.accountId);
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
