// A read request's statements, each sent in one message with its scope.
//
// An authenticated read used to cost three round trips to the database: BEGIN with the scope
// settings and the session check, the route's read, COMMIT. On a loopback socket each message is
// a write system call that runs the receiver's network stack and wakes its process, and that, not
// the SQL, was where the time went. Here every statement of a read request travels in one
// simple-protocol message behind the settings that scope it:
//
//   select set_config('role', …, true), set_config('app.account_id', …, true); <the statement>
//
// PostgreSQL runs a message of several statements as one implicit transaction, so the settings
// (local to the transaction) bind exactly that statement, and row-level security holds as before.
// The request's first message also carries the session check, judged before the statement's rows
// are handed back. Two statements of one read no longer share a transaction; under READ COMMITTED
// each statement took its own snapshot anyway. What a transaction is still needed for is kept:
// the first statement that is not a plain read (a write, a row lock, an advisory lock) opens an
// explicit transaction with its scope, the rest of the request runs in it, and it commits at the
// end (or rolls back on an error).
//
// On PostgreSQL the steps of one message are extended-protocol Bind/Execute pairs of named
// prepared statements followed by one Sync (api/db/pg-pipeline.ts): one write, one round trip,
// each plan made once per connection. PGlite runs in process, so it gets the steps as one script
// with the parameters written in as literals (`inlineParameters`).

/** A statement result as the pool clients return it (pg's shape, which Kysely reads). */
export type Result = { rows: unknown[]; rowCount: number | null; command: string };

/** One statement of a pipeline, with its parameters. */
export type Step = { text: string; params: readonly unknown[] };

/** The session check as one step, and what judges its rows. */
export type CheckStep = Step & { accept(rows: Record<string, unknown>[]): void; fail?(err: unknown): void };

/** What a read request's connection needs to scope its statements and check the session once. */
export type Deferred = {
  /** the scope settings, one statement */
  scope: Step;
  /** the session check, carried by the first message and then cleared */
  prelude: CheckStep | null;
  /** true once a statement that needs a transaction has opened one */
  open: boolean;
  /**
   * Settles once the session check is judged. Statements sent alongside the one carrying it (a
   * route's Promise.all) may travel on another lane and answer first: they wait for it, so no
   * route sees a row before the session is accepted.
   */
  judged?: Promise<void>;
};

// Kysely reaches the pool client only through query(text, params). These statements are never
// sent: PIPELINE runs its steps as one message and answers every step's result as its rows;
// DEFER hands the client a Deferred, FINISH ends it (see `Database.run` and `runDeferred`).
export const PIPELINE = '/* switchboard: pipeline */';
export const DEFER = '/* switchboard: defer */';
export const FINISH = '/* switchboard: finish */';

// A write transaction's round trips (api/db/batch.ts). OPEN takes a transaction's opening steps
// (BEGIN and its scope) without sending them: they travel in front of its first statement. LATER
// takes a statement whose answer nobody reads (an audit entry, a timeline step): it travels in
// front of the transaction's next statement, or with its COMMIT. BATCH sends several statements
// in one message and answers each one's result.
//
// What a queued statement may not do is fail quietly: its error is the error of the statement (or
// the COMMIT) it travelled with, and the transaction rolls back as it would have. Outside a
// transaction opened with OPEN (Kysely's own, a read request's) LATER runs at once.
export const OPEN = '/* switchboard: open */';
export const LATER = '/* switchboard: later */';
export const BATCH = '/* switchboard: batch */';

/** A pool client as the two pool wrappers (pg, PGlite) expose it. */
export type PipelineClient = {
  query(text: string, params?: unknown[]): Promise<Result>;
  /**
   * Runs the steps in one message, as one implicit transaction (unless a step opens one), and
   * answers each step's result in order.
   */
  pipeline(steps: readonly Step[]): Promise<Result[]>;
  /**
   * Runs a pipeline of plain reads outside any transaction of this client, where it may share a
   * connection with other requests' (api/db/pg-read-lanes.ts); `pipeline` when absent.
   */
  reads?(steps: readonly Step[]): Promise<Result[]>;
};

const EMPTY: Result = { rows: [], rowCount: 0, command: 'SELECT' };

/**
 * Wraps a pool client with the three private statements above. `release` must call `detach`, so
 * no Deferred outlives the checkout.
 */
