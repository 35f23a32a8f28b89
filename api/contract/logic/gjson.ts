// A GJSON path evaluator for the subset customer-lookup settings need (GJSON itself has no
// JavaScript port). It works on the raw text of the document (raw-json.ts beside it) and
// answers what GJSON answers: exists, type, raw text and string value. Supported, with GJSON's
// meaning (checked against GJSON's own test suite, test/unit/contract/logic/gjson-conformance):
//   name.first          keys separated by `.`; `\` escapes a special character (fav\.movie)
//   children.0          array indexes
//   child*.2  c?ildren  `*` and `?` wildcards in keys (first matching key)
//   friends.#           array length
//   friends.#.age       the rest of the path (up to a `|`) applied to every element
//   friends.#(last=="Murphy").first     first element matching a query (#[...] is the same)
//   friends.#(age>45)#.last             every matching element
//   friends|0           `|` applies the rest to the result as a whole (matters after # and #(...)#)
//   @this @flatten @flatten:{"deep":true} @reverse @keys @values   modifiers
// Query operators: == (or =), !=, <, <=, >, >=, % (like), !% (not like); values ~true, ~false,
// ~null and ~* compare truthiness; a query without an operator matches when its path exists;
// queries nest. Everything else (other modifiers, multipaths `{...}` `[...]` anywhere, literals
// `!...`, JSON-lines `..`) is refused with a message saying what is not supported, instead of
// silently answering something else.

import { parseRawJson, type JsonNode } from './raw-json';

type Modifier = 'this' | 'flatten' | 'reverse' | 'keys' | 'values';
type TokenBody =
  | { kind: 'key'; text: string; wildcard: boolean }
  | { kind: 'count' }
  | { kind: 'query'; query: Query; all: boolean }
  | { kind: 'modifier'; name: Modifier; deep: boolean };
/** `pipe`: the token came after `|` rather than `.`. */
type Token = TokenBody & { pipe: boolean };

type Op = '==' | '!=' | '<' | '<=' | '>' | '>=' | '%' | '!%';
/** `right` is GJSON's query value: a quoted value unquoted, anything else as written. */
type Query = { left: Token[]; op: Op | null; right: string };

export type CompiledPath = { source: string; tokens: Token[] };

export type GjsonType = 'Null' | 'False' | 'Number' | 'String' | 'True' | 'JSON';
/** What GJSON's Get answers: Exists(), Type, Raw and String(). */
export type GjsonResult = { exists: boolean; type: GjsonType; raw: string; str: string };

export class GjsonPathError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GjsonPathError';
  }
}

const KEY_SPECIAL = new Set([
  ' ',
  '.',
  '|',
  '*',
  '?',
  '\\',
  '#',
  '@',
  '(',
  ')',
  '!',
  '=',
  '<',
  '>',
  '%',
  '"',
  '{',
  '}',
  '[',
  ']',
  ',',
  ':',
]);

/** Escapes a literal key so the path finds exactly that key. */
export function escapeKey(key: string): string {
  let out = '';
  for (const ch of key) out += KEY_SPECIAL.has(ch) ? `\\${ch}` : ch;
  return out;
}

/** Finds the bracket closing the one at `start`, skipping quoted strings and escapes. */
function closingBracket(path: string, start: number): number {
  const open = path[start];
  const close = open === '(' ? ')' : ']';
  let depth = 0;
  for (let i = start; i < path.length; i++) {
    const ch = path[i];
    if (ch === '\\') {
      i++;
      continue;
    }
    if (ch === '"') {
      for (i++; i < path.length && path[i] !== '"'; i++) if (path[i] === '\\') i++;
      if (i >= path.length) throw new GjsonPathError('A quoted value in the path is not closed.');
      continue;
    }
    if (ch === '(' || ch === '[') depth++;
    else if (ch === ')' || ch === ']') {
      depth--;
      if (depth === 0) {
        if (ch !== close) break;
        return i;
      }
    }
  }
  throw new GjsonPathError(`A query "#${open}" in the path is not closed with "${close}".`);
}

