import { CompiledQuery, Kysely, PostgresDialect, sql, type Transaction } from 'kysely';
import type { Schema } from './schema';
import {
  DEFER,
  FINISH,
  OPEN,
  PIPELINE,
  pipelineClient,
  type CheckStep,
  type Deferred,
  type Result,
  type Step,
} from './one-message';
import { pgPipelines } from './pg-pipeline';
import { readLanes, type LaneClient } from './pg-read-lanes';
import { pglitePool } from './pglite-dialect';
import { compileStatement, stepOf, type Statement } from './batch';
import { connectFailure, DatabaseUnreachable, isDatabaseUnavailable, isRetryableRead, isStatementStateError } from './faults';
import { DEFAULT_DATABASE_SETTINGS, type DatabaseSettings } from '../config';
import { metrics, type PoolStats } from '../observability/metrics';
import { bindTrace, inTrace, type Trace } from '../observability/tracing';

export type { Schema } from './schema';
export type Trx = Transaction<Schema>;

/** The role every application query runs as: row-level security binds it (it is no superuser). */
export const APP_ROLE = 'switchboard_app';

export type DatabaseKind = 'pglite' | 'postgres';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** True for a canonical UUID: the only values ever written into SQL text as literals. */
export const isUuid = (value: string): boolean => UUID.test(value);

/**
 * A read that rides in the message opening a transaction or carrying a read request's first
 * statement (the session check). `accept` judges the rows; throwing rolls the transaction back.
 */
export type Prelude = CheckStep & {
  /** the account whose tenant transaction may carry it; system transactions always may */
  accountId: string;
};

// The scope settings of a transaction: one statement, the first step of the opening message.
const systemScope: Step = {
  text: `select set_config('role', '${APP_ROLE}', true), set_config('app.scope', 'system', true)`,
  params: [],
};
const tenantScope = (accountId: string): Step => ({
  text: `select set_config('role', '${APP_ROLE}', true), set_config('app.account_id', $1, true)`,
  params: [accountId],
});
const BEGIN: Step = { text: 'begin', params: [] };
// not SQL: tells a checkout the trace of the request holding it (joinTrace); never sent
const TRACE = '/* switchboard: trace */';

/**
 * The one way the server reaches its data. Tenant data is only reachable through `tenant()`,
 * which scopes the transaction to one account in the database itself; `system()` is the explicit
 * cross-account path for sign-in resolution and provider staff, and callers must have checked
 * their right to it.
 */
export class Database {
  constructor(
    readonly kysely: Kysely<Schema>,
    readonly kind: DatabaseKind,
    private readonly closeFn: () => Promise<void>,
  ) {}

  /**
   * The embedded database's own notifications (PGlite has one session, so it listens in place);
   * absent on PostgreSQL, where listening takes a direct connection (api/live/listener.ts).
   */
  listenEmbedded?: (channel: string, fn: (payload: string) => void) => Promise<() => Promise<void>>;

  /** the pool's connections now (PostgreSQL; the metrics read it at each scrape) */
  poolStats?: () => PoolStats;

  /** the trace of the request (or job run) this view serves, when it is traced */
  trace: Trace | null = null;

  /**
   * This database for one traced request or job run: its transactions and round trips become
   * spans of `trace`. Called on the process's database (a request's own views take the trace of
   * the database they are made from).
   */
  traced(trace: Trace): Database {
    const view = Object.create(this) as Database;
    view.trace = trace;
    // its own read view, traced too (not the shared one it would find through its prototype)
    view.readsView = undefined;
    return view;
  }

  /** Tells the connection of a traced transaction whose trace its round trips belong to. */
  protected async joinTrace(conn: { executeQuery(q: CompiledQuery): Promise<unknown> }): Promise<void> {
    const trace = this.trace;
    if (!trace) return;
    bindTrace(conn, trace);
    // only our PostgreSQL pool knows the marker (PGlite's round trips make no spans)
    if (this.kind === 'postgres') await conn.executeQuery(CompiledQuery.raw(TRACE, [trace]));
  }

