import { describe, expect, it } from 'vitest';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { fieldError, type FormField } from '../../../../api/contract/logic/e-form-rules';
import { MAX_PATTERN_PROGRAM, re2Patterns } from '../../../../api/contract/logic/e-form-pattern';

// An eForm pattern is admin input and the answer is anyone-with-the-link input: both hostile.
const field = (pattern: string): FormField => ({
  id: 'code',
  type: 'short_text',
  label: 'Code',
  required: true,
  validation: { pattern, patternMessage: 'Wrong format' },
});
const HOSTILE = 'a'.repeat(4999) + '!';

describe('eForm patterns run on a linear-time engine', () => {
  it('a nested repetition meets a 5,000-character answer and answers at once (a backtracking RegExp takes minutes at 41)', () => {
    const started = performance.now();
    expect(fieldError(field('(a+)+b'), HOSTILE, true, re2Patterns)).toBe('Wrong format');
    expect(fieldError(field('(a|aa)*c'), HOSTILE, true, re2Patterns)).toBe('Wrong format');
    expect(fieldError(field('(.*a){20}b'), HOSTILE, true, re2Patterns)).toBe('Wrong format');
    // a hang detector, not a speed target: the backtracking engine needs hours here
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('a pattern matches the whole answer, as it did before', () => {
    expect(fieldError(field('P-\\d{6}'), 'P-123456', true, re2Patterns)).toBeNull();
    expect(fieldError(field('P-\\d{6}'), 'xP-123456', true, re2Patterns)).toBe('Wrong format');
    expect(fieldError(field('a|b'), 'b', true, re2Patterns)).toBeNull();
    expect(fieldError(field('[\\p{L} ]+'), 'Hans Müller', true, re2Patterns)).toBeNull();
  });

  it('look-around and back-references are refused with a message that says why', () => {
    for (const p of ['(a)\\1', '(?=a)a', '(?!a)b', '(?<=a)b'])
      expect(re2Patterns.problem(p)).toMatch(/^The pattern cannot be used .*RE2 syntax, without look-around or back-references/);
    expect(re2Patterns.problem('[0-9]{5}')).toBeNull();
  });

  it('a pattern whose program is too large is refused, so the slowest match stays bounded', () => {
    expect(re2Patterns.problem('[\\s\\S]{1,1000}x')).toMatch(/too complex/);
    expect(re2Patterns.problem(`[a-z]{1,${Math.floor(MAX_PATTERN_PROGRAM / 4)}}`)).toBeNull();
  });

  it('a pattern the engine cannot run is not checked (never a crash): the form page warns instead', () => {
    expect(re2Patterns.matches('(a)\\1', 'aa')).toBeNull();
    expect(fieldError(field('(a)\\1'), 'anything', true, re2Patterns)).toBeNull();
  });

  it("the customer page never runs an admin's pattern: without an engine patterns wait for the server's check", async () => {
    expect(fieldError(field('(a+)+b'), HOSTILE, true)).toBeNull();
    const out = await build({
      entryPoints: ['src/customer-pages/e-form.ts'],
      bundle: true,
      minify: true,
      format: 'esm',
      write: false,
      logLevel: 'silent',
    });
    const js = out.outputFiles[0]!.text;
    expect(js).not.toMatch(/new RegExp|RegExp\(/);
    expect(gzipSync(js, { level: 9 }).length).toBeLessThan(10 * 1024);
  });
});
