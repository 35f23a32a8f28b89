import { describe, expect, it } from 'vitest';
import { compileGjsonPath, escapeKey, gjsonGet, gjsonPathProblem, renderTemplate } from '../../../../api/contract/logic/gjson';
import { parseRawJson } from '../../../../api/contract/logic/raw-json';

/** What a path finds in a document, as a plain value (undefined when GJSON says it does not exist). */
function value(document: unknown, path: string | ReturnType<typeof compileGjsonPath>): unknown {
  const result = gjsonGet(JSON.stringify(document), path);
  return result.exists ? JSON.parse(result.raw) : undefined;
}
const customer = (c: unknown) => parseRawJson(JSON.stringify(c));

// The example document and paths of GJSON's SYNTAX.md (github.com/tidwall/gjson).
const doc = {
  name: { first: 'Tom', last: 'Anderson' },
  age: 37,
  children: ['Sara', 'Alex', 'Jack'],
  'fav.movie': 'Deer Hunter',
  friends: [
    { first: 'Dale', last: 'Murphy', age: 44, nets: ['ig', 'fb', 'tw'] },
    { first: 'Roger', last: 'Craig', age: 68, nets: ['fb', 'tw'] },
    { first: 'Jane', last: 'Murphy', age: 47, nets: ['ig', 'tw'] },
  ],
};
const dale = doc.friends[0];
const jane = doc.friends[2];

describe('GJSON paths: the examples of GJSON SYNTAX.md', () => {
  it.each<[string, unknown]>([
    // Basic
    ['name.last', 'Anderson'],
    ['name.first', 'Tom'],
    ['age', 37],
    ['children', ['Sara', 'Alex', 'Jack']],
    ['children.0', 'Sara'],
    ['children.1', 'Alex'],
    ['friends.1', doc.friends[1]],
    ['friends.1.first', 'Roger'],
    // Wildcards
    ['child*.2', 'Jack'],
    ['c?ildren.0', 'Sara'],
    // Escape character
    ['fav\\.movie', 'Deer Hunter'],
    // Arrays
    ['friends.#', 3],
    ['friends.#.age', [44, 68, 47]],
    // Queries
    ['friends.#(last=="Murphy").first', 'Dale'],
    ['friends.#(last=="Murphy")#.first', ['Dale', 'Jane']],
    ['friends.#(age>45)#.last', ['Craig', 'Murphy']],
    ['friends.#(first%"D*").last', 'Murphy'],
    ['friends.#(first!%"D*").last', 'Craig'],
    ['children.#(!%"*a*")', 'Alex'],
    ['children.#(%"*a*")#', ['Sara', 'Jack']],
    ['friends.#(nets.#(=="fb"))#.first', ['Dale', 'Roger']],
    // Dot vs pipe
    ['friends.0.first', 'Dale'],
    ['friends|0.first', 'Dale'],
    ['friends.0|first', 'Dale'],
    ['friends|0|first', 'Dale'],
    ['friends|#', 3],
    ['friends.#', 3],
    ['friends.#(last="Murphy")#', [dale, jane]],
    ['friends.#(last="Murphy")#.first', ['Dale', 'Jane']],
    ['friends.#(last="Murphy")#|first', undefined],
    ['friends.#(last="Murphy")#.0', []],
    ['friends.#(last="Murphy")#|0', dale],
    ['friends.#(last="Murphy")#.#', []],
    ['friends.#(last="Murphy")#|#', 2],
  ])('%s', (path, expected) => {
    expect(value(doc, path)).toEqual(expected);
  });

  it.each([
    [
      'children.@pretty',
      'The modifier @pretty is not supported (only @this, @flatten, @reverse, @keys and @values); write \\@ for a key that starts with @.',
    ],
    ['children.[0]', 'Multipaths ({...} or [...]) are not supported.'],
    ['name.{first}', 'Multipaths ({...} or [...]) are not supported.'],
    ['!true', 'Literals (!...) are not supported.'],
    ['children.@reverse:{"x":1}', 'The modifier @reverse takes no argument here (only @flatten:{"deep":true}).'],
    ['{name.first,age}', 'Multipaths ({...} or [...]) are not supported.'],
    ['[name.first,age]', 'Multipaths ({...} or [...]) are not supported.'],
    ['..0', 'JSON Lines paths (..) are not supported.'],
    ['friends.#(last=="Murphy"', 'A query "#(" in the path is not closed with ")".'],
    ['name..first', 'The path has an empty component.'],
    ['name.', 'The path ends with a separator.'],
    ['', 'The path is empty.'],
  ])('refuses what it does not support: %s', (path, message) => {
    expect(gjsonPathProblem(path)).toBe(message);
  });
});