  /** Runs fn in a transaction that sees and writes only rows of this account. */
  tenant<T>(accountId: string, fn: (trx: Trx) => Promise<T>): Promise<T> {
    if (!isUuid(accountId)) {
      // Never written into SQL text: bound as a parameter (an id that is not one sees nothing).
      return this.kysely.transaction().execute(async (trx) => {
        await sql`select set_config('role', ${APP_ROLE}, true), set_config('app.account_id', ${accountId}, true)`.execute(trx);
        return fn(trx);
      });
    }
    return this.run(tenantScope(accountId.toLowerCase()), fn);
  }

  /** Runs fn in a transaction that may read and write every account (guarded by the caller). */
  system<T>(fn: (trx: Trx) => Promise<T>): Promise<T> {
    return this.run(systemScope, fn);
  }

  /**
   * One statement of this account as its own transaction, in one message with its scope (no
   * BEGIN, no COMMIT: PostgreSQL runs a message as one implicit transaction). One round trip.
   */
  async tenantStatement<O>(accountId: string, statement: Statement<O>): Promise<O[]> {
    if (!isUuid(accountId))
      return this.tenant(accountId, async (trx) => (await trx.executeQuery(compileStatement(trx, statement))).rows);
    const step = stepOf(compileStatement(this.kysely, statement));
    return this.kysely.connection().execute(async (conn) => {
      if (this.trace) await this.joinTrace(conn);
      const results = (await conn.executeQuery(CompiledQuery.raw(PIPELINE, [[tenantScope(accountId.toLowerCase()), step]])))
        .rows as Result[];
      return results[1]!.rows as O[];
    });
  }

  /**
   * Plain reads across accounts (guarded by the caller), each statement in one message with its
   * scope on a read lane, as a read request's are: no transaction, no pooled connection. A
   * statement that writes or locks opens a transaction the rest of fn runs in.
   */
  systemRead<T>(fn: (trx: Trx) => Promise<T>): Promise<T> {
    return this.runDeferred(systemScope, fn);
  }

  /**
   * This database for one request whose first transaction also carries `prelude` (the session
   * check), so checking costs no round trip of its own.
   */
  withPrelude(prelude: Prelude, options: { reads?: boolean } = {}): RequestDatabase {
    return new RequestDatabase(this, prelude, options.reads ?? false);
  }

  /**
   * This database for a read request that has no session (a customer page's GET): its tenant and
   * system transactions run as read requests' do (`runDeferred`: each statement one message with
   * its scope, on a read lane), and one that writes or locks still gets its transaction.
   */
  forReads(): Database {
    return (this.readsView ??= new ReadRequestDatabase(this));
  }
  private readsView?: Database;

  close(): Promise<void> {
    return this.closeFn();
  }

  /**
   * fn on one connection where each statement travels in one message behind its scope settings,
   * the first one also carrying the prelude; a statement that writes or locks opens a transaction
   * the rest of fn runs in (api/db/one-message.ts). For read requests.
   */
  protected runDeferred<T>(scope: Step, fn: (trx: Trx) => Promise<T>, prelude?: Prelude): Promise<T> {
    return this.kysely.connection().execute(async (conn) => {
      if (this.trace) await this.joinTrace(conn);
      const deferred: Deferred = { scope, prelude: prelude ?? null, open: false };
      await conn.executeQuery(CompiledQuery.raw(DEFER, [deferred]));
      let result: T;
      try {
        result = await fn(conn as unknown as Trx);
      } catch (err) {
        await conn.executeQuery(CompiledQuery.raw(FINISH, [false])).catch(() => {});
        throw err;
      }
      await conn.executeQuery(CompiledQuery.raw(FINISH, [true]));
      return result;
    });
  }

