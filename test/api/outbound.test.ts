import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OutboundError, outboundFetch, refusedAddressReason } from '../../api/integrations/outbound';
import { startPeer, type Peer } from './peers';

async function refusal(p: Promise<unknown>): Promise<OutboundError> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(OutboundError);
    return err as OutboundError;
  }
  throw new Error('the call was not refused');
}

describe('outbound HTTP', () => {
  let peer: Peer;
  let other: Peer;
  beforeAll(async () => {
    peer = await startPeer((req, res) => {
      if (req.path === '/big') return void res.end(Buffer.alloc(2 * 1024 * 1024, 120));
      if (req.path === '/slow') return; // never answers
      if (req.path === '/to-private') return void res.writeHead(302, { location: `${other.url}/secret` }).end();
      if (req.path === '/to-metadata')
        return void res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
      if (req.path === '/to-self') return void res.writeHead(307, { location: '/hello' }).end();
      res.end(`hello ${req.method}`);
    });
    other = await startPeer((_req, res) => res.end('internal secret'));
  });
  afterAll(async () => {
    await peer.close();
    await other.close();
  });

  const allow = () => ({ allowHosts: [peer.host] });

  it('an allowlisted loopback peer can be called', async () => {
    const res = await outboundFetch(`${peer.url}/hello`, {}, allow());
    expect(res.status).toBe(200);
    expect(res.text()).toBe('hello GET');
  });

  it('a header value the HTTP client refuses is never quoted in the error', async () => {
    const err = await refusal(
      outboundFetch(`${peer.url}/hello`, { headers: { authorization: 'Bearer sk_live_secret\r\nX-Evil: 1' } }, allow()),
    );
    expect(err.code).toBe('NETWORK_ERROR');
    expect(err.message).not.toContain('sk_live_secret');
    expect(err.message).not.toMatch(/[\r\n]/);
  });

  it('plain http to a public host is refused (https only)', async () => {
    const err = await refusal(outboundFetch('http://example.com/', {}, {}));
    expect(err.code).toBe('TARGET_NOT_ALLOWED');
  });

  it.each([
    'https://127.0.0.1/',
    'https://[::ffff:127.0.0.1]/',
    'https://[::1]/',
    'https://10.0.0.8/',
    'https://192.168.1.1/',
    'https://172.16.5.5/',
    'https://100.64.1.1/',
    'https://169.254.169.254/latest/meta-data/',
    'https://[fd00:ec2::254]/',
    'https://[fe80::1]/',
    'https://0.0.0.0/',
    'https://2130706433/',
    'https://[::127.0.0.1]/',
    'https://[::a9fe:a9fe]/latest/meta-data/',
    'https://[::]/',
    'https://[2002:7f00:1::]/',
    'https://[2002:a9fe:a9fe::1]/',
    'https://[2001:0:4136:e378:8000:63bf:80ff:fffe]/',
    'https://[64:ff9b::a00:1]/',
    'https://[64:ff9b:1::7f00:1]/',
    'https://[ff02::1]/',
    'https://[2001:db8::1]/',
    'https://[3fff::1]/',
    'https://[100::1]/',
    'https://[fec0::1]/',
    'https://[4000::1]/',
  ])('a literal non-public address is refused: %s', async (url) => {
    const err = await refusal(outboundFetch(url, {}, {}));
    expect(err.code).toBe('TARGET_NOT_ALLOWED');
  });

  it('the loopback peer itself is refused without the allowlist', async () => {
    const err = await refusal(outboundFetch(`${peer.url}/hello`, {}, {}));
    expect(err.code).toBe('TARGET_NOT_ALLOWED');
    expect(peer.received.some((r) => r.path === '/hello' && r.headers['x-probe'])).toBe(false);
  });

  it('a name that resolves to a private address is refused at connect time', async () => {
    const before = other.received.length;
    const err = await refusal(
      outboundFetch('https://innocent.example/', {}, { lookup: async () => [{ address: '127.0.0.1', family: 4 }] }),
    );
    expect(err.code).toBe('TARGET_NOT_ALLOWED');
    expect(err.message).toContain('127.0.0.1');
    expect(other.received.length).toBe(before);
  });

  it('a name with one public and one private address is refused', async () => {
    const err = await refusal(
      outboundFetch(
        'https://mixed.example/',
        {},
        {
          lookup: async () => [
            { address: '93.184.216.34', family: 4 },
            { address: '10.1.2.3', family: 4 },
          ],
        },
      ),
    );
    expect(err.code).toBe('TARGET_NOT_ALLOWED');
  });

  it('the socket goes to the address that was checked (DNS pinned through our lookup)', async () => {
    const res = await outboundFetch(
      `http://peer.example:${peer.port}/hello`,
      {},
      {
        allowHosts: [`peer.example:${peer.port}`],
        lookup: async (name) => (name === 'peer.example' ? [{ address: '127.0.0.1', family: 4 }] : []),
      },
    );
    expect(res.text()).toBe('hello GET');
    expect(peer.received.at(-1)?.headers.host).toBe(`peer.example:${peer.port}`);
  });

  it('a redirect is an error by default', async () => {
    const err = await refusal(outboundFetch(`${peer.url}/to-self`, {}, allow()));
    expect(err.code).toBe('TOO_MANY_REDIRECTS');
  });

  it('a redirect to a private address is refused even when redirects are followed', async () => {
    const before = other.received.length;
    const err = await refusal(outboundFetch(`${peer.url}/to-private`, {}, { ...allow(), maxRedirects: 3 }));
    expect(err.code).toBe('TARGET_NOT_ALLOWED');
    expect(other.received.length).toBe(before);
    const meta = await refusal(outboundFetch(`${peer.url}/to-metadata`, {}, { ...allow(), maxRedirects: 3 }));
    expect(meta.code).toBe('TARGET_NOT_ALLOWED');
  });

  it('a redirect to an admitted address is followed when allowed', async () => {
    const res = await outboundFetch(`${peer.url}/to-self`, { method: 'POST', body: 'x' }, { ...allow(), maxRedirects: 1 });
    expect(res.text()).toBe('hello POST');
  });

  it('a response larger than the cap is cut off', async () => {
    const err = await refusal(outboundFetch(`${peer.url}/big`, {}, { ...allow(), maxBytes: 64 * 1024 }));
    expect(err.code).toBe('RESPONSE_TOO_LARGE');
  });

  it('a peer that never answers times out instead of hanging', async () => {
    const started = Date.now();
    const err = await refusal(outboundFetch(`${peer.url}/slow`, {}, { ...allow(), timeoutMs: 300 }));
    expect(err.code).toBe('TIMEOUT');
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('classifies addresses: only public unicast passes', () => {
    expect(refusedAddressReason('8.8.8.8')).toBeNull();
    expect(refusedAddressReason('2606:4700:4700::1111')).toBeNull();
    expect(refusedAddressReason('::ffff:8.8.8.8')).not.toBeNull();
    expect(refusedAddressReason('64:ff9b::7f00:1')).not.toBeNull();
    expect(refusedAddressReason('198.18.0.1')).not.toBeNull();
  });

  it.each([
    ['::7f00:1', 'embeds 127.0.0.1, a loopback address'],
    ['::a9fe:a9fe', 'embeds 169.254.169.254, a linkLocal address'],
    ['2002:c0a8:101::1', 'embeds 192.168.1.1, a private address'],
    ['2001:0:4136:e378:8000:63bf:f5ff:fffe', 'embeds 10.0.0.1, a private address'],
    ['64:ff9b::a00:1', 'embeds 10.0.0.1, a private address'],
    ['::808:808', 'embeds the IPv4 address 8.8.8.8'],
    ['fd00::1', 'is a uniqueLocal address'],
    ['5f00::1', 'is a segmentRouting address'],
    ['4000::1', 'is not a global unicast address'],
  ])('an IPv6 address %s is refused because it %s', (address, reason) => {
    expect(refusedAddressReason(address)).toBe(reason);
  });
});
