import type { Role } from '../api/contract/common';
import { ACCOUNT_EXISTS } from '../api/contract/constants';
import { ApiError, UNEXPECTED_STATUS } from '../src/api/client';
import { decodeToken } from '../src/state/token';
import { hasRole } from '../src/state/roles';
import type { TokenResult } from './host';

// What a desktop host's sign-in shows, the same for Zoom and Webex: the console for an admin,
// the 'not yet authorized' card for anyone else the host vouches for, the server's words for
// any other refusal, and a plain 'An error occurred' when something broke.

export const GENERIC_ERROR = 'An error occurred';

/** A 4xx with a code from our API (not a proxy's or a crashed server's page). */
export function isClientRefusal(error: unknown): error is ApiError {
  return error instanceof ApiError && error.code !== UNEXPECTED_STATUS && error.status >= 400 && error.status < 500;
}

export function outcomeOfError(error: unknown): TokenResult {
  if (error instanceof ApiError && error.code === ACCOUNT_EXISTS) return { outcome: 'unauthorized' };
  if (isClientRefusal(error)) return { outcome: 'error', message: error.message };
  return { outcome: 'error', message: GENERIC_ERROR };
}

/** A session for an admin or owner; anyone else gets the card, keeping the token for agent actions. */
export function outcomeOfToken(token: string, role: Role | undefined = decodeToken(token)?.role): TokenResult {
  return hasRole(role, 'admin') ? { outcome: 'token', token, role } : { outcome: 'unauthorized', agentToken: token };
}
