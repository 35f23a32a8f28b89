import { sql, type RawBuilder } from 'kysely';
import { ACTION_CHOICES_LIMIT, type ActionChoice, type ActionChoicesAnswer } from '../../contract/platform';

// What a picker of an agent action offers: each app lists its own sendable things (published
// documents, published forms, active products); this is the part they share.

/** Rows read with ACTION_CHOICES_LIMIT + 1 as the limit, as the picker's answer. */
export function choicesAnswer(rows: ActionChoice[]): ActionChoicesAnswer {
  return { choices: rows.slice(0, ACTION_CHOICES_LIMIT), more: rows.length > ACTION_CHOICES_LIMIT };
}

/**
 * The SQL test of a picker's search: the title contains `q` (any case; no LIKE, so `%` and `_`
 * are plain characters) or the id is `q` exactly. True when `q` is empty.
 */
export function matchesChoice(title: RawBuilder<unknown>, id: RawBuilder<unknown>, q: string): RawBuilder<unknown> {
  const needle = q.trim();
  return needle ? sql`(strpos(lower(${title}), lower(${needle})) > 0 or ${id}::text = ${needle})` : sql`true`;
}
