import { serialize } from 'pg-protocol';
import { connectFailure, DatabaseUnreachable, isRetryableRead, isStatementStateError } from './faults';
import type { Result, Step } from './one-message';

// Read lanes: a few connections on which the read pipelines of many requests travel back to back.
//
// A read request's statement already goes to PostgreSQL as one pipeline ending in a Sync, and
// PostgreSQL runs each pipeline as its own implicit transaction (api/db/one-message.ts). Nothing
// ties such a pipeline to a connection of its own, so here the pipelines of every request in
// flight share a lane: each is written as soon as it is made, without waiting for the one before
// to answer, and the answers come back in the order they went out. Under load the pipelines of
// one turn of the event loop leave in one write and their answers arrive in few reads, where a
// connection per request cost a write system call, a wakeup of a server process and a pool
// checkout each time. The Sync keeps them apart: an error skips the rest of its own pipeline only,
// and settings made local by its scope step end with it.
//
// A slow read would hold up every pipeline queued behind it, so a lane that has work in flight but
// has finished none of it for STALL_MS takes no more, and when every lane is held up the read runs
// on a pooled connection of its own, as before. (Progress, not the age of the oldest pipeline: under
// load the event loop itself can take a while to read answers that are already there, and a lane
// judged stalled for that would send reads to the slower path just when the server is busiest.)
// Writes and locks never come here.
//
// What a lane knows about its connection (which statements are prepared, their rows'
// descriptions) is true of that one connection only. The invariants that keep it so:
// - it is forgotten whenever the connection is (lost, refused, past its deadline), together with
//   every Parse still waiting to be written, so a new connection starts from nothing;
// - only the current connection's messages are read: an answer still arriving from one given up
//   never reaches a pipeline of the next, so no request can see another's rows;
// - a connection whose prepared statements turn out not to be what the lane thinks (PostgreSQL
//   says one does not exist, or already does) is given up like a lost one;
// - a read whose connection was lost before it answered runs once more on a fresh one (reads only
//   come here, so running one twice changes nothing);
// - a lane with work in flight that finishes none of it within the deadline gives up its
//   connection (a stalled network would otherwise hold those requests forever).

/** How long a lane with work in flight may go without finishing any before it takes no more. */
const STALL_MS = 50;
/** Pipelines in flight on one lane at most (a bound on what one lane holds in memory). */
const MAX_IN_FLIGHT = 256;

type Message = { name: string; fields?: unknown[]; text?: string };
type Field = { name: string; dataTypeID: number };
type Parser = (value: string) => unknown;

/** A pg Client as far as a lane uses it: it connects (authentication, TLS) and is then taken over. */
export type LaneClient = {
  connect(): Promise<unknown>;
  end(): Promise<void>;
  on(event: 'error' | 'end', fn: (err?: Error) => void): void;
  connection: {
    stream: { write(buffer: Buffer): boolean; writable: boolean };
    on(event: string, fn: (msg: Message) => void): void;
    removeAllListeners(event: string): void;
  };
};

export type ReadLanesOptions = {
  lanes: number;
  /** a new, unconnected pg Client with the pool's settings */
  client(): LaneClient;
  getTypeParser(oid: number): Parser;
  prepareValue(value: unknown): unknown;
  /** the prepared statement name of a text; undefined when it goes unnamed */
  nameOf(text: string): string | undefined;
  /** how long a lane with work in flight may finish none of it before its connection is given up */
  deadlineMs: number;
};

type Pending = {
  results: Result[];
  error: Error | null;
  /** names whose Parse this pipeline sent, in order; `parsed` of them are confirmed */
  parses: string[];
  parsed: number;
  /** each step's statement name, and whether its rows' description was asked for */
  names: (string | undefined)[];
  described: boolean[];
  /** the step being answered */
  step: number;
  resolve(results: Result[]): void;
  reject(err: Error): void;
};

