// A GJSON path evaluator for the subset customer-lookup settings need (GJSON itself has no
// JavaScript port). Supported, with GJSON's meaning:
//   name.first          keys separated by `.`; `\` escapes a special character (fav\.movie)
//   children.0          array indexes
//   child*.2  c?ildren  `*` and `?` wildcards in keys (first matching key)
//   friends.#           array length
//   friends.#.age       the rest of the path applied to every element
//   friends.#(last=="Murphy").first     first element matching a query
//   friends.#(age>45)#.last             every matching element
//   friends|0           `|` applies the rest to the result as a whole (matters after # and #(...)#)
// Query operators: == (or =), !=, <, <=, >, >=, % (like), !% (not like); a query without an
// operator matches when its path exists; queries nest. Everything else (modifiers `@`,
// multipaths `{...}` `[...]`, the old `#[...]` queries, JSON-lines `..`) is refused with a
// message saying what is not supported, instead of silently finding nothing.

type Sep = '.' | '|' | '';

type Token =
  | { kind: 'key'; text: string; wildcard: boolean; sep: Sep }
  | { kind: 'count'; sep: Sep }
  | { kind: 'query'; query: Query; all: boolean; sep: Sep };

type Op = '==' | '!=' | '<' | '<=' | '>' | '>=' | '%' | '!%';
type Query = { left: Token[]; op: Op | null; right: unknown };

export type CompiledPath = { source: string; tokens: Token[] };

export class GjsonPathError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GjsonPathError';
  }
}

const KEY_SPECIAL = new Set([' ', '.', '|', '*', '?', '\\', '#', '@', '(', ')', '!', '=', '<', '>', '%', '"', '{', '}', '[', ']', ',', ':']);

/** Escapes a literal key so the path finds exactly that key. */
export function escapeKey(key: string): string {
  let out = '';
  for (const ch of key) out += KEY_SPECIAL.has(ch) ? `\\${ch}` : ch;
  return out;
}

/** Finds the `)` closing the `(` at `start`, skipping quoted strings and escapes. */
function closingParen(path: string, start: number): number {
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
    if (ch === '(') depth++;
    else if (ch === ')' && --depth === 0) return i;
  }
  throw new GjsonPathError('A query "#(" in the path is not closed with ")".');
}

const OPS: Op[] = ['==', '!=', '<=', '>=', '!%', '<', '>', '%'];

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
    if (ch === '(') depth++;
    else if (ch === ')') depth--;
    if (depth !== 0) continue;
    let op: Op | null = null;
    if (body.startsWith('==', i)) op = '==';
    else if (ch === '=') op = '==';
    else op = OPS.find((o) => body.startsWith(o, i)) ?? null;
    if (!op) continue;
    const width = body.startsWith(op, i) ? op.length : 1;
    const left = trimUnescaped(body.slice(0, i));
    return { left: left ? tokenize(left) : [], op, right: parseLiteral(body.slice(i + width).trim()) };
  }
  const left = trimUnescaped(body);
  if (!left) throw new GjsonPathError('A query "#()" needs a condition, e.g. #(type=="mobile").');
  return { left: tokenize(left), op: null, right: undefined };
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

function parseLiteral(text: string): unknown {
  if (!text) throw new GjsonPathError('A query needs a value after its operator, e.g. #(type=="mobile").');
  if (text.startsWith('"')) {
    try {
      return JSON.parse(text);
    } catch {
      throw new GjsonPathError(`The query value ${text} is not a valid quoted string.`);
    }
  }
  if (text === 'true') return true;
  if (text === 'false') return false;
  if (text === 'null') return null;
  if (/^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(text)) return Number(text);
  // GJSON wants strings quoted; an unquoted word is taken as the string it spells.
  return text;
}