export function pipelineClient(base: PipelineClient) {
  let deferred: Deferred | null = null;
  /** statements that travel in front of the next one sent (OPEN, LATER) */
  let queued: Step[] = [];
  /** the queue still holds the transaction's BEGIN: nothing of it has reached the database */
  let unopened = false;
  /** how many of the queued steps are the opening (BEGIN and the scope) */
  let opening = 0;
  /** a transaction opened with OPEN is running: LATER may wait for its next statement */
  let inTransaction = false;
  const detach = () => {
    deferred = null;
    queued = [];
    unopened = false;
    inTransaction = false;
  };

  /** The queue, then `steps`, in one message; answers the results of `steps`. */
  async function withQueued(steps: readonly Step[]): Promise<Result[]> {
    if (!queued.length) return base.pipeline(steps);
    const ahead = queued;
    queued = [];
    unopened = false;
    const results = await base.pipeline([...ahead, ...steps]);
    return results.slice(ahead.length);
  }

  /** The end of a transaction opened with OPEN: COMMIT travels with what is queued. */
  async function commit(): Promise<Result> {
    inTransaction = false;
    if (unopened && queued.length <= opening) {
      // nothing was asked of the database: there is nothing to commit
      queued = [];
      unopened = false;
      return EMPTY;
    }
    if (!queued.length) return base.query('commit');
    try {
      return (await withQueued([COMMIT])).at(-1)!;
    } catch (err) {
      // a queued statement failed before the COMMIT ran: the transaction is still open (aborted)
      await base.query('rollback').catch(() => {});
      throw err;
    }
  }

  const reads = base.reads ?? base.pipeline;

  async function judgeAlone(d: Deferred, prelude: CheckStep): Promise<void> {
    let results: Result[];
    try {
      results = await (d.open ? base.pipeline : reads)([d.scope, prelude]);
    } catch (err) {
      prelude.fail?.(err);
      throw err;
    }
    prelude.accept(results[1]!.rows as Record<string, unknown>[]);
  }

  async function finish(d: Deferred, ok: boolean): Promise<void> {
    detach();
    if (!ok) {
      if (d.open) await base.query('rollback').catch(() => {});
      return;
    }
    // A request that read nothing still answers only to a live session.
    const prelude = d.prelude;
    d.prelude = null;
    if (prelude) {
      try {
        await judgeAlone(d, prelude);
      } catch (err) {
        if (d.open) await base.query('rollback').catch(() => {});
        throw err;
      }
    }
    if (d.open) await base.query('commit');
  }

  async function send(d: Deferred, text: string, params: readonly unknown[]): Promise<Result> {
    const prelude = d.prelude;
    d.prelude = null;
    if (!prelude) {
      const judged = d.judged;
      try {
        return await sendWith(d, null, text, params);
      } finally {
        if (judged) await judged;
      }
    }
    let judge!: (err?: unknown) => void;
    d.judged = new Promise<void>((resolve, reject) => (judge = (err) => (err === undefined ? resolve() : reject(err))));
    d.judged.catch(() => {});
    try {
      const result = await sendWith(d, prelude, text, params);
      judge();
      return result;
    } catch (err) {
      judge(err);
      throw err;
    }
  }

  async function sendWith(d: Deferred, prelude: CheckStep | null, text: string, params: readonly unknown[]): Promise<Result> {
    const read = isPlainRead(text);
    if (!read) d.open = true;
    const steps: Step[] = read ? [d.scope] : [BEGIN, d.scope];
    if (prelude) steps.push(prelude);
    steps.push({ text, params });
    let results: Result[];
    try {
      results = await (read ? reads : base.pipeline)(steps);
    } catch (err) {
      if (!read) {
        d.open = false;
        await base.query('rollback').catch(() => {});
      }
      // The session is judged first, as it was when it travelled alone: an ended session gets
      // its 401, not the error of a statement it should never have reached.
      if (prelude) await judgeAlone(d, prelude);
      throw err;
    }
    if (prelude) prelude.accept(results[steps.length - 2]!.rows as Record<string, unknown>[]);
    return results[results.length - 1]!;
  }

  const answer = (results: Result[]): Result => ({ rows: results, rowCount: results.length, command: 'PIPELINE' });

  async function query(text: string, params: unknown[] = []): Promise<Result> {
    if (text === PIPELINE) return answer(await withQueued(params[0] as Step[]));
    if (text === OPEN) {
      const steps = params[0] as Step[];
      queued.push(...steps);
      opening = steps.length;
      unopened = true;
      inTransaction = true;
      return EMPTY;
    }
    if (text === LATER) {
      const step = params[0] as Step;
      if (inTransaction && !deferred) {
        queued.push(step);
        return EMPTY;
      }
      return query(step.text, [...step.params]);
    }
    if (text === BATCH) {
      const steps = params[0] as Step[];
      const d = deferred;
      // a read request's statements each carry their scope (and may share a read lane)
      if (d && !d.open) return answer(await Promise.all(steps.map((s) => send(d, s.text, s.params))));
      return answer(await withQueued(steps));
    }
    if (text === DEFER) {
      deferred = params[0] as Deferred;
      return EMPTY;
    }
    if (text === FINISH) {
      const d = deferred;
      if (d) await finish(d, params[0] === true);
      return EMPTY;
    }
    const d = deferred;
    if (d && !d.open) return send(d, text, params);
    if (inTransaction && text === 'commit') return commit();
    if (text === 'rollback') {
      const never = unopened;
      queued = [];
      unopened = false;
      inTransaction = false;
      if (never) return EMPTY;
      return base.query(text, params);
    }
    if (queued.length) {
      // A text without parameters may be a script of several statements (migrations), which
      // only the simple protocol takes: the queue goes first, on its own.
      if (params.length || !text.includes(';')) return (await withQueued([{ text, params }])).at(-1)!;
      await withQueued([]);
    }
    return base.query(text, params);
  }

  return { query, detach };
}

