// An eForm field's `validation.pattern`, run by a linear-time engine (RE2 semantics, re2js):
// patterns are admin input and answers are anyone-with-the-link input, so a backtracking RegExp
// would let one form freeze the server for every account. The server and the console's preview
// use this module; the customer page does not load it (45 KB gzip, over the page's budget): it
// checks patterns on submit through the server.
import { RE2JS } from 're2js';
import type { PatternEngine } from './e-form-rules';

/**
 * The largest compiled program accepted. Matching costs answer length x program size: with
 * answers of at most 5,000 characters this keeps the slowest match near 10 ms, where
 * `[\s\S]{1,1000}x` (about 2,000 instructions) would take about 30.
 */
export const MAX_PATTERN_PROGRAM = 600;

const cache = new Map<string, RE2JS | string>();

function compiled(pattern: string): RE2JS | string {
  let hit = cache.get(pattern);
  if (hit !== undefined) return hit;
  try {
    const re = RE2JS.compile(pattern);
    // re2Input.prog is the compiled program (pinned re2js 2.10.0; test/unit/contract/logic/e-form-pattern.test.ts holds it)
    const size = (re as unknown as { re2Input: { prog: { inst: unknown[] } } }).re2Input.prog.inst.length;
    hit = size > MAX_PATTERN_PROGRAM ? 'The pattern is too complex: use smaller repeat counts such as {1,50}' : re;
  } catch (err) {
    const why = err instanceof Error ? err.message.replace(/^error parsing regexp: /, '') : 'not valid';
    hit = `The pattern cannot be used (${why}): patterns follow RE2 syntax, without look-around or back-references`;
  }
  if (cache.size > 500) cache.clear();
  cache.set(pattern, hit);
  return hit;
}

export const re2Patterns: PatternEngine = {
  problem: (pattern) => {
    const c = compiled(pattern);
    return typeof c === 'string' ? c : null;
  },
  matches: (pattern, text) => {
    const c = compiled(pattern);
    return typeof c === 'string' ? null : c.matches(text);
  },
};
