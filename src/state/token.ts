import type { TokenPayload } from '../../api/contract/session';

const STORAGE_KEY = 'switchboard.token';

export function readStoredToken(): string | null {
  try {
    return localStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}

export function storeToken(token: string | null): void {
  try {
    if (token) localStorage.setItem(STORAGE_KEY, token);
    else localStorage.removeItem(STORAGE_KEY);
  } catch {
    // Storage can be unavailable (private windows, locked-down embedded hosts): the session
    // then lasts as long as the page.
  }
}

/**
 * The `token` query parameter (a sign-in link), removed from the address bar so it is not
 * bookmarked, shared or left in history.
 */
export function takeTokenFromUrl(): string | null {
  const url = new URL(window.location.href);
  const token = url.searchParams.get('token');
  if (token === null) return null;
  url.searchParams.delete('token');
  window.history.replaceState(window.history.state, '', url.pathname + url.search + url.hash);
  return token || null;
}

/** The session token a page starts with: a sign-in link's token first, else the stored one. */
export function readInitialToken(): string | null {
  return takeTokenFromUrl() ?? readStoredToken();
}

function readPayload(token: string): Record<string, unknown> | null {
  try {
    const part = token.split('.')[1];
    if (!part) return null;
    const base64 = part
      .replace(/-/g, '+')
      .replace(/_/g, '/')
      .padEnd(Math.ceil(part.length / 4) * 4, '=');
    const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
    const payload: unknown = JSON.parse(new TextDecoder().decode(bytes));
    return typeof payload === 'object' && payload !== null ? (payload as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** Reads the payload without verifying it (the API verifies); null when it isn't a session token. */
export function decodeToken(token: string | null): TokenPayload | null {
  const payload = token ? (readPayload(token) as Partial<TokenPayload> | null) : null;
  if (!payload || typeof payload.sub !== 'string' || typeof payload.acc !== 'string') return null;
  return { ...payload, ghost: payload.ghost === true, root: payload.root === true } as TokenPayload;
}

/** An agent session (role 'agent'): it runs app actions only, never the console. */
export function isAgentToken(token: string): boolean {
  return readPayload(token)?.role === 'agent';
}
