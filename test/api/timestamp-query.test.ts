import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { queryNonce, timestampQuery } from '../../api/apps/document-signature/pades/timestamp';

// The RFC 3161 query the seal sends, read by a strict parser that is not ours (Debian's
// `openssl ts -query`, as the loopback TSA's `openssl ts -reply` reads it): whatever random bytes
// its nonce starts from, the query is one OpenSSL accepts and the nonce is the one it reads.

/** What `openssl ts -query -text` reads of a query: its nonce, or the error it refuses it with. */
function opensslNonce(query: Buffer): bigint | string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tsq-'));
  try {
    fs.writeFileSync(path.join(dir, 'q.tsq'), query);
    const text = execFileSync('openssl', ['ts', '-query', '-in', path.join(dir, 'q.tsq'), '-text'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    return BigInt(/Nonce: (0x[0-9A-Fa-f]+)/.exec(text)![1]!);
  } catch (err) {
    return String((err as { stderr?: string }).stderr ?? err);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe('the time-stamp query', () => {
  it('a nonce from random bytes that start with 0x00 or 0x80 and then a byte below 0x80 is still a query OpenSSL accepts (not a padded INTEGER)', () => {
    const imprint = crypto.createHash('sha256').update('signature value').digest();
    for (const first of [0x00, 0x80, 0x7f, 0xff, 0x01]) {
      const nonce = queryNonce(Buffer.from([first, 0x05, 1, 2, 3, 4, 5, 6]));
      expect(opensslNonce(timestampQuery(imprint, nonce)), `first byte ${first}`).toBe(BigInt(`0x${nonce.toString('hex')}`));
    }
  });

  it('the bytes as they were (0x00 then 0x05) are the query OpenSSL refuses', () => {
    const imprint = crypto.createHash('sha256').update('signature value').digest();
    expect(opensslNonce(timestampQuery(imprint, Buffer.from([0x00, 0x05, 1, 2, 3, 4, 5, 6])))).toMatch(/illegal padding/);
  });
});