  /**
   * One transaction on one connection: BEGIN and the scope settings travel with its first
   * statement (with the prelude, they go at once, and the prelude is judged before fn runs);
   * then fn; then COMMIT, with whatever fn left for later (ROLLBACK when anything throws).
   */
  protected run<T>(scope: Step, fn: (trx: Trx) => Promise<T>, prelude?: Prelude): Promise<T> {
    return this.kysely.connection().execute(async (conn) => {
      if (this.trace) await this.joinTrace(conn);
      let open = true;
      try {
        if (prelude) {
          let opened;
          try {
            opened = (await conn.executeQuery(CompiledQuery.raw(PIPELINE, [[BEGIN, scope, prelude]]))).rows as Result[];
          } catch (err) {
            prelude.fail?.(err);
            throw err;
          }
          prelude.accept(opened[2]!.rows as Record<string, unknown>[]);
        } else {
          await conn.executeQuery(CompiledQuery.raw(OPEN, [[BEGIN, scope]]));
        }
        // One connection inside BEGIN…COMMIT is what a Transaction is; Kysely's own would spend
        // a round trip on BEGIN and another on the settings.
        const result = await fn(conn as unknown as Trx);
        open = false;
        await sql.raw('commit').execute(conn);
        return result;
      } catch (err) {
        if (open)
          await sql
            .raw('rollback')
            .execute(conn)
            .catch(() => {});
        throw err;
      }
    });
  }
}

/** See `Database.forReads`. Keeps no per-request state: one per database. */
class ReadRequestDatabase extends Database {
  constructor(private readonly base: Database) {
    super(base.kysely, base.kind, () => base.close());
    this.listenEmbedded = base.listenEmbedded;
    this.trace = base.trace;
  }

  override tenant<T>(accountId: string, fn: (trx: Trx) => Promise<T>): Promise<T> {
    return isUuid(accountId) ? this.runDeferred(tenantScope(accountId.toLowerCase()), fn) : this.base.tenant(accountId, fn);
  }

  override system<T>(fn: (trx: Trx) => Promise<T>): Promise<T> {
    return this.runDeferred(systemScope, fn);
  }

  override forReads(): Database {
    return this;
  }
}

/**
 * The database as one authenticated request sees it. The session check runs exactly once: in the
 * first transaction that can carry it (a tenant transaction of the session's account, or a
 * system one), or on its own through `settle()`.
 */
export class RequestDatabase extends Database {
  private pending: Prelude | null;
  private outcome: Promise<void> | null = null;

  /**
   * @param reads a read request (GET): its statements travel one message each with their scope
   *   instead of inside BEGIN…COMMIT (`runDeferred`)
   */
  constructor(
    private readonly base: Database,
    prelude: Prelude,
    private readonly reads: boolean,
  ) {
    super(base.kysely, base.kind, () => base.close());
    this.pending = prelude;
    this.listenEmbedded = base.listenEmbedded;
    this.trace = base.trace;
  }

  override async tenant<T>(accountId: string, fn: (trx: Trx) => Promise<T>): Promise<T> {
    const prelude = this.claim(accountId);
    if (prelude) return this.open(tenantScope(prelude.accountId), fn, prelude);
    await this.settle();
    if (this.reads && isUuid(accountId)) return this.runDeferred(tenantScope(accountId.toLowerCase()), fn);
    return this.base.tenant(accountId, fn);
  }

  override async system<T>(fn: (trx: Trx) => Promise<T>): Promise<T> {
    const prelude = this.claim(null);
    if (prelude) return this.open(systemScope, fn, prelude);
    await this.settle();
    return this.reads ? this.runDeferred(systemScope, fn) : this.base.system(fn);
  }

  override async tenantStatement<O>(accountId: string, statement: Statement<O>): Promise<O[]> {
    await this.settle();
    return super.tenantStatement(accountId, statement);
  }

  override async systemRead<T>(fn: (trx: Trx) => Promise<T>): Promise<T> {
    const prelude = this.claim(null);
    if (prelude) return this.runDeferred(systemScope, fn, prelude);
    await this.settle();
    return this.runDeferred(systemScope, fn);
  }

  /** Resolves once the prelude has been accepted, running it on its own if nothing carried it. */
  settle(): Promise<void> {
    const prelude = this.claim(null);
    if (prelude) return this.open(tenantScope(prelude.accountId), async () => undefined, prelude);
    return this.outcome ?? Promise.resolve();
  }