// The messages a lane answers itself once the client has connected.
type Shape = { fields: Field[]; parsers: Parser[] };
const NO_ROWS: Shape = { fields: [], parsers: [] };

const MESSAGES = [
  'errorMessage',
  'readyForQuery',
  'rowDescription',
  'dataRow',
  'commandComplete',
  'parseComplete',
  'emptyQuery',
  'notice',
  'noData',
  'bindComplete',
  'notification',
  'portalSuspended',
];
const SYNC = serialize.sync();
const DESCRIBE = serialize.describe({ type: 'P', name: '' });
const EXECUTE = serialize.execute({ portal: '' });

class Lane {
  private client: LaneClient | null = null;
  /** the client of the latest connection attempt: events of an earlier one are ignored */
  private attempt: LaneClient | null = null;
  private connecting: Promise<LaneClient> | null = null;
  private readonly queue: Pending[] = [];
  /** statement names this connection has prepared, or whose Parse is on its way */
  private prepared = new Set<string>();
  /**
   * The rows' description of each prepared statement, as the first Describe answered it: a
   * prepared statement's result columns do not change (PostgreSQL refuses to run one whose would),
   * so later runs skip the Describe and its answer.
   */
  private shapes = new Map<string, Shape>();
  private out: Buffer[] = [];
  /** when the lane last finished a pipeline, or went from idle to busy */
  private progressAt = 0;
  private flushing = false;
  private watchdog: NodeJS.Timeout | null = null;
  // the statement result being read
  private fields: Field[] = [];
  private parsers: Parser[] = [];
  private rows: Record<string, unknown>[] = [];

  constructor(private readonly options: ReadLanesOptions) {}

  get inFlight(): number {
    return this.queue.length;
  }

  /** True when the lane is idle, or has finished a pipeline (or started work) within STALL_MS. */
  flowing(now: number): boolean {
    return this.queue.length === 0 || (this.queue.length < MAX_IN_FLIGHT && now - this.progressAt < STALL_MS);
  }

  pipeline(steps: readonly Step[], now: number): Promise<Result[]> {
    return new Promise((resolve, reject) => {
      const pending: Pending = {
        results: [],
        error: null,
        parses: [],
        parsed: 0,
        names: [],
        described: [],
        step: 0,
        resolve,
        reject,
      };
      if (!this.queue.length) {
        this.progressAt = now;
        this.watch();
      }
      // Parses first: a failing step skips what follows it up to the Sync, and a later pipeline on
      // this lane may already count on a statement this one prepares.
      const body: Buffer[] = [];
      for (const step of steps) {
        const name = this.options.nameOf(step.text);
        if (name === undefined) body.push(serialize.parse({ text: step.text, name: '' }));
        else if (!this.prepared.has(name)) {
          this.prepared.add(name);
          pending.parses.push(name);
          this.out.push(serialize.parse({ text: step.text, name }));
        }
        const describe = name === undefined || !this.shapes.has(name);
        pending.names.push(name);
        pending.described.push(describe);
        body.push(
          serialize.bind({ statement: name ?? '', values: step.params as unknown[], valueMapper: this.options.prepareValue }),
        );
        if (describe) body.push(DESCRIBE);
        body.push(EXECUTE);
      }
      this.out.push(...body, SYNC);
      this.queue.push(pending);
      this.schedule();
    });
  }

  // Everything made in one turn of the event loop leaves in one write.
  private schedule(): void {
    if (this.flushing) return;
    this.flushing = true;
    setImmediate(() => {
      this.flushing = false;
      if (this.client) this.flush(this.client);
      else
        this.connect().then(
          (client) => this.flush(client),
          (err: Error) => this.forget(err),
        );
    });
  }

  private flush(client: LaneClient): void {
    if (!this.out.length || client !== this.client) return;
    const buffer = this.out.length === 1 ? this.out[0]! : Buffer.concat(this.out);
    this.out = [];
    if (!client.connection.stream.writable) return this.lost(client, new Error('Connection terminated unexpectedly'));
    client.connection.stream.write(buffer);
  }

