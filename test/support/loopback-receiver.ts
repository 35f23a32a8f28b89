import { beforeAll } from 'vitest';
import type { Config } from '../../api/config';
import { LOOPBACK_CERT, startPeer, type Peer } from '../api/peers';

/**
 * A TLS receiver on loopback for the surrounding describe block (webhook destinations, log
 * shipments), and the configuration that lets the server's outbound calls reach it: give
 * `overrides` to useTestContext. `receiver` stands for the peer started before the tests.
 */
export function useLoopbackReceiver(): { overrides: Partial<Config>; receiver: Peer } {
  const overrides: Partial<Config> = {};
  let peer: Peer | undefined;
  beforeAll(async () => {
    peer = await startPeer(undefined, { tls: true });
    overrides.outboundAllowHosts = [peer.host];
    overrides.outboundCa = LOOPBACK_CERT;
    return () => peer!.close();
  });
  const started = () => {
    if (!peer) throw new Error('the loopback receiver starts in beforeAll');
    return peer;
  };
  const receiver: Peer = {
    get url() {
      return started().url;
    },
    get host() {
      return started().host;
    },
    get port() {
      return started().port;
    },
    get received() {
      return started().received;
    },
    handle: (fn) => started().handle(fn),
    close: () => started().close(),
  };
  return { overrides, receiver };
}
