// A strict JSON parser (RFC 8259) that keeps every value's source text. GJSON answers with the
// raw text of what a path finds, and customer ids such as 634866135153775564 must survive exactly,
// which JSON.parse cannot do (it rounds to the nearest double). Duplicate keys are kept in order
// because GJSON finds the first one, where JSON.parse keeps the last.

export type JsonNode =
  | { kind: 'object'; raw: string; entries: { key: string; keyRaw: string; value: JsonNode }[] }
  | { kind: 'array'; raw: string; items: JsonNode[] }
  | { kind: 'string'; raw: string; value: string }
  | { kind: 'number'; raw: string }
  | { kind: 'true' | 'false' | 'null'; raw: string };

export class JsonSyntaxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'JsonSyntaxError';
  }
}

/** Deeper documents are refused rather than risking the stack. */
const MAX_DEPTH = 512;

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
// A string token: no raw control characters, only JSON's escapes.
const STRING = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y;
const WHITESPACE = /[ \t\n\r]*/y;

export function parseRawJson(text: string): JsonNode {
  let pos = 0;
  const fail = (what: string): never => {
    throw new JsonSyntaxError(`${what} at character ${pos + 1}.`);
  };
  const skip = () => {
    WHITESPACE.lastIndex = pos;
    WHITESPACE.exec(text);
    pos = WHITESPACE.lastIndex;
  };
  const readString = (): { raw: string; value: string } => {
    STRING.lastIndex = pos;
    const m = STRING.exec(text);
    if (!m) fail('Invalid string');
    pos = STRING.lastIndex;
    const raw = m![0];
    return { raw, value: raw.includes('\\u') ? unescapeLikeGo(raw) : (JSON.parse(raw) as string) };
  };
  const value = (depth: number): JsonNode => {
    if (depth > MAX_DEPTH) fail('The document nests too deeply');
    skip();
    const start = pos;
    const ch = text[pos];
    if (ch === '{') {
      pos++;
      const entries: { key: string; keyRaw: string; value: JsonNode }[] = [];
      skip();
      if (text[pos] === '}') pos++;
      else
        for (;;) {
          skip();
          if (text[pos] !== '"') fail('Expected a key');
          const key = readString();
          skip();
          if (text[pos] !== ':') fail('Expected ":"');
          pos++;
          entries.push({ key: key.value, keyRaw: key.raw, value: value(depth + 1) });
          skip();
          if (text[pos] === ',') pos++;
          else if (text[pos] === '}') {
            pos++;
            break;
          } else fail('Expected "," or "}"');
        }
      return { kind: 'object', raw: text.slice(start, pos), entries };
    }
    if (ch === '[') {
      pos++;
      const items: JsonNode[] = [];
      skip();
      if (text[pos] === ']') pos++;
      else
        for (;;) {
          items.push(value(depth + 1));
          skip();
          if (text[pos] === ',') pos++;
          else if (text[pos] === ']') {
            pos++;
            break;
          } else fail('Expected "," or "]"');
        }
      return { kind: 'array', raw: text.slice(start, pos), items };
    }
    if (ch === '"') return { kind: 'string', ...readString() };
    for (const word of ['true', 'false', 'null'] as const) {
      if (text.startsWith(word, pos)) {
        pos += word.length;
        return { kind: word, raw: word };
      }
    }
    NUMBER.lastIndex = pos;
    const m = NUMBER.exec(text);
    if (!m) return fail(pos >= text.length ? 'Unexpected end of the document' : 'Unexpected character');
    pos = NUMBER.lastIndex;
    return { kind: 'number', raw: m[0] };
  };
  const root = value(0);
  skip();
  if (pos < text.length) fail('Unexpected text after the document');
  return root;
}

const SIMPLE_ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

/**
 * Decodes a valid JSON string token the way GJSON (Go) does: a surrogate escape consumes the
 * `\\uXXXX` after it, and a pair that does not form a character becomes one U+FFFD.
 */
function unescapeLikeGo(raw: string): string {
  let out = '';
  for (let i = 1; i < raw.length - 1; i++) {
    const ch = raw[i];
    if (ch !== '\\') {
      out += ch;
      continue;
    }
    const e = raw[++i];
    if (e !== 'u') {
      out += SIMPLE_ESCAPES[e];
      continue;
    }
    const r = parseInt(raw.slice(i + 1, i + 5), 16);
    i += 4;
    if (r < 0xd800 || r > 0xdfff) {
      out += String.fromCharCode(r);
      continue;
    }
    if (raw.startsWith('\\u', i + 1) && /^[0-9a-fA-F]{4}$/.test(raw.slice(i + 3, i + 7))) {
      const r2 = parseInt(raw.slice(i + 3, i + 7), 16);
      i += 6;
      out += r < 0xdc00 && r2 >= 0xdc00 && r2 <= 0xdfff ? String.fromCharCode(r, r2) : '\uFFFD';
    } else out += '\uFFFD';
  }
  return out;
}
