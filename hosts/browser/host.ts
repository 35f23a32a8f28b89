import { lazy } from 'react';
import { readInitialToken } from '../../src/state/token';
import type { Host } from '../host';

/** A normal browser: the token comes from a sign-in link or storage; without one, sign-in shows. */
export const browserHost: Host = {
  kind: 'browser',
  embedded: false,
  basePath: '',
  async acquireToken() {
    const token = readInitialToken();
    return token ? { outcome: 'token', token } : { outcome: 'none' };
  },
  // A browser sign-in never answers 'unauthorized', so the card stays out of the first load.
  UnauthorizedCard: lazy(() => import('../UnauthorizedCard').then((m) => ({ default: m.UnauthorizedCard }))),
};