/** Splits a query body at its operator (outside quotes, nested queries and escapes). */
function parseQuery(body: string): Query {
  let depth = 0;
  for (let i = 0; i < body.length; i++) {
    const ch = body[i];
    if (ch === '\\') {
      i++;
      continue;
    }
    if (ch === '"') {
      for (i++; i < body.length && body[i] !== '"'; i++) if (body[i] === '\\') i++;
      continue;
    }
    if (ch === '(' || ch === '[') depth++;
    else if (ch === ')' || ch === ']') depth--;
    if (depth !== 0) continue;
    let op: Op | null = null;
    let width = 2;
    if (body.startsWith('==', i)) op = '==';
    else if (body.startsWith('!=', i)) op = '!=';
    else if (body.startsWith('!%', i)) op = '!%';
    else if (body.startsWith('<=', i)) op = '<=';
    else if (body.startsWith('>=', i)) op = '>=';
    else if ('=<>%'.includes(ch)) {
      op = ch === '=' ? '==' : (ch as Op);
      width = 1;
    }
    if (!op) continue;
    const left = trimUnescaped(body.slice(0, i));
    return { left: left ? tokenize(left) : [], op, right: parseQueryValue(body.slice(i + width).trim()) };
  }
  const left = trimUnescaped(body);
  if (!left) throw new GjsonPathError('A query "#()" needs a condition, e.g. #(type=="mobile").');
  return { left: tokenize(left), op: null, right: '' };
}

/** Trims spaces around a query's path, keeping an escaped trailing space ("a\\ "). */
function trimUnescaped(s: string): string {
  s = s.trimStart();
  let end = s.length;
  while (end > 0 && /\s/.test(s[end - 1])) {
    let slashes = 0;
    for (let j = end - 2; j >= 0 && s[j] === '\\'; j--) slashes++;
    if (slashes % 2 === 1) break;
    end--;
  }
  return s.slice(0, end);
}

function parseQueryValue(text: string): string {
  if (!text.startsWith('"')) return text;
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value === 'string') return value;
  } catch {
    // reported below
  }
  throw new GjsonPathError(`The query value ${text} is not a valid quoted string.`);
}

const MODIFIERS = new Set<string>(['this', 'flatten', 'reverse', 'keys', 'values']);

function parseModifier(path: string, i: number): { token: TokenBody; end: number } {
  const m = /^@(\w*)(:?)/.exec(path.slice(i))!;
  const name = m[1];
  if (!MODIFIERS.has(name)) {
    throw new GjsonPathError(
      `The modifier @${name} is not supported (only @this, @flatten, @reverse, @keys and @values); write \\@ for a key that starts with @.`,
    );
  }
  let end = i + m[0].length;
  let deep = false;
  if (m[2]) {
    const arg = /^\{\s*"deep"\s*:\s*(true|false)\s*\}/.exec(path.slice(end));
    if (name !== 'flatten' || !arg)
      throw new GjsonPathError(`The modifier @${name} takes no argument here (only @flatten:{"deep":true}).`);
    deep = arg[1] === 'true';
    end += arg[0].length;
  }
  return { token: { kind: 'modifier', name: name as Modifier, deep }, end };
}

function tokenize(path: string): Token[] {
  if (!path) throw new GjsonPathError('The path is empty.');
  if (path.startsWith('..')) throw new GjsonPathError('JSON Lines paths (..) are not supported.');
  const tokens: Token[] = [];
  let i = 0;
  let pipe = false;
  const push = (token: TokenBody) => {
    tokens.push({ ...token, pipe });
    if (i >= path.length) return;
    const ch = path[i];
    if (ch !== '.' && ch !== '|') throw new GjsonPathError(`Unexpected "${ch}" at position ${i + 1} of the path.`);
    pipe = ch === '|';
    i++;
    if (i >= path.length) throw new GjsonPathError('The path ends with a separator.');
  };
  while (i < path.length) {
    const ch = path[i];
    if (ch === '@') {
      const { token, end } = parseModifier(path, i);
      i = end;
      push(token);
      continue;
    }
    if (ch === '[' || ch === '{') throw new GjsonPathError('Multipaths ({...} or [...]) are not supported.');
    if (ch === '!') throw new GjsonPathError('Literals (!...) are not supported.');
    if (ch === '.' || ch === '|') throw new GjsonPathError('The path has an empty component.');
    if (ch === '#') {
      const next = path[i + 1];
      if (next === '(' || next === '[') {
        const end = closingBracket(path, i + 1);
        const query = parseQuery(path.slice(i + 2, end));
        i = end + 1;
        const all = path[i] === '#';
        if (all) i++;
        push({ kind: 'query', query, all });
        continue;
      }
      if (next === undefined || next === '.' || next === '|') {
        i++;
        push({ kind: 'count' });
        continue;
      }
    }
    let text = '';
    let wildcard = false;
    let escaped = '';
    while (i < path.length && path[i] !== '.' && path[i] !== '|') {
      const c = path[i];
      if (c === '\\') {
        if (i + 1 >= path.length) throw new GjsonPathError('The path ends with a lone "\\".');
        text += path[i + 1];
        escaped += '\u0000' + path[i + 1];
        i += 2;
        continue;
      }
      if (c === '(' || c === ')') throw new GjsonPathError(`Unexpected "${c}" in a key; escape it as \\${c}.`);
      if (c === '*' || c === '?') wildcard = true;
      text += c;
      escaped += c;
      i++;
    }
    // Wildcards are matched on the escaped form so that \* stays a literal star.
    push({ kind: 'key', text: wildcard ? escaped : text, wildcard });
  }
  return tokens;
}

