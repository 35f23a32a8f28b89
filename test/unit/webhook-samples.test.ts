import crypto from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { VERIFY_SAMPLES } from '../../src/pages/settings/developers/index';

// The samples on Settings > Developers are code customers paste: they must accept what the
// X-Signature scheme produces and refuse everything else.

const SECRET = 'whsec_test_secret';
const body = Buffer.from('{"id":"evt_1","type":"otp.verified"}');
const sign = (t: number, secret = SECRET) => crypto.createHmac('sha256', secret).update(`${t}.`).update(body).digest('hex');
const now = () => Math.floor(Date.now() / 1000);

function nodeVerifier(): (raw: Buffer, header: string, secret: string) => boolean {
  const source = VERIFY_SAMPLES.Node.replace(/^import .*$/m, '');
  return new Function('crypto', `${source}\nreturn isFromSwitchboard;`)(crypto);
}

function pythonVerifies(header: string): boolean {
  const script = `${VERIFY_SAMPLES.Python}\nimport sys\nprint(is_from_switchboard(sys.stdin.buffer.read(), sys.argv[1], sys.argv[2]))`;
  return execFileSync('python3', ['-c', script, header, SECRET], { input: body }).toString().trim() === 'True';
}

describe('webhook verification samples', () => {
  it('the Node sample accepts a fresh signature and the second v1 of a rotation', () => {
    const verify = nodeVerifier();
    const t = now();
    expect(verify(body, `t=${t},v1=${sign(t)}`, SECRET)).toBe(true);
    expect(verify(body, `t=${t},v1=${sign(t, 'whsec_old')},v1=${sign(t)}`, SECRET)).toBe(true);
  });

  it('the Node sample refuses a wrong key, a changed body and a stale timestamp', () => {
    const verify = nodeVerifier();
    const t = now();
    expect(verify(body, `t=${t},v1=${sign(t, 'whsec_other')}`, SECRET)).toBe(false);
    expect(verify(Buffer.from('{}'), `t=${t},v1=${sign(t)}`, SECRET)).toBe(false);
    expect(verify(body, `t=${t - 301},v1=${sign(t - 301)}`, SECRET)).toBe(false);
  });

  it('the Python sample accepts a fresh signature and refuses a stale one', () => {
    const t = now();
    expect(pythonVerifies(`t=${t},v1=${sign(t)}`)).toBe(true);
    expect(pythonVerifies(`t=${t - 301},v1=${sign(t - 301)}`)).toBe(false);
    expect(pythonVerifies(`t=${t},v1=${sign(t, 'whsec_other')}`)).toBe(false);
  });
});