function tokenize(path: string): Token[] {
  if (!path) throw new GjsonPathError('The path is empty.');
  if (path.startsWith('{') || path.startsWith('[')) throw new GjsonPathError('Multipaths ({...} or [...]) are not supported.');
  if (path.startsWith('..')) throw new GjsonPathError('JSON Lines paths (..) are not supported.');
  const tokens: Token[] = [];
  let i = 0;
  const readSep = (): Sep => {
    if (i >= path.length) return '';
    const ch = path[i];
    if (ch === '.' || ch === '|') {
      i++;
      if (i >= path.length) throw new GjsonPathError('The path ends with a separator.');
      return ch;
    }
    throw new GjsonPathError(`Unexpected "${ch}" at position ${i + 1} of the path.`);
  };
  while (i < path.length) {
    const ch = path[i];
    if (ch === '@') throw new GjsonPathError('Modifiers (@...) are not supported.');
    if (ch === '!') throw new GjsonPathError('Literals (!...) are not supported.');
    if (ch === '.' || ch === '|') throw new GjsonPathError('The path has an empty component.');
    if (ch === '#') {
      const next = path[i + 1];
      if (next === '[') throw new GjsonPathError('Old-style queries #[...] are not supported; use #(...).');
      if (next === '(') {
        const end = closingParen(path, i + 1);
        const query = parseQuery(path.slice(i + 2, end));
        i = end + 1;
        const all = path[i] === '#';
        if (all) i++;
        tokens.push({ kind: 'query', query, all, sep: readSep() });
        continue;
      }
      if (next === undefined || next === '.' || next === '|') {
        i++;
        tokens.push({ kind: 'count', sep: readSep() });
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
    tokens.push({ kind: 'key', text: wildcard ? escaped : text, wildcard, sep: readSep() });
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

/** `*` any run, `?` one character; `\u0000x` is an escaped literal x (from the tokenizer). */
function wildcardMatch(pattern: string, value: string): boolean {
  let re = '^';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\u0000') {
      re += escapeRegex(pattern[++i] ?? '');
    } else if (c === '*') re += '[\\s\\S]*';
    else if (c === '?') re += '[\\s\\S]';
    else re += escapeRegex(c);
  }
  return new RegExp(re + '$', 'u').test(value);
}

function likeMatch(pattern: string, value: string): boolean {
  let re = '^';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\' && i + 1 < pattern.length) re += escapeRegex(pattern[++i]);
    else if (c === '*') re += '[\\s\\S]*';
    else if (c === '?') re += '[\\s\\S]';
    else re += escapeRegex(c);
  }
  return new RegExp(re + '$', 'u').test(value);
}

function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function child(value: unknown, token: Extract<Token, { kind: 'key' }>): unknown {
  if (Array.isArray(value)) {
    if (!token.wildcard && /^\d+$/.test(token.text)) return value[Number(token.text)];
    return undefined;
  }
  if (!isObject(value)) return undefined;
  if (!token.wildcard) return Object.prototype.hasOwnProperty.call(value, token.text) ? value[token.text] : undefined;
  for (const key of Object.keys(value)) if (wildcardMatch(token.text, key)) return value[key];
  return undefined;
}

function compare(left: unknown, op: Op, right: unknown): boolean {
  if (op === '%' || op === '!%') {
    if (typeof left !== 'string' || typeof right !== 'string') return false;
    return likeMatch(right, left) === (op === '%');
  }
  if (typeof right === 'number') {
    if (typeof left !== 'number') return op === '!=';
    return op === '==' ? left === right : op === '!=' ? left !== right : op === '<' ? left < right : op === '<=' ? left <= right : op === '>' ? left > right : left >= right;
  }
  if (typeof right === 'string') {
    if (typeof left !== 'string') return op === '!=';
    return op === '==' ? left === right : op === '!=' ? left !== right : op === '<' ? left < right : op === '<=' ? left <= right : op === '>' ? left > right : left >= right;
  }
  // true, false, null: equality only
  if (op === '==') return left === right;
  if (op === '!=') return left !== right;
  return false;
}

function matches(element: unknown, query: Query): boolean {
  const left = query.left.length ? run(element, query.left, 0) : element;
  if (query.op === null) return left !== undefined;
  if (left === undefined) return false;
  return compare(left, query.op, query.right);
}

/** Applies tokens[i..] to value; undefined means "does not exist". */
function run(value: unknown, tokens: Token[], i: number): unknown {
  if (i >= tokens.length) return value;
  const t = tokens[i];
  const last = i === tokens.length - 1;
  const mapRest = (items: unknown[]) => {
    const out: unknown[] = [];
    for (const item of items) {
      const r = run(item, tokens, i + 1);
      if (r !== undefined) out.push(r);
    }
    return out;
  };
  switch (t.kind) {
    case 'key': {
      const v = child(value, t);
      return v === undefined ? undefined : run(v, tokens, i + 1);
    }
    case 'count': {
      if (!Array.isArray(value)) return undefined;
      if (last) return value.length;
      return t.sep === '|' ? run(value.length, tokens, i + 1) : mapRest(value);
    }
    case 'query': {
      if (!Array.isArray(value)) return undefined;
      if (!t.all) {
        const first = value.find((el) => matches(el, t.query));
        return first === undefined ? undefined : run(first, tokens, i + 1);
      }
      const found = value.filter((el) => matches(el, t.query));
      if (last) return found;
      return t.sep === '|' ? run(found, tokens, i + 1) : mapRest(found);
    }
  }
}

/** The value at `path` in a parsed JSON document, or undefined when it does not exist. */
export function gjsonGet(document: unknown, path: string | CompiledPath): unknown {
  const compiled = typeof path === 'string' ? compileGjsonPath(path) : path;
  return run(document, compiled.tokens, 0);
}

/**
 * Renders "{name.first} {name.last}" against one customer: each {path} is a GJSON path; a
 * missing value renders as nothing, objects and arrays as JSON. `{{` and `}}` are literal braces.
 */
export function renderTemplate(template: string, customer: unknown): string {
  return template.replace(/\{\{|\}\}|\{([^{}]+)\}/g, (whole, path: string | undefined) => {
    if (whole === '{{') return '{';
    if (whole === '}}') return '}';
    let value: unknown;
    try {
      value = gjsonGet(customer, path!.trim());
    } catch {
      return whole;
    }
    if (value === undefined || value === null) return '';
    return typeof value === 'object' ? JSON.stringify(value) : String(value);
  });
}