const BEGIN: Step = { text: 'begin', params: [] };
const COMMIT: Step = { text: 'commit', params: [] };

// Statements that keep their meaning outside a transaction: a select that takes no lock.
const LOCKS = /\bfor\s+(?:update|no\s+key\s+update|share|key\s+share)\b|\bpg_advisory|\bpg_try_advisory/i;

/** True for a statement that reads without writing or locking. */
export function isPlainRead(statement: string): boolean {
  return firstWord(statement) === 'select' && !LOCKS.test(statement);
}

/** The statement's first keyword, lower case, past comments and opening parentheses. */
export function firstWord(statement: string): string {
  // Kysely writes its statements starting with the keyword: no need for the full pattern
  const plain = /^([a-z]+)\s/i.exec(statement.slice(0, 8));
  if (plain) return plain[1]!.toLowerCase();
  return /^[\s(]*(?:--[^\n]*\n[\s(]*|\/\*[\s\S]*?\*\/[\s(]*)*([a-z]+)/i.exec(statement)?.[1]?.toLowerCase() ?? '';
}

/**
 * The statement with each placeholder `$n` replaced by its value as a literal. Placeholders are
 * only recognised outside quoted strings, quoted identifiers, dollar quotes and comments.
 */
export function inlineParameters(text: string, params: readonly unknown[]): string {
  let out = '';
  let i = 0;
  let from = 0;
  const n = text.length;
  while (i < n) {
    const ch = text[i]!;
    if (ch === "'") {
      // E'…' strings take backslash escapes; '' is a quote in both kinds
      const escapes = i > 0 && (text[i - 1] === 'E' || text[i - 1] === 'e') && !isIdentChar(text[i - 2]);
      i++;
      while (i < n) {
        if (escapes && text[i] === '\\') i += 2;
        else if (text[i] === "'") {
          if (text[i + 1] === "'") i += 2;
          else break;
        } else i++;
      }
      i++;
    } else if (ch === '"') {
      i = text.indexOf('"', i + 1);
      while (i !== -1 && text[i + 1] === '"') i = text.indexOf('"', i + 2);
      i = i === -1 ? n : i + 1;
    } else if (ch === '-' && text[i + 1] === '-') {
      i = text.indexOf('\n', i);
      if (i === -1) i = n;
    } else if (ch === '/' && text[i + 1] === '*') {
      let depth = 1;
      i += 2;
      while (i < n && depth > 0) {
        if (text[i] === '/' && text[i + 1] === '*') depth++, (i += 2);
        else if (text[i] === '*' && text[i + 1] === '/') depth--, (i += 2);
        else i++;
      }
    } else if (ch === '$') {
      const number = /^\$(\d+)/.exec(text.slice(i, i + 12));
      if (number && !isIdentChar(text[i - 1])) {
        const index = Number(number[1]) - 1;
        if (index < 0 || index >= params.length) throw new Error(`statement refers to $${index + 1}, ${params.length} given`);
        out += text.slice(from, i) + literal(params[index]);
        i += number[0].length;
        from = i;
        continue;
      }
      const tag = isIdentChar(text[i - 1]) ? null : /^\$(?:[A-Za-z_][A-Za-z0-9_]*)?\$/.exec(text.slice(i, i + 64));
      if (tag) {
        const end = text.indexOf(tag[0], i + tag[0].length);
        i = end === -1 ? n : end + tag[0].length;
      } else i++;
    } else i++;
  }
  return out + text.slice(from);
}

function isIdentChar(ch: string | undefined): boolean {
  return ch !== undefined && /[A-Za-z0-9_$]/.test(ch);
}

/** A value as a literal of unspecified type, written as the drivers send it as a parameter. */
export function literal(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  return quote(text(value));
}

function quote(s: string): string {
  if (s.includes('\0')) throw new Error('a text value cannot hold a NUL character');
  return `E'${s.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
}

function text(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean') return String(value);
  if (value instanceof Date) return value.toISOString();
  if (value instanceof Uint8Array) return `\\x${Buffer.from(value).toString('hex')}`;
  if (Array.isArray(value)) return arrayText(value);
  return JSON.stringify(value);
}

// PostgreSQL's array input syntax, as pg writes an array parameter.
function arrayText(values: readonly unknown[]): string {
  const items = values.map((v) => {
    if (v === null || v === undefined) return 'NULL';
    if (Array.isArray(v)) return arrayText(v);
    return `"${text(v).replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
  });
  return `{${items.join(',')}}`;
}
