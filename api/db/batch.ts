import { CompiledQuery, type Compilable, type Kysely, type RawBuilder } from 'kysely';
import { BATCH, LATER, type Result, type Step } from './one-message';
import type { Schema } from './schema';

// Fewer round trips in a write transaction. Each statement a transaction awaits costs a round
// trip to PostgreSQL: a write system call that runs the loopback network stack and wakes a
// server process, then a wait for its answer. That, not the SQL, was where a busy write spent its
// time (`POST /api/v1/otp/send` made about 35 of them). Two tools, both keeping every statement
// in the caller's transaction, under its scope (row-level security) and in its order:
//
// - `together(trx, a, b, c)` sends statements that do not depend on each other's answers in one
//   message and answers each one's rows;
// - `later(trx, statement)` is for a statement whose answer nobody reads (an audit entry, a
//   timeline step, an outbox row): it travels in front of the transaction's next statement, or
//   with its COMMIT. Its failure fails that statement (or the COMMIT) and the transaction rolls
//   back, as if it had been awaited. Outside a transaction of `Database.tenant`/`system` it runs
//   at once.
//
// The transaction's BEGIN and scope settings also travel with its first statement (`OPEN` in
// api/db/one-message.ts), so a transaction of three steps whose last two are `later` is one round
// trip with its COMMIT.

/** A statement: a Kysely query builder, or `sql` text. */
export type Statement<O> = Compilable<O> | RawBuilder<O>;

type Executor = Kysely<Schema>;

export function compileStatement<O>(executor: Executor, statement: Statement<O>): CompiledQuery<O> {
  return 'isRawBuilder' in statement ? statement.compile(executor) : statement.compile();
}

export const stepOf = (compiled: CompiledQuery): Step => ({ text: compiled.sql, params: compiled.parameters });

export type RowsOf<S> = S extends Statement<infer O> ? O[] : never;

/** The rows `together` answers for a list of statements. */
export type RowsOfAll<S extends readonly Statement<unknown>[]> = { -readonly [K in keyof S]: RowsOf<S[K]> };

/** The statements in one message, in order, in the caller's transaction; answers each one's rows. */
export async function together<const S extends readonly Statement<unknown>[]>(
  trx: Executor,
  ...statements: S
): Promise<{ -readonly [K in keyof S]: RowsOf<S[K]> }> {
  const steps = statements.map((s) => stepOf(compileStatement(trx, s)));
  const results = (await trx.executeQuery(CompiledQuery.raw(BATCH, [steps]))).rows as Result[];
  return results.map((r) => r.rows) as { -readonly [K in keyof S]: RowsOf<S[K]> };
}

/** The statement travels with the transaction's next one (or its COMMIT); nobody reads its answer. */
export async function later(trx: Executor, statement: Statement<unknown>): Promise<void> {
  await trx.executeQuery(CompiledQuery.raw(LATER, [stepOf(compileStatement(trx, statement))]));
}