/** Parses a path, throwing GjsonPathError with a reader-facing message when it is not supported. */
export function compileGjsonPath(path: string): CompiledPath {
  return { source: path, tokens: tokenize(path) };
}

/** The message explaining why a path is not supported, or null when it is fine. */
export function gjsonPathProblem(path: string): string | null {
  try {
    compileGjsonPath(path);
    return null;
  } catch (err) {
    if (err instanceof GjsonPathError) return err.message;
    throw err;
  }
}

// Wildcards are matched by a two-pointer walk, never by a RegExp built from the path: the path is
// admin input and the value comes from an outside service, and `[\s\S]*a[\s\S]*a…` backtracks
// polynomially (`*a*a*a*a*a*a*a*a*b` against 5,000 a's took minutes). The walk is O(path × value)
// at worst, with the value capped by the lookup's 2 MB answer.
const ANY_RUN = 0;
const ANY_ONE = 1;
type Glob = (number | string)[];

/** `*` any run, `?` one character (not a line break, as before); `\u0000x` is an escaped literal x (from the tokenizer). */
function wildcardMatch(pattern: string, value: string): boolean {
  return globMatch(globOf(pattern, '\u0000'), value);
}

/** The `%` query operator: the same wildcards, with `\` escaping. */
function likeMatch(pattern: string, value: string): boolean {
  return globMatch(globOf(pattern, '\\'), value);
}

function globOf(pattern: string, escapeChar: string): Glob {
  const chars = Array.from(pattern);
  const glob: Glob = [];
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i]!;
    if (c === escapeChar && i + 1 < chars.length) glob.push(chars[++i]!);
    else if (c === '*') glob.push(ANY_RUN);
    else if (c === '?') glob.push(ANY_ONE);
    else glob.push(c);
  }
  return glob;
}

const LINE_BREAK = /^[\n\r\u2028\u2029]$/;

function globMatch(glob: Glob, value: string): boolean {
  const s = Array.from(value);
  let i = 0;
  let j = 0;
  let star = -1;
  let resume = 0;
  while (j < s.length) {
    const g = glob[i];
    if (g === ANY_RUN) {
      star = i++;
      resume = j;
    } else if (i < glob.length && (g === ANY_ONE ? !LINE_BREAK.test(s[j]!) : g === s[j])) {
      i++;
      j++;
    } else if (star >= 0) {
      // the last `*` takes one more character and the rest is tried again
      i = star + 1;
      j = ++resume;
    } else return false;
  }
  while (glob[i] === ANY_RUN) i++;
  return i === glob.length;
}

/** Go compares strings byte-wise (UTF-8), which is code point order. */
function compareStrings(a: string, b: string): number {
  const x = Array.from(a, (c) => c.codePointAt(0)!);
  const y = Array.from(b, (c) => c.codePointAt(0)!);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] - y[i];
  return x.length - y.length;
}

/** Go's strconv.ParseFloat as GJSON uses it: what does not parse counts as 0. */
function goFloat(text: string): number {
  if (/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(text)) return Number(text);
  const inf = /^([+-]?)(inf|infinity)$/i.exec(text);
  if (inf) return inf[1] === '-' ? -Infinity : Infinity;
  if (/^nan$/i.test(text)) return NaN;
  return 0;
}

function typeOf(node: JsonNode): GjsonType {
  switch (node.kind) {
    case 'object':
    case 'array':
      return 'JSON';
    case 'string':
      return 'String';
    case 'number':
      return 'Number';
    case 'true':
      return 'True';
    case 'false':
      return 'False';
    case 'null':
      return 'Null';
  }
}