  private open<T>(scope: Step, fn: (trx: Trx) => Promise<T>, prelude: Prelude): Promise<T> {
    return this.reads ? this.runDeferred(scope, fn, prelude) : this.run(scope, fn, prelude);
  }

  /** Hands the prelude to the transaction about to open, if it can carry it; once only. */
  private claim(accountId: string | null): Prelude | null {
    const pending = this.pending;
    if (!pending || (accountId !== null && accountId.toLowerCase() !== pending.accountId)) return null;
    this.pending = null;
    let settled!: (err?: unknown) => void;
    this.outcome = new Promise<void>((resolve, reject) => (settled = (err) => (err === undefined ? resolve() : reject(err))));
    // A request that never waits for the outcome must not leave an unhandled rejection behind.
    this.outcome.catch(() => {});
    return {
      ...pending,
      accept(rows) {
        try {
          pending.accept(rows);
          settled();
        } catch (err) {
          settled(err);
          throw err;
        }
      },
      fail: (err) => settled(err),
    };
  }
}

/**
 * The PostgreSQL extensions the migrations create, for the embedded database (PGlite builds them
 * as separate bundles that must be loaded at open): pg_trgm for eForm's "answer contains" (1250).
 */
export async function pgliteExtensions() {
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
  return { pg_trgm };
}

/** `loadDataDir`: start from a data directory snapshot (a tar from dumpDataDir), as tests do. */
export async function openPglite(dataDir?: string, options: { loadDataDir?: Blob } = {}): Promise<Database> {
  const { PGlite } = await import('@electric-sql/pglite');
  const extensions = await pgliteExtensions();
  const pg = new PGlite({ dataDir, extensions, ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}) });
  await pg.waitReady;
  const kysely = new Kysely<Schema>({ dialect: new PostgresDialect({ pool: pglitePool(pg) as never }) });
  const db = new Database(kysely, 'pglite', async () => {
    await kysely.destroy();
    await pg.close();
  });
  db.listenEmbedded = async (channel, fn) => {
    const unlisten = await pg.listen(channel, fn);
    return () => unlisten();
  };
  return db;
}

type PgClient = {
  query(query: string | { name: string; text: string; values: unknown[] }, params?: unknown[]): Promise<Result | Result[]>;
  release(err?: unknown): void;
  connection?: { stream?: { destroy?(): void } };
};

// Every distinct parameterised statement gets a name, so each connection parses and plans it once
// (a prepared statement) instead of on every call. The queries are the code's own, so the set is
// small; the cap only guards against a query whose text varies with its input.
const statementNames = new Map<string, string>();
const MAX_STATEMENTS = 2000;

function statementName(text: string): string | undefined {
  let name = statementNames.get(text);
  if (!name && statementNames.size < MAX_STATEMENTS) statementNames.set(text, (name = `sb${statementNames.size}`));
  return name;
}

/** A statement's prepared name, or none at all behind a transaction pooler. */
type NameOf = (text: string) => string | undefined;
const unnamed: NameOf = () => undefined;

/**
 * work, unless the connection leaves it unanswered past the deadline: then the connection is cut
 * (whatever else it carries fails with it, and the pool drops it) and the caller hears that the
 * database is unreachable, instead of waiting on a stalled network for ever.
 */
function withDeadline<T>(client: PgClient, work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reject(new DatabaseUnreachable(`The database did not answer within ${ms} ms`));
      client.connection?.stream?.destroy?.();
    }, ms);
  });
  return Promise.race([work, expired]).finally(() => clearTimeout(timer));
}

/**
 * One round trip to the database, as a span when tracing is on: its kind (a statement on a
 * pooled connection, a pipeline, a read lane's message) and how many statements it carried, never
 * their text or values. The work it belongs to names itself in the span around it (`measured`).
 */
