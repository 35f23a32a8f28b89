import { describe, expect, it } from 'vitest';
import { gjsonFind } from '../../../../api/contract/logic/gjson';
import { gjsonPathTo, nodeAt, templatePlaceholderTo, type JsonStep } from '../../../../api/contract/logic/lookup-paths';
import { parseRawJson, type JsonNode } from '../../../../api/contract/logic/raw-json';
import { readConformance } from '../../../support/conformance';

// The path an admin gets by clicking a value of the sample answer must find that very value
// again through the evaluator the lookup runs.

/** Every node of a document with the steps that reach it. */
function* walk(node: JsonNode, steps: JsonStep[] = []): Generator<{ node: JsonNode; steps: JsonStep[] }> {
  yield { node, steps };
  if (node.kind === 'array') for (const [i, item] of node.items.entries()) yield* walk(item, [...steps, i]);
  if (node.kind === 'object') for (const e of node.entries) yield* walk(e.value, [...steps, e.key]);
}

/** Why a node may have no path: an empty key, or a later duplicate of a key on its way. */
function unreachable(root: JsonNode, steps: JsonStep[]): boolean {
  let node: JsonNode | undefined = root;
  for (const step of steps) {
    if (step === '') return true;
    if (typeof step === 'string' && node?.kind === 'object' && node.entries.filter((e) => e.key === step).length > 1) return true;
    node = nodeAt(node!, [step]);
  }
  return false;
}

function expectRoundTrip(text: string) {
  const doc = parseRawJson(text);
  for (const { node, steps } of walk(doc)) {
    const path = gjsonPathTo(doc, steps, node);
    if (path === null) {
      expect(unreachable(doc, steps), `no path for ${JSON.stringify(steps)} in ${text}`).toBe(true);
      continue;
    }
    expect(gjsonFind(doc, path), `${path} in ${text}`).toBe(node);
    expect(nodeAt(doc, steps)).toBe(node);
  }
}

const SAMPLE = JSON.stringify({
  data: {
    results: [
      {
        customers: [
          {
            'ref.id': 'c-1',
            name: { first: 'Ada', 'last name': 'Lovelace' },
            'a|b': 1,
            'x*y?': true,
            '#': 2,
            '@odd': null,
            '(q)': 'p',
            'fav.movie': ['Heat', { 'k=v': 'z' }],
            10: 'ten',
            é: 'accent',
            '\\back': 'slash',
          },
        ],
      },
    ],
  },
  list: [[1, [2, [3]]], { '': 'empty key' }],
});

describe('the path to a clicked value', () => {
  it('finds every value of a nested document again, array indexes and escaped keys included', () => {
    expectRoundTrip(SAMPLE);
    const doc = parseRawJson(SAMPLE);
    const steps = ['data', 'results', 0, 'customers', 0, 'fav.movie', 1, 'k=v'];
    expect(gjsonPathTo(doc, steps, nodeAt(doc, steps)!)).toBe('data.results.0.customers.0.fav\\.movie.1.k\\=v');
  });

  it('names the whole answer @this when the customers are the answer itself', () => {
    const doc = parseRawJson('[{"id":1}]');
    expect(gjsonPathTo(doc, [], doc)).toBe('@this');
  });

  it('offers no path for an empty key or the second of two duplicate keys', () => {
    const doc = parseRawJson('{"a":1,"a":2,"":3}');
    expect(gjsonPathTo(doc, ['a'], (doc as Extract<JsonNode, { kind: 'object' }>).entries[1]!.value)).toBeNull();
    expect(gjsonPathTo(doc, [''], nodeAt(doc, [''])!)).toBeNull();
    expect(gjsonPathTo(doc, ['a'], nodeAt(doc, ['a'])!)).toBe('a');
  });

  it('makes a template placeholder that renders the clicked value, and none for keys with braces', () => {
    const doc = parseRawJson('{"name":{"first":"Ada"},"id":634866135153775564,"{x}":"b","t ":"s"}');
    expect(templatePlaceholderTo(doc, ['name', 'first'], nodeAt(doc, ['name', 'first'])!)).toBe('{name.first}');
    expect(templatePlaceholderTo(doc, ['id'], nodeAt(doc, ['id'])!)).toBe('{id}');
    expect(templatePlaceholderTo(doc, ['{x}'], nodeAt(doc, ['{x}'])!)).toBeNull();
    expect(templatePlaceholderTo(doc, ['t '], nodeAt(doc, ['t '])!)).toBeNull();
  });

  const data = readConformance<{ cases: { json: string }[] }>('gjson-cases.json');
  it.skipIf(!data)("finds every value of the documents in tidwall/gjson's test suite", () => {
    const docs = new Set(data!.cases.map((c) => c.json));
    let checked = 0;
    for (const text of docs) {
      try {
        parseRawJson(text);
      } catch {
        continue; // GJSON reads lenient JSON; the lookup only takes strict JSON
      }
      expectRoundTrip(text);
      checked++;
    }
    expect(checked).toBeGreaterThan(20);
  });
});
