import type { PGlite } from '@electric-sql/pglite';
import { firstWord, inlineParameters, pipelineClient, type Step } from './one-message';

// Kysely's PostgresDialect talks to a pg-style pool. PGlite is one in-process session, so this
// pool hands out a single client at a time: connect() waits until the previous one is released.
// That keeps a transaction's statements from interleaving with another request's.

type QueryResult = { rows: unknown[]; rowCount: number; command: string };

// Dates stay 'YYYY-MM-DD' strings, as with pg: a Date at UTC midnight shifts a day in western
// time zones. PGlite applies parsers per query (its constructor option does not reach query()).
const PARSERS = { 1082: (value: string) => value };

export function pglitePool(pg: PGlite) {
  let tail: Promise<void> = Promise.resolve();
  const client = {
    async query(text: string, params: unknown[] = []): Promise<QueryResult> {
      const command = text.trimStart().split(/\s+/, 1)[0]?.toUpperCase() ?? '';
      if (params.length === 0) {
        // Without parameters, run it as a script (as pg's simple protocol does): migrations are
        // several statements in one string.
        const results = await pg.exec(text, { parsers: PARSERS });
        const last = results[results.length - 1];
        return { rows: last?.rows ?? [], rowCount: last?.affectedRows ?? last?.rows.length ?? 0, command };
      }
      const result = await pg.query(text, params as unknown[], { rowMode: 'object', parsers: PARSERS });
      return { rows: result.rows, rowCount: result.affectedRows ?? result.rows.length, command };
    },
  };
  // In process there is no round trip to save: the steps run as one script, parameters written
  // in as literals, so the statements share one implicit transaction as they do on PostgreSQL.
  const pipeline = async (steps: readonly Step[]): Promise<QueryResult[]> => {
    const script = steps.map((s) => (s.params.length ? inlineParameters(s.text, s.params) : s.text)).join(';\n');
    const results = await pg.exec(script, { parsers: PARSERS });
    return results.map((r, i) => ({
      rows: r.rows,
      rowCount: r.affectedRows ?? r.rows.length,
      command: firstWord(steps[i]?.text ?? '').toUpperCase(),
    }));
  };
  return {
    async connect() {
      let release!: () => void;
      const previous = tail;
      tail = new Promise<void>((resolve) => (release = resolve));
      await previous;
      let released = false;
      const inner = pipelineClient({ query: client.query, pipeline });
      return {
        query: inner.query,
        release() {
          if (released) return;
          released = true;
          inner.detach();
          release();
        },
      };
    },
    async end() {
      await tail;
    },
  };
}
