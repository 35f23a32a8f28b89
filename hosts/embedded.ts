import { readInitialToken } from '../src/state/token';
import type { Host, HostKind } from './host';
import { UnauthorizedCard } from './UnauthorizedCard';

/**
 * An embedded host whose sign-in falls back to a sign-in link's or a stored token. The real
 * Zoom and Webex sign-in replaces acquireToken; without a token nothing is shown meanwhile.
 */
export function fallbackEmbeddedHost(kind: Exclude<HostKind, 'browser'>): Host {
  return {
    kind,
    embedded: true,
    basePath: `/${kind}`,
    async acquireToken() {
      const token = readInitialToken();
      return token ? { outcome: 'token', token } : { outcome: 'none' };
    },
    UnauthorizedCard,
  };
}