function roundTrip<T>(trace: Trace | null, name: string, statements: number, fn: () => Promise<T>): Promise<T> {
  if (!trace) return fn();
  return inTrace(
    trace,
    name,
    (span) => {
      span?.setAttribute('db.statements', statements);
      return fn();
    },
    true,
  );
}

/**
 * What Kysely gets instead of the pg pool. Parameterised statements run as named prepared
 * statements; several steps go out as one pipeline (api/db/pg-pipeline.ts), and a read request's
 * statements ride with their scope (api/db/one-message.ts) on a read lane shared with other
 * requests (api/db/pg-read-lanes.ts). A checkout takes a pooled connection only when something
 * needs one of its own (a transaction, a write, a read when every lane is held up), so a read
 * request never waits for the pool.
 */
function wrappedPool(
  pool: { connect(): Promise<PgClient>; end(): Promise<void> },
  pipeline: (client: PgClient, steps: readonly Step[]) => Promise<Result[]>,
  lanes: { pipeline(steps: readonly Step[]): Promise<Result[]> | null; close(): Promise<void> },
  nameOf: NameOf,
  deadlineMs: number,
  onStatementState: (err: unknown) => void = () => {},
) {
  type Wrapped = { query(text: string, params?: unknown[]): Promise<Result>; release(err?: unknown): void };
  // Checkouts are objects Kysely keeps a connection for (a WeakMap by client): reused, not remade.
  const idle: Wrapped[] = [];
  const checkout = (): Wrapped => {
    let client: Promise<PgClient> | null = null;
    // A connection that was lost, stalled or whose prepared statements are not what pg thinks is
    // handed back broken: the pool closes it instead of giving it to the next caller.
    let broken: unknown = null;
    const connect = (): Promise<PgClient> => {
      const m = metrics;
      if (!m) return pool.connect();
      const end = m.poolWait.startTimer();
      return pool.connect().finally(end);
    };
    const own = () =>
      (client ??= connect().catch((err: unknown) => {
        client = null;
        throw connectFailure(err);
      }));
    const guarded = async <T>(work: (c: PgClient) => Promise<T>): Promise<T> => {
      const c = await own();
      try {
        return await withDeadline(c, work(c), deadlineMs);
      } catch (err) {
        if (isDatabaseUnavailable(err) || isStatementStateError(err)) broken ??= err;
        onStatementState(err);
        throw err;
      }
    };
    // A read on this checkout's own connection (every lane held up): it holds no transaction
    // there, so when the connection goes before answering, it is handed back and the read runs
    // once more on a fresh one, as on a lane.
    const readAlone = async (steps: readonly Step[]): Promise<Result[]> => {
      const used = own();
      try {
        return await guarded((c) => pipeline(c, steps));
      } catch (err) {
        if (!isRetryableRead(err)) throw err;
        if (client === used) {
          const fault = broken ?? err;
          client = null;
          broken = null;
          used.then(
            (c) => c.release(fault),
            () => {},
          );
        }
        return guarded((c) => pipeline(c, steps));
      }
    };
    // the trace of the traced request holding this checkout (told by joinTrace), until released
    let trace: Trace | null = null;
    const inner = pipelineClient({
      query: (text, params) =>
        roundTrip(trace, 'db.query', 1, () =>
          guarded(async (c) => {
            const name = params?.length ? nameOf(text) : undefined;
            const result = await (name ? c.query({ name, text, values: params! }) : c.query(text, params));
            // a message of several statements (migrations) answers each; Kysely reads the last
            return Array.isArray(result) ? result[result.length - 1]! : result;
          }),
        ),
      pipeline: (steps) => roundTrip(trace, 'db.pipeline', steps.length, () => guarded((c) => pipeline(c, steps))),
      reads: (steps) =>
        roundTrip(trace, 'db.read-lane', steps.length, () =>
          (lanes.pipeline(steps) ?? readAlone(steps)).catch((err: unknown) => {
            onStatementState(err);
            throw err;
          }),
        ),
    });
    const wrapped: Wrapped = {
      query: (text, params) => {
        if (text !== TRACE) return inner.query(text, params);
        trace = params![0] as Trace;
        return Promise.resolve({ rows: [] } as unknown as Result);
      },
      release: (err) => {
        trace = null;
        inner.detach();
        const held = client;
        const fault = err ?? broken ?? undefined;
        client = null;
        broken = null;
        if (held)
          held.then(
            (c) => c.release(fault),
            () => {},
          );
        else idle.push(wrapped);
      },
    };
    return wrapped;
  };
  return {
    async connect() {
      return idle.pop() ?? checkout();
    },
    async end() {
      await lanes.close();
      await pool.end();
    },
  };
}

