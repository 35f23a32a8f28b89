import { describe, expect, it } from 'vitest';
import { inlineParameters, isPlainRead, literal } from '../../api/db/one-message';

describe('parameters written into a statement', () => {
  it('replaces each placeholder by its value as a quoted literal', () => {
    expect(inlineParameters('select * from t where a = $1 and b = $2', ['x', 2])).toBe(
      "select * from t where a = E'x' and b = E'2'",
    );
  });

  it('escapes quotes and backslashes so a value can never end its string', () => {
    expect(literal("it's \\ here")).toBe("E'it''s \\\\ here'");
  });

  it('writes null as null and leaves $10 distinct from $1', () => {
    const params = Array.from({ length: 10 }, (_, i) => (i === 9 ? null : i));
    expect(inlineParameters('select $1, $10', params)).toBe("select E'0', null");
  });

  it('leaves placeholders inside strings, quoted names, dollar quotes and comments alone', () => {
    const text = `select '$1', E'\\'$1', "col$1", $$ $1 $$, $tag$ $1 $tag$, a$1 -- $1
      /* $1 /* $1 */ */ from t where x = $1`;
    expect(inlineParameters(text, ['v'])).toBe(text.replace(/x = \$1$/, "x = E'v'"));
  });

  it('refuses a statement that refers to a parameter it was not given', () => {
    expect(() => inlineParameters('select $2', ['only one'])).toThrow(/\$2/);
  });

  it('refuses a text with a NUL character (PostgreSQL cannot store one)', () => {
    expect(() => literal('a\0b')).toThrow(/NUL/);
  });

  it('writes dates, buffers, arrays and objects as the drivers send them', () => {
    expect(literal(new Date('2026-01-02T03:04:05.006Z'))).toBe("E'2026-01-02T03:04:05.006Z'");
    expect(literal(Buffer.from([0xde, 0xad]))).toBe("E'\\\\xdead'");
    expect(literal(['a"b', null, ['c']])).toBe(`E'{"a\\\\"b",NULL,{"c"}}'`);
    expect(literal({ a: "q'" })).toBe(`E'{"a":"q''"}'`);
  });
});

describe('which statements keep their meaning outside a transaction', () => {
  it('a plain select does', () => {
    expect(isPlainRead('select 1')).toBe(true);
    expect(isPlainRead('/* c */ (select 1) union (select 2)')).toBe(true);
  });

  it('writes, row locks and advisory locks do not', () => {
    for (const s of [
      'insert into t values (1)',
      'update t set a = 1',
      'delete from t',
      'with x as (delete from t returning *) select * from x',
      'select * from t for update',
      'select * from t for no key update skip locked',
      'select pg_advisory_xact_lock(1)',
      'begin',
    ]) {
      expect(isPlainRead(s), s).toBe(false);
    }
  });
});