describe('GJSON paths: further behaviour', () => {
  it('~true and ~false queries compare what a value means', () => {
    const data = { xs: [{ b: true }, { b: 'yes' }, { b: '0' }, { b: 0 }, { b: null }, {}] };
    expect(value(data, 'xs.#(b==~true)#')).toEqual([{ b: true }]);
    expect(value(data, 'xs.#(b==~false)#')).toEqual([{ b: '0' }, { b: 0 }, { b: null }, {}]);
  });

  it('@this, @flatten, @reverse, @keys and @values answer as GJSON does', () => {
    const list = [[{ id: 1 }], [{ id: 2 }, [{ id: 3 }]]];
    expect(value(list, '@this')).toEqual(list);
    expect(value(list, '@flatten')).toEqual([{ id: 1 }, { id: 2 }, [{ id: 3 }]]);
    expect(value(list, '@flatten:{"deep":true}|#.id')).toEqual([1, 2, 3]);
    expect(value(doc, 'children.@reverse.0')).toBe('Jack');
    expect(value(doc.name, '@keys')).toEqual(['first', 'last']);
    expect(value(doc.name, '@values')).toEqual(['Tom', 'Anderson']);
  });

  it('a large integer comes back with every digit', () => {
    expect(gjsonGet('{"id":634866135153775564}', 'id')).toEqual({
      exists: true,
      type: 'Number',
      raw: '634866135153775564',
      str: '634866135153775564',
    });
    expect(renderTemplate('#{id}', parseRawJson('{"id":634866135153775564}'))).toBe('#634866135153775564');
  });

  it('a query compares numbers numerically and strings as strings', () => {
    const data = { xs: [{ n: 9 }, { n: 10 }, { n: '11' }] };
    expect(value(data, 'xs.#(n>9)#.n')).toEqual([10]);
    expect(value(data, 'xs.#(n=="11").n')).toBe('11');
  });

  it('an unquoted query value is taken as the word it spells', () => {
    expect(value(doc, 'friends.#(last==Craig).first')).toBe('Roger');
  });

  it('a missing path gives undefined, not an error', () => {
    expect(value(doc, 'nope.deeper')).toBeUndefined();
    expect(value(doc, 'age.0')).toBeUndefined();
    expect(value(doc, 'name.#')).toBeUndefined();
  });

  it('an escaped star is a literal star, not a wildcard', () => {
    expect(value({ 'a*': 1, ab: 2 }, 'a\\*')).toBe(1);
    expect(value({ ab: 2 }, 'a\\*')).toBeUndefined();
  });

  it('nested arrays: a customers array inside a result envelope', () => {
    const body = { data: { results: [{ customers: [{ id: 'c1' }, { id: 'c2' }] }] } };
    expect(value(body, 'data.results.0.customers.#.id')).toEqual(['c1', 'c2']);
    expect(value(body, 'data.results.#.customers.#.id')).toEqual([['c1', 'c2']]);
  });

  it('templates fill {path} from the customer and leave missing values empty', () => {
    const c = { name: { first: 'Ada', last: 'Lovelace' }, tier: 'gold', tags: ['a'] };
    expect(renderTemplate('{name.first} {name.last} ({tier})', customer(c))).toBe('Ada Lovelace (gold)');
    expect(renderTemplate('{missing}-{tags}', customer(c))).toBe('-["a"]');
    expect(renderTemplate('{{literal}}', customer(c))).toBe('{literal}');
  });
});

