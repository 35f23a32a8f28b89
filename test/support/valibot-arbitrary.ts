import fc from 'fast-check';

// Builds fast-check arbitraries from valibot schemas by walking their public shape (type,
// entries, options, wrapped, item, pipe), so a fuzzer follows the contract as it changes.
// What it does not know becomes any JSON value: still a fair input to throw at a route.

type Node = {
  type: string;
  kind?: string;
  entries?: Record<string, Node>;
  options?: unknown[];
  wrapped?: Node;
  item?: Node;
  items?: Node[];
  key?: Node;
  value?: Node;
  literal?: unknown;
  enum?: Record<string, unknown>;
  pipe?: Node[];
  requirement?: unknown;
  getter?: () => Node;
};

/** A loopback address that refuses connections: no fuzzed call ever leaves this machine. */
export const LOOPBACK_URL = 'https://127.0.0.1:1/fuzz';

const actions = (schema: Node) => (schema.pipe ?? []).filter((a) => a.kind === 'validation' || a.kind === 'transformation');
const req = (schema: Node, type: string) => actions(schema).find((a) => a.type === type)?.requirement;

function stringArbitrary(schema: Node): fc.Arbitrary<string> {
  if (req(schema, 'email') !== undefined || actions(schema).some((a) => a.type === 'email')) return fc.emailAddress();
  if (actions(schema).some((a) => a.type === 'url')) return fc.constant(LOOPBACK_URL);
  if (actions(schema).some((a) => a.type === 'uuid')) return fc.uuid();
  if (actions(schema).some((a) => a.type === 'iso_date'))
    return fc
      .date({ min: new Date('2000-01-01'), max: new Date('2099-12-31'), noInvalidDate: true })
      .map((d) => d.toISOString().slice(0, 10));
  if (actions(schema).some((a) => a.type === 'iso_timestamp' || a.type === 'iso_date_time'))
    return fc.date({ noInvalidDate: true, min: new Date('2000-01-01'), max: new Date('2099-12-31') }).map((d) => d.toISOString());
  const regex = req(schema, 'regex');
  if (regex instanceof RegExp) {
    // fast-check cannot generate from every pattern (lookaheads): fall back to any text.
    try {
      return fc.stringMatching(regex, { size: 'small' });
    } catch {
      return fc.string({ maxLength: 40 });
    }
  }
  const min = Number(req(schema, 'min_length') ?? req(schema, 'length') ?? 0);
  const max = Number(req(schema, 'max_length') ?? req(schema, 'length') ?? Math.max(min, 40));
  return fc.string({ minLength: min, maxLength: Math.min(max, min + 200) });
}

function numberArbitrary(schema: Node): fc.Arbitrary<number> {
  const min = req(schema, 'min_value') as number | undefined;
  const max = req(schema, 'max_value') as number | undefined;
  if (actions(schema).some((a) => a.type === 'integer' || a.type === 'safe_integer')) {
    return fc.integer({ min: min ?? -1_000_000, max: max ?? 1_000_000 });
  }
  return fc.double({ min: min ?? -1e9, max: max ?? 1e9, noNaN: true });
}