/**
 * PostgreSQL at url. Behind a transaction pooler (`settings.pooler`), statements go unnamed: a
 * pooler hands each transaction whichever server connection is free, where a statement prepared
 * on another does not exist.
 */
export async function openPostgres(
  url: string,
  poolSize = 10,
  readLaneCount = 2,
  settings: DatabaseSettings = DEFAULT_DATABASE_SETTINGS,
): Promise<Database> {
  const pgModule = await import('pg');
  const pg = (pgModule as unknown as { default: typeof pgModule }).default ?? pgModule;
  // Same value types as PGlite: bigint as number (our counters stay far below 2^53), date as text.
  const types = {
    getTypeParser(oid: number, format?: 'text' | 'binary') {
      if (oid === 20) return (value: string) => Number(value);
      if (oid === 1082) return (value: string) => value;
      return pg.types.getTypeParser(oid, format as 'text');
    },
  };
  const connection = {
    connectionString: url,
    types: types as never,
    connectionTimeoutMillis: settings.connectTimeoutMs,
    keepAlive: true,
  };
  const pool = new pg.Pool({ ...connection, max: poolSize });
  // Behind a transaction pooler nobody told us of (DATABASE_POOLER unset), a prepared statement
  // meets a server connection that has it already (42P05) or lacks it (26000): the first such
  // error switches this process to unnamed statements for good, with one line saying what to set.
  let pooled = settings.pooler === 'transaction';
  const nameOf: NameOf = (text) => (pooled ? unnamed(text) : statementName(text));
  const onStatementState = (err: unknown) => {
    if (pooled || !isStatementStateError(err)) return;
    pooled = true;
    console.error(
      'PostgreSQL: a prepared statement met a server connection that was not its own (42P05/26000): DATABASE_URL goes through a transaction pooler (PgBouncer or a managed one). ' +
        'This process now sends unnamed statements; set DATABASE_POOLER=transaction to start that way (docs/database.md).',
    );
  };
  // An idle connection the server drops (restart, failover) must not crash the process: the
  // pool replaces it on the next checkout.
  pool.on('error', (err) => console.error('PostgreSQL connection lost:', err.message));
  // A connection checked out for a transaction has no pool listener: without this one, a
  // server restart mid-transaction is an uncaught 'error' that ends the process. The query
  // in flight is rejected anyway and answers 503 (api/http/errors.ts).
  pool.on('connect', (client) => client.on('error', () => {}));
  const { prepareValue } = await import('pg/lib/utils.js');
  const pipeline = pgPipelines(pg as never, prepareValue, nameOf);
  const lanes = readLanes({
    lanes: readLaneCount,
    client: () => new pg.Client(connection) as unknown as LaneClient,
    getTypeParser: (oid) => types.getTypeParser(oid, 'text'),
    prepareValue,
    nameOf,
    deadlineMs: settings.deadlineMs,
  });
  const kysely = new Kysely<Schema>({
    dialect: new PostgresDialect({
      pool: wrappedPool(pool, pipeline, lanes, nameOf, settings.deadlineMs, onStatementState) as never,
    }),
  });
  const db = new Database(kysely, 'postgres', () => kysely.destroy());
  db.poolStats = () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount });
  return db;
}

export async function openDatabase(options: {
  databaseUrl?: string;
  dataDir?: string;
  settings?: DatabaseSettings;
}): Promise<Database> {
  return options.databaseUrl ? openPostgres(options.databaseUrl, 10, 2, options.settings) : openPglite(options.dataDir);
}