/** GJSON's Result.Bool(). */
function truthy(node: JsonNode | undefined): boolean {
  if (!node) return false;
  if (node.kind === 'true') return true;
  if (node.kind === 'string') return ['1', 't', 'true'].includes(node.value.toLowerCase());
  if (node.kind === 'number') return Number(node.raw) !== 0;
  return false;
}

function matches(element: JsonNode, query: Query): boolean {
  let value: JsonNode | undefined = query.left.length ? run(element, query.left, 0) : element;
  let right = query.right;
  if (right.startsWith('~')) {
    // ~true, ~false, ~null and ~* compare what a value means, not what it is.
    const word = right.slice(1);
    let is: boolean | null = null;
    if (word === '*') is = value !== undefined;
    else if (word === 'null') is = value === undefined || value.kind === 'null';
    else if (word === 'true') is = truthy(value);
    // A string counts as false only when it spells false (GJSON: strconv.ParseBool).
    else if (word === 'false')
      is = value?.kind === 'string' ? ['0', 'f', 'false'].includes(value.value.toLowerCase()) : !truthy(value);
    if (is === null) return false;
    value = is ? { kind: 'true', raw: 'true' } : { kind: 'false', raw: 'false' };
    right = 'true';
  }
  if (value === undefined) return false;
  const op = query.op;
  if (op === null) return true;
  const ordered = (c: number) =>
    op === '=='
      ? c === 0
      : op === '!='
        ? c !== 0
        : op === '<'
          ? c < 0
          : op === '<='
            ? c <= 0
            : op === '>'
              ? c > 0
              : op === '>='
                ? c >= 0
                : false;
  switch (value.kind) {
    case 'string':
      if (op === '%') return likeMatch(right, value.value);
      if (op === '!%') return !likeMatch(right, value.value);
      return ordered(compareStrings(value.value, right));
    case 'number': {
      const a = Number(value.raw);
      const b = goFloat(right);
      return op === '=='
        ? a === b
        : op === '!='
          ? a !== b
          : op === '<'
            ? a < b
            : op === '<='
              ? a <= b
              : op === '>'
                ? a > b
                : op === '>='
                  ? a >= b
                  : false;
    }
    case 'true':
      return op === '==' ? right === 'true' : op === '!=' ? right !== 'true' : op === '>' ? right === 'false' : op === '>=';
    case 'false':
      return op === '==' ? right === 'false' : op === '!=' ? right !== 'false' : op === '<' ? right === 'true' : op === '<=';
    default:
      return false;
  }
}

function child(node: JsonNode, token: Extract<Token, { kind: 'key' }>): JsonNode | undefined {
  if (node.kind === 'array') {
    if (!token.wildcard && /^\d+$/.test(token.text)) return node.items[Number(token.text)];
    return undefined;
  }
  if (node.kind !== 'object') return undefined;
  const entry = token.wildcard
    ? node.entries.find((e) => wildcardMatch(token.text, e.key))
    : node.entries.find((e) => e.key === token.text);
  return entry?.value;
}

/** A value GJSON builds (a list of results, a count, a modifier's output), parsed back. */
function built(raw: string): JsonNode {
  return parseRawJson(raw);
}

const list = (raws: string[]) => built(`[${raws.join(',')}]`);

/** `[a, b]` → `a, b`, as GJSON's unwrap. */
const unwrap = (raw: string) => raw.trim().slice(1, -1).trim();

function flatten(node: JsonNode, deep: boolean): JsonNode {
  if (node.kind !== 'array') return node;
  const out: string[] = [];
  for (const item of node.items) {
    const raw = item.kind === 'array' ? unwrap(deep ? flatten(item, true).raw : item.raw) : item.raw;
    if (raw) out.push(raw);
  }
  return list(out);
}

function modify(node: JsonNode, token: Extract<Token, { kind: 'modifier' }>): JsonNode {
  switch (token.name) {
    case 'this':
      return node;
    case 'flatten':
      return flatten(node, token.deep);
    case 'reverse':
      if (node.kind === 'array') return list(node.items.map((n) => n.raw).reverse());
      if (node.kind === 'object')
        return built(
          `{${node.entries
            .map((e) => `${e.keyRaw}:${e.value.raw}`)
            .reverse()
            .join(',')}}`,
        );
      return node;
    case 'keys':
      if (node.kind === 'object') return list(node.entries.map((e) => e.keyRaw));
      return list(node.kind === 'array' ? node.items.map(() => 'null') : ['null']);
    case 'values':
      if (node.kind === 'object') return list(node.entries.map((e) => e.value.raw));
      return node.kind === 'array' ? node : list([node.raw]);
  }
}

