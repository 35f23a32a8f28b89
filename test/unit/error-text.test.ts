import { describe, expect, it } from 'vitest';
import { errorText, logLine } from '../../api/http/error-text';

describe('error text', () => {
  it('an invalid header value quoted by the HTTP client is not repeated', () => {
    const err = new TypeError('Headers.append: "sk_live_abc\r\nX-Evil: 1" is an invalid header value.');
    expect(errorText(err)).toBe('Headers.append: a header value is not valid.');
  });

  it('known secrets are taken out, also one line of a multi-line secret', () => {
    expect(errorText('refused key dd-0123456789 for account', { secrets: ['dd-0123456789'] })).toBe(
      'refused key [redacted] for account',
    );
    expect(errorText('got "first-line-secret"', { secrets: ['first-line-secret\nsecond'] })).toBe('got "[redacted]"');
  });

  it('a URL keeps only where it points: no user, password, path or query', () => {
    expect(errorText('POST https://user:pa55@collectors.example.com/receiver/v1/http/TOKEN123?key=abc failed')).toBe(
      'POST https://collectors.example.com failed',
    );
  });

  it('control characters cannot forge lines', () => {
    expect(errorText('first\r\nSECOND LINE\u0000\u0085end')).toBe('first SECOND LINE end');
  });

  it('the deepest cause says why', () => {
    const err = new Error('fetch failed', { cause: new Error('connect ECONNREFUSED 10.0.0.1:443') });
    expect(errorText(err)).toBe('connect ECONNREFUSED 10.0.0.1:443');
  });

  it('a server log line keeps the stack frames but not the raw message', () => {
    const err = new Error('bad header "abc\ndef" is an invalid header value');
    const line = logLine('GET /api/x failed', err);
    expect(line.split('\n')[0]).toBe('GET /api/x failed: Error: bad header a header value is not valid');
    expect(line).toMatch(/\n\s+at /);
    expect(line).not.toContain('abc');
  });
});
