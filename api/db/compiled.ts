import {
  CompiledQuery,
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type Compilable,
} from 'kysely';
import type { Schema } from './schema';

// Kysely builds a statement as a tree of frozen nodes and compiles it to SQL on every call: for
// the bootstrap, read on every page load, that was about a sixth of the server's CPU per request,
// for a text that never changes. A statement made with `compiledOnce` is built and compiled once,
// when the module loads, with Kysely's types checking it as usual; a call only fills in its
// arguments.

// Compiles only: it has no connection.
const builder = new Kysely<Schema>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});

type Executor = { executeQuery<R>(query: CompiledQuery<R>): Promise<{ rows: R[] }> };

/**
 * A statement compiled once. `build` gets stand-ins for its `arity` arguments, each of which must
 * become a parameter of the statement (checked here); `rows(trx, ...args)` runs it with them.
 */
export function compiledOnce<O>(arity: number, build: (db: Kysely<Schema>, ...args: string[]) => Compilable<O>) {
  // values no caller passes: each marks where its argument goes among the parameters
  const marks = Array.from({ length: arity }, (_, i) => `\u0000compiled-once argument ${i}\u0000`);
  const compiled = build(builder, ...marks).compile();
  const slots = compiled.parameters.map((p) => marks.indexOf(p as string));
  for (let i = 0; i < arity; i++)
    if (!slots.includes(i)) throw new Error(`compiledOnce: argument ${i} is not a parameter of ${compiled.sql}`);
  return {
    sql: compiled.sql,
    async rows(trx: Executor, ...args: string[]): Promise<O[]> {
      if (args.length !== arity) throw new Error(`compiledOnce: ${arity} arguments expected, ${args.length} given`);
      const parameters = slots.map((slot, i) => (slot === -1 ? compiled.parameters[i] : args[slot]));
      return (await trx.executeQuery(CompiledQuery.raw(compiled.sql, parameters) as CompiledQuery<O>)).rows;
    },
  };
}