  // The deadline: checked when work starts and again while any is in flight.
  private watch(): void {
    if (this.watchdog) return;
    const check = () => {
      this.watchdog = null;
      if (!this.queue.length) return;
      const idle = performance.now() - this.progressAt;
      if (idle < this.options.deadlineMs) {
        this.watchdog = setTimeout(check, this.options.deadlineMs - idle);
        this.watchdog.unref?.();
        return;
      }
      const err = new DatabaseUnreachable(`The database did not answer within ${this.options.deadlineMs} ms`);
      if (this.attempt) this.lost(this.attempt, err);
      else this.forget(err);
    };
    this.watchdog = setTimeout(check, this.options.deadlineMs);
    this.watchdog.unref?.();
  }

  private connect(): Promise<LaneClient> {
    this.connecting ??= (async () => {
      const client = this.options.client();
      this.attempt = client;
      // A lost connection must not end the process: what is in flight fails (503) and the next
      // read connects again.
      client.on('error', (err) => this.lost(client, err ?? new Error('Connection terminated unexpectedly')));
      client.on('end', () => this.lost(client, new Error('Connection terminated unexpectedly')));
      try {
        await client.connect();
      } catch (err) {
        if (this.attempt === client) (this.attempt = null), (this.connecting = null);
        client.end().catch(() => {});
        throw connectFailure(err);
      }
      // The connection may already be gone: a backend terminated as it started can send its FATAL
      // in the same packet as ReadyForQuery, so pg reports the error (and the lane gives the
      // client up) before this line runs. Taking it as the lane's connection anyway would leave a
      // dead one in place for good: every read on the lane failing at its deadline, restarts or not.
      // What waits for this connection waits for the lane's next one instead.
      if (this.attempt !== client) return this.connect();
      const con = client.connection;
      for (const event of MESSAGES) con.removeAllListeners(event);
      // A handler that throws (a value its type parser refuses, say) would leave every pipeline
      // on the lane waiting: the lane gives up its connection instead, failing them all.
      const on = (event: string, fn: (msg: Message) => void) =>
        con.on(event, (msg) => {
          // a connection given up may still be delivering what it had read
          if (client !== this.client) return;
          try {
            fn(msg);
          } catch (err) {
            this.lost(client, err as Error);
          }
        });
      on('parseComplete', () => this.queue[0] && this.queue[0].parsed++);
      on('bindComplete', () => this.bound());
      on('rowDescription', (msg) => this.describe(msg.fields as Field[]));
      on('noData', () => this.describe([]));
      on('dataRow', (msg) => this.row(msg.fields as (string | null)[]));
      on('commandComplete', (msg) => this.complete(msg.text ?? ''));
      on('emptyQuery', () => this.complete(''));
      on('errorMessage', (msg) => this.error(client, msg as unknown as Error));
      on('readyForQuery', () => this.ready());
      this.client = client;
      return client;
    })();
    return this.connecting;
  }

  // A step whose Describe was skipped reads its rows with the description kept from before.
  private bound(): void {
    const current = this.queue[0];
    if (!current || current.described[current.step]) return;
    const shape = this.shapes.get(current.names[current.step]!) ?? NO_ROWS;
    this.fields = shape.fields;
    this.parsers = shape.parsers;
  }

  private describe(fields: Field[]): void {
    const shape = fields.length ? { fields, parsers: fields.map((f) => this.options.getTypeParser(f.dataTypeID)) } : NO_ROWS;
    this.fields = shape.fields;
    this.parsers = shape.parsers;
    const current = this.queue[0];
    const name = current?.names[current.step];
    if (name !== undefined) this.shapes.set(name, shape);
  }

  private row(values: (string | null)[]): void {
    const row: Record<string, unknown> = {};
    for (let i = 0; i < values.length; i++) {
      const v = values[i];
      row[this.fields[i]!.name] = v === null || v === undefined ? null : this.parsers[i]!(v);
    }
    this.rows.push(row);
  }

