import { Application } from '@webex/embedded-app-sdk';
import type { TokenAnswer } from '../../api/contract/session';
import { createApi, type Api } from '../../src/api/client';
import type { Host, TokenResult } from '../host';
import { GENERIC_ERROR, isClientRefusal, outcomeOfError, outcomeOfToken } from '../outcome';
import { LazyUnauthorizedCard } from '../lazy-card';
import { defaultSleep, signInWithRetry, type Sleep } from '../retry';
import { isOutsideDesktopClient } from '../outside';

/** The part of the Webex embedded-app SDK (v2) the adapter uses. */
export type WebexApp = {
  onReady(): Promise<unknown>;
  listen(): Promise<unknown>;
  on(event: string, callback: (payload: unknown) => void): unknown;
  application: { states: { user: { token?: string | null } | null } };
};

/** onReady() never settles outside a Webex host. */
export const READY_TIMEOUT_MS = 10_000;
export const TOKEN_REFRESHED = 'application:tokenRefreshed';

export type WebexSignInOptions = {
  createApp?: () => WebexApp | Promise<WebexApp>;
  api?: Api;
  sleep?: Sleep;
  /** where the page runs; a plain browser tab gets the 'runs inside Webex' card, not a sign-in */
  outside?: () => boolean;
};

// The SDK stays in the first load: loaded later, its bridge never hears from the Webex client
// (hosts.test.ts, 'the webex entry, framed by the Webex web client'). Shimmed, it is ~11 KB gzip.
const createWebexApp = (): WebexApp => new Application() as unknown as WebexApp;

function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    promise.then(
      () => (clearTimeout(timer), resolve(true)),
      // SDK errors are numbers; a refusal here means no host state, which the token check covers
      () => (clearTimeout(timer), resolve(false)),
    );
  });
}

/**
 * Waits for the host, then posts the user's JWT to the API. A missing token, a network failure
 * or a 5xx is retried after 250 ms, 500 ms, 1 s ... up to a 16 s wait; a 4xx is final.
 */
export async function webexSignIn({
  createApp = createWebexApp,
  api = createApi({ getToken: () => null }),
  sleep = defaultSleep,
}: WebexSignInOptions = {}): Promise<TokenResult> {
  let app: WebexApp;
  try {
    app = await createApp();
  } catch {
    return { outcome: 'error', message: GENERIC_ERROR };
  }
  let refreshed: string | null = null;
  if (await settlesWithin(app.onReady(), READY_TIMEOUT_MS)) {
    // Webex replaces the token before it expires; a retry uses the newest one.
    app.listen().then(
      () => app.on(TOKEN_REFRESHED, (token) => (refreshed = typeof token === 'string' && token ? token : refreshed)),
      () => {},
    );
  }
  return signInWithRetry(async () => {
    const token = refreshed ?? app.application?.states?.user?.token ?? null;
    if (!token) return null;
    try {
      const answer = await api.post<TokenAnswer>('webex/authenticate', { accessToken: token });
      return outcomeOfToken(answer.token);
    } catch (error) {
      return isClientRefusal(error) ? outcomeOfError(error) : null;
    }
  }, sleep);
}

export function createWebexHost(options: WebexSignInOptions = {}): Host {
  return {
    kind: 'webex',
    embedded: true,
    basePath: '/webex',
    acquireToken: async () => ((options.outside ?? isOutsideDesktopClient)() ? { outcome: 'outside' } : webexSignIn(options)),
    UnauthorizedCard: LazyUnauthorizedCard,
  };
}
