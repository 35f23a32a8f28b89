import { describe, expect, it } from 'vitest';
import { compileGjsonPath, GjsonPathError, gjsonGet } from '../../../../api/contract/logic/gjson';
import { JsonSyntaxError, parseRawJson } from '../../../../api/contract/logic/raw-json';
import { readConformance } from '../../../support/conformance';

// Every Get call of tidwall/gjson's own test suite, with the answer the real GJSON gave. A case
// is either answered exactly as GJSON does or refused with a message (a path outside the
// supported subset, or a document that is not strict JSON, which GJSON reads leniently).
type Case = {
  id: number;
  source: string;
  json: string;
  path: string;
  expected: { exists: boolean; type: string; raw: string; str: string };
};
const data = readConformance<{ cases: Case[] }>('gjson-cases.json');

function outcome(c: Case): { refused: string } | { answer: unknown } {
  try {
    const doc = parseRawJson(c.json);
    return { answer: gjsonGet(doc, compileGjsonPath(c.path)) };
  } catch (err) {
    if (err instanceof GjsonPathError || err instanceof JsonSyntaxError) return { refused: err.message };
    throw err;
  }
}

describe.skipIf(!data)("GJSON paths: tidwall/gjson's own test cases", () => {
  const cases = data?.cases ?? [];

  it.each(cases.map((c) => [`#${c.id} ${c.path}`, c] as const))('%s gives GJSON’s answer or a clear refusal', (_, c) => {
    const got = outcome(c);
    if ('refused' in got) expect(got.refused).toMatch(/\w+ .*\./);
    else expect(got.answer).toEqual(c.expected);
  });

  it('answers at least the 239 cases inside the supported subset', () => {
    const answered = cases.filter((c) => 'answer' in outcome(c)).length;
    console.info(`GJSON conformance: ${answered} of ${cases.length} answered as GJSON does, ${cases.length - answered} refused.`);
    expect(answered).toBeGreaterThanOrEqual(239);
  });
});