  private complete(tag: string): void {
    const space = tag.indexOf(' ');
    const command = space === -1 ? tag : tag.slice(0, space);
    const count = Number(tag.slice(tag.lastIndexOf(' ') + 1));
    const current = this.queue[0];
    if (current) {
      current.results.push({ rows: this.rows, rowCount: Number.isInteger(count) ? count : null, command });
      current.step++;
    }
    this.rows = [];
    this.fields = NO_ROWS.fields;
    this.parsers = NO_ROWS.parsers;
  }

  private error(client: LaneClient, err: Error): void {
    const current = this.queue[0];
    // An error with nothing in flight is the server ending the session (a shutdown, say).
    if (!current) return this.lost(client, err);
    // The lane's idea of what this connection has prepared is wrong: every pipeline behind this
    // one may count on it too, so the connection goes and they run again on a fresh one.
    if (isStatementStateError(err)) return this.lost(client, err);
    current.error ??= err;
    this.rows = [];
  }

  private ready(): void {
    const done = this.queue.shift();
    if (!done) return;
    this.progressAt = performance.now();
    // Parses the server skipped (the pipeline failed before them) are sent again next time.
    for (const name of done.parses.slice(done.parsed)) this.prepared.delete(name);
    if (done.error) done.reject(done.error);
    else done.resolve(done.results);
  }

  private lost(client: LaneClient, err: Error): void {
    // only the lane's current connection (or the attempt at one): an earlier one's late news changes nothing
    if (client !== this.attempt && client !== this.client) return;
    this.attempt = null;
    this.client = null;
    this.connecting = null;
    this.forget(err);
    client.end().catch(() => {});
    // a stalled socket would keep its end() waiting: cut it
    (client.connection.stream as { destroy?(): void }).destroy?.();
  }

  /** Fails everything in flight and forgets all per-connection state, Parses not yet sent included. */
  private forget(err: Error): void {
    this.prepared = new Set();
    this.shapes = new Map();
    this.rows = [];
    this.fields = NO_ROWS.fields;
    this.parsers = NO_ROWS.parsers;
    this.fail(err);
  }

  private fail(err: Error): void {
    this.out = [];
    for (const pending of this.queue.splice(0)) pending.reject(err);
  }

  async close(): Promise<void> {
    if (this.watchdog) clearTimeout(this.watchdog);
    this.watchdog = null;
    const client = this.client ?? (this.connecting ? await this.connecting.catch(() => null) : null);
    this.attempt = null;
    // Terminate goes out after what is in flight: PostgreSQL answers all of it first (the lane
    // keeps reading this connection's answers until it has ended).
    await client?.end().catch(() => {});
    this.client = null;
    this.connecting = null;
    this.fail(new Error('Connection terminated'));
  }
}

/** The read lanes of one process; `pipeline` answers null when every lane is held up. */
export function readLanes(options: ReadLanesOptions) {
  const lanes = Array.from({ length: Math.max(1, options.lanes) }, () => new Lane(options));
  const pick = (flowingOnly: boolean): Lane | null => {
    const now = performance.now();
    let best: Lane | null = null;
    for (const lane of lanes) if ((!flowingOnly || lane.flowing(now)) && (!best || lane.inFlight < best.inFlight)) best = lane;
    return best;
  };
  return {
    pipeline(steps: readonly Step[]): Promise<Result[]> | null {
      const lane = pick(true);
      if (!lane) return null;
      // Once more when the connection went before answering: on the same lane, which has given
      // that connection up and opens a fresh one. (Another lane may share its fate without knowing
      // it yet: a terminate of every backend reaches each socket at its own moment.)
      return lane.pipeline(steps, performance.now()).catch((err: unknown) => {
        if (!isRetryableRead(err)) throw err;
        return lane.pipeline(steps, performance.now());
      });
    },
    close: () => Promise.all(lanes.map((l) => l.close())).then(() => undefined),
  };
}