/** Arbitrary of values the schema would (mostly) accept: the starting point for mutations. */
export function arbitraryOf(schema: Node, depth = 0): fc.Arbitrary<unknown> {
  if (depth > 8) return fc.constant(null);
  const next = (s: Node) => arbitraryOf(s, depth + 1);
  switch (schema.type) {
    case 'string':
      return stringArbitrary(schema);
    case 'number':
      return numberArbitrary(schema);
    case 'bigint':
      return fc.integer();
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'undefined':
    case 'void':
      return fc.constant(undefined);
    case 'date':
      return fc.date({ noInvalidDate: true }).map((d) => d.toISOString());
    case 'literal':
      return fc.constant(schema.literal);
    case 'picklist':
      return fc.constantFrom(...(schema.options as unknown[]));
    case 'enum':
      return fc.constantFrom(...Object.values(schema.enum ?? {}));
    case 'optional':
    case 'exact_optional':
    case 'undefinedable':
      return fc.option(next(schema.wrapped!), { nil: undefined });
    case 'nullable':
      return fc.option(next(schema.wrapped!), { nil: null });
    case 'nullish':
      return fc.oneof(fc.constant(null), fc.constant(undefined), next(schema.wrapped!));
    case 'non_optional':
    case 'non_nullable':
    case 'non_nullish':
      return next(schema.wrapped!);
    case 'lazy':
      return next(schema.getter!());
    case 'union':
    case 'variant':
      return fc.oneof(...(schema.options as Node[]).map(next));
    case 'array':
      return fc.array(next(schema.item!), { maxLength: 5 });
    case 'tuple':
    case 'strict_tuple':
    case 'loose_tuple':
      return fc.tuple(...schema.items!.map(next));
    case 'record':
      return fc.dictionary(fc.string({ maxLength: 10 }), next(schema.value!), { maxKeys: 4 });
    case 'object':
    case 'strict_object':
    case 'loose_object':
    case 'object_with_rest': {
      const entries = Object.entries(schema.entries ?? {});
      const record: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [key, value] of entries) record[key] = next(value);
      return fc.record(record);
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** Values no contract field wants: wrong types, extremes, hostile text. */
export const nastyValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(null, true, false, 0, -1, 1e308, -1e308, 2 ** 53 + 1, [], {}, '', ' ', '0', 'null', 'true', '[]'),
  fc.constantFrom('x'.repeat(100_000), 'é'.repeat(20_000)),
  fc.constantFrom(
    '\u0000',
    'a\u0000b',
    '\ud800',
    'x\udfffy',
    '\ufeff',
    '\u202e',
    '🙂'.repeat(50),
    '%00',
    '../../etc/passwd',
    "'; drop table admins; --",
  ),
  fc.constantFrom(
    '9999-99-99',
    '0000-00-00',
    '2024-02-30',
    '+275760-09-13T00:00:00.000Z',
    '-000001-01-01T00:00:00Z',
    'NaN',
    'Infinity',
    '1e999',
  ),
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.constantFrom(10, 100, 2000).map(deepNest),
  fc.jsonValue({ maxDepth: 3 }),
);

function deepNest(depth: number): unknown {
  let v: unknown = 'bottom';
  for (let i = 0; i < depth; i++) v = i % 2 ? [v] : { a: v };
  return v;
}

/**
 * Small corruptions of a valid string that keep most of it valid, so they get past the
 * validator and reach the code behind it: hostile characters inside, or every digit a 9
 * (2024-05-01 becomes 9999-99-99, an impossible date in an otherwise well-formed value).
 */
const corruptions: ((s: string) => string)[] = [
  (s) => `${s}\u0000`,
  (s) => `${s.slice(0, 1)}\ud800${s.slice(1)}`,
  (s) => `${s}\udfff`,
  (s) => s.replace(/\d/g, '9'),
  (s) => s.replace(/\d/g, '0'),
  (s) => `${s}${'\u0301'.repeat(500)}`,
];

/** Replaces the value at a random path (or the whole value) with a nasty one, or corrupts a string in place. */
export function mutated(valid: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  return fc
    .tuple(valid, nastyValue, fc.nat(), fc.boolean(), fc.nat({ max: corruptions.length * 2 - 1 }))
    .map(([value, nasty, pick, drop, how]) => {
      const corrupt = how < corruptions.length ? corruptions[how] : null;
      if (typeof value === 'string') return corrupt ? corrupt(value) : nasty;
      if (value === null || typeof value !== 'object') return nasty;
      const clone = structuredClone(value) as Record<string, unknown>;
      const paths: (string | number)[][] = [];
      const walk = (node: unknown, at: (string | number)[]) => {
        if (node === null || typeof node !== 'object' || at.length > 6) return;
        for (const [k, v] of Object.entries(node)) {
          const p = [...at, Array.isArray(node) ? Number(k) : k];
          paths.push(p);
          walk(v, p);
        }
      };
      walk(clone, []);
      if (!paths.length) return nasty;
      const path = paths[pick % paths.length];
      let parent = clone as Record<string | number, unknown>;
      for (const k of path.slice(0, -1)) parent = parent[k] as Record<string | number, unknown>;
      const last = path[path.length - 1];
      if (corrupt && typeof parent[last] === 'string') parent[last] = corrupt(parent[last] as string);
      else if (drop && !Array.isArray(parent)) delete parent[last];
      else parent[last] = nasty;
      return clone;
    });
}