/** Applies tokens[i..] to node; undefined means "does not exist". */
function run(node: JsonNode, tokens: Token[], i: number): JsonNode | undefined {
  if (i >= tokens.length) return node;
  const t = tokens[i];
  // After `#` and `#(...)#`, a `.` applies the path up to the next `|` to every element; the
  // `|` then applies the rest to the list as a whole.
  const mapEach = (items: JsonNode[]): JsonNode | undefined => {
    if (i + 1 >= tokens.length) return list(items.map((n) => n.raw));
    if (tokens[i + 1].pipe) return run(list(items.map((n) => n.raw)), tokens, i + 1);
    let end = i + 1;
    while (end < tokens.length && !tokens[end].pipe) end++;
    const segment = tokens.slice(i + 1, end);
    const out: string[] = [];
    for (const item of items) {
      const r = run(item, segment, 0);
      if (r !== undefined) out.push(r.raw);
    }
    return run(list(out), tokens, end);
  };
  switch (t.kind) {
    case 'key': {
      const v = child(node, t);
      return v === undefined ? undefined : run(v, tokens, i + 1);
    }
    case 'count': {
      if (node.kind !== 'array') return undefined;
      const count = built(String(node.items.length));
      if (i + 1 >= tokens.length || tokens[i + 1].pipe) return run(count, tokens, i + 1);
      return mapEach(node.items);
    }
    case 'query': {
      if (node.kind !== 'array') return undefined;
      if (!t.all) {
        const first = node.items.find((el) => matches(el, t.query));
        return first === undefined ? undefined : run(first, tokens, i + 1);
      }
      return mapEach(node.items.filter((el) => matches(el, t.query)));
    }
    case 'modifier':
      return run(modify(node, t), tokens, i + 1);
  }
}

/** GJSON's String() of a number: integers as written, anything else as Go's shortest 'f' format. */
function numberString(raw: string): string {
  if (/^-?\d+$/.test(raw)) return raw;
  const n = Number(raw);
  const s = String(n);
  const m = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(s);
  if (!m) return s;
  const digits = m[2] + (m[3] ?? '');
  const exp = Number(m[4]);
  if (exp >= 0) return m[1] + digits.padEnd(exp + 1, '0');
  return `${m[1]}0.${'0'.repeat(-exp - 1)}${digits}`;
}

/** The string value GJSON's String() gives for a node. */
export function gjsonString(node: JsonNode): string {
  switch (node.kind) {
    case 'string':
      return node.value;
    case 'number':
      return numberString(node.raw);
    case 'null':
      return '';
    default:
      return node.raw;
  }
}

const MISSING: GjsonResult = { exists: false, type: 'Null', raw: '', str: '' };

/** The node at `path` in a parsed document, or undefined when it does not exist. */
export function gjsonFind(document: JsonNode, path: string | CompiledPath): JsonNode | undefined {
  const compiled = typeof path === 'string' ? compileGjsonPath(path) : path;
  return run(document, compiled.tokens, 0);
}

/** GJSON's Get: what `path` finds in `document` (JSON text or an already parsed document). */
export function gjsonGet(document: string | JsonNode, path: string | CompiledPath): GjsonResult {
  const node = gjsonFind(typeof document === 'string' ? parseRawJson(document) : document, path);
  if (!node) return MISSING;
  return { exists: true, type: typeOf(node), raw: node.raw, str: gjsonString(node) };
}

/**
 * Renders "{name.first} {name.last}" against one customer: each {path} is a GJSON path; a
 * missing value or null renders as nothing, strings as their text, numbers exactly as the
 * document wrote them (large ids survive), objects and arrays as their JSON text. `{{` and `}}`
 * are literal braces.
 */
export function renderTemplate(template: string, customer: JsonNode): string {
  return template.replace(/\{\{|\}\}|\{([^{}]+)\}/g, (whole, path: string | undefined) => {
    if (whole === '{{') return '{';
    if (whole === '}}') return '}';
    let value: JsonNode | undefined;
    try {
      value = gjsonFind(customer, path!.trim());
    } catch {
      return whole;
    }
    if (value === undefined || value.kind === 'null') return '';
    return value.kind === 'string' ? value.value : value.raw;
  });
}