// Property tests with a seeded generator: reproducible, and each case prints its seed.
function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const ALPHABET = 'abcXYZ019 ._|*?\\#@()!=<>%"{}[],:-é';
function randomKey(r: () => number): string {
  const n = 1 + Math.floor(r() * 6);
  let k = '';
  for (let i = 0; i < n; i++) k += ALPHABET[Math.floor(r() * ALPHABET.length)];
  return k;
}
function randomScalar(r: () => number): unknown {
  const pick = Math.floor(r() * 4);
  return pick === 0 ? Math.floor(r() * 1000) : pick === 1 ? randomKey(r) : pick === 2 ? r() < 0.5 : null;
}
/** A random document together with the escaped path to one of its leaves and that leaf. */
function randomDocWithPath(r: () => number, depth: number): { doc: unknown; path: string[]; leaf: unknown } {
  if (depth === 0 || r() < 0.2) {
    const leaf = randomScalar(r);
    return { doc: leaf, path: [], leaf };
  }
  const inner = randomDocWithPath(r, depth - 1);
  if (r() < 0.5) {
    const size = 1 + Math.floor(r() * 4);
    const at = Math.floor(r() * size);
    const arr = Array.from({ length: size }, (_, i) => (i === at ? inner.doc : randomScalar(r)));
    return { doc: arr, path: [String(at), ...inner.path], leaf: inner.leaf };
  }
  const key = randomKey(r);
  const obj: Record<string, unknown> = {};
  for (let i = 0; i < Math.floor(r() * 3); i++) obj[randomKey(r) + 'x'] = randomScalar(r);
  obj[key] = inner.doc;
  return { doc: obj, path: [escapeKey(key), ...inner.path], leaf: inner.leaf };
}

describe('GJSON paths: properties', () => {
  it('an escaped path to any leaf finds exactly that leaf', () => {
    for (let seed = 1; seed <= 500; seed++) {
      const r = rng(seed);
      const { doc: d, path, leaf } = randomDocWithPath(r, 5);
      if (!path.length) continue;
      expect(value(d, path.join('.')), `seed ${seed}: ${path.join('.')}`).toEqual(leaf);
    }
  });

  it('# is the length, #.key maps, #(key==v)# filters, #(key==v) is the first match', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const r = rng(seed);
      const key = randomKey(r);
      const items = Array.from({ length: Math.floor(r() * 8) }, () =>
        r() < 0.8 ? { [key]: Math.floor(r() * 4) } : { other: 1 },
      );
      const ek = escapeKey(key);
      expect(value({ items }, 'items.#'), `seed ${seed}`).toBe(items.length);
      expect(value({ items }, `items.#.${ek}`), `seed ${seed}`).toEqual(
        items.filter((i) => key in i).map((i) => (i as Record<string, number>)[key]),
      );
      const wanted = Math.floor(r() * 4);
      const matching = items.filter((i) => (i as Record<string, number>)[key] === wanted);
      expect(value({ items }, `items.#(${ek}==${wanted})#`), `seed ${seed}`).toEqual(matching);
      expect(value({ items }, `items.#(${ek}==${wanted})`), `seed ${seed}`).toEqual(matching[0]);
    }
  });

  it('every path either compiles or is refused with a message, never anything else', () => {
    for (let seed = 1; seed <= 2000; seed++) {
      const r = rng(seed);
      let p = '';
      for (let i = 0; i < 1 + Math.floor(r() * 12); i++) p += ALPHABET[Math.floor(r() * ALPHABET.length)];
      const problem = gjsonPathProblem(p);
      if (problem === null) expect(() => value(doc, compileGjsonPath(p)), `seed ${seed}: ${p}`).not.toThrow();
      else expect(typeof problem).toBe('string');
    }
  });
});

describe('GJSON wildcards and % queries run in bounded time', () => {
  // the path is admin input and the value comes from an outside service: both hostile
  const long = 'a'.repeat(5000);
  const hostile = '*a'.repeat(12) + 'b';

  it('a key wildcard with many stars against a long key answers at once', () => {
    const started = performance.now();
    expect(gjsonGet(JSON.stringify({ [long]: 1 }), hostile).exists).toBe(false);
    expect(gjsonGet(JSON.stringify({ [long + 'b']: 1 }), hostile).raw).toBe('1');
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('a % query with many stars against a long value answers at once', () => {
    const started = performance.now();
    expect(value({ list: [{ v: long }, { v: long + 'b' }] }, `list.#(v%"${hostile}")#.v`)).toEqual([long + 'b']);
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('wildcards keep their meaning: ? is one character (not a line break), \\ escapes in % queries', () => {
    expect(value({ 'a*c': 1 }, 'a\\*c')).toBe(1);
    expect(value({ list: [{ v: 'a*c' }, { v: 'abc' }] }, 'list.#(v%"a\\\\*c")#.v')).toEqual(['a*c']);
    expect(value({ list: [{ v: 'a\nc' }, { v: 'abc' }] }, 'list.#(v%"a?c")#.v')).toEqual(['abc']);
    expect(value({ ab: 1 }, 'a?')).toBe(1);
  });
});
