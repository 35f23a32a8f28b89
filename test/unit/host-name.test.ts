import { describe, expect, it } from 'vitest';
import { hostName } from '../../api/http/host';

describe('a Host header is one host name however it is written', () => {
  it.each([
    ['acme.example', 'acme.example'],
    ['acme.example.', 'acme.example'],
    ['ACME.Example', 'acme.example'],
    ['acme.example:8443', 'acme.example'],
    ['acme.example.:443', 'acme.example'],
    ['[::1]:3000', '[::1]'],
    ['bücher.example', 'xn--bcher-kva.example'],
  ])('%s is %s', (header, name) => expect(hostName(header)).toBe(name));

  it.each(['', 'a b', 'acme.example/path', 'user@acme.example', 'acme.example:99999'])('%j is not a host', (header) =>
    expect(hostName(header)).toBeNull(),
  );
});
