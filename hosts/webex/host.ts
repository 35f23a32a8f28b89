import { Application } from '@webex/embedded-app-sdk';
import type { TokenAnswer } from '../../api/contract/session';
import { createApi, type Api } from '../../src/api/client';
import type { Host, TokenResult } from '../host';
import { GENERIC_ERROR, isClientRefusal, outcomeOfError, outcomeOfToken } from '../outcome';
import { LazyUnauthorizedCard } from '../lazy-card';

/** The part of the Webex embedded-app SDK (v2) the adapter uses. */
export type WebexApp = {
  onReady(): Promise<unknown>;
  listen(): Promise<unknown>;
  on(event: string, callback: (payload: unknown) => void): unknown;
  application: { states: { user: { token?: string | null } | null } };
};

/** Back-off between attempts: 250 ms, doubling, the last wait 16 s. */
export const RETRY_FIRST_MS = 250;
export const RETRY_LAST_MS = 16_000;
/** onReady() never settles outside a Webex host. */
export const READY_TIMEOUT_MS = 10_000;
export const TOKEN_REFRESHED = 'application:tokenRefreshed';

export type WebexSignInOptions = {
  createApp?: () => WebexApp | Promise<WebexApp>;
  api?: Api;
  sleep?: (ms: number) => Promise<void>;
};

// The SDK stays in the first load: loaded later, its bridge never hears from the Webex client
// (hosts.test.ts, 'the webex entry, framed by the Webex web client'). Shimmed, it is ~11 KB gzip.
const createWebexApp = (): WebexApp => new Application() as unknown as WebexApp;

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

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
export async function webexSignIn({ createApp = createWebexApp, api = createApi({ getToken: () => null }), sleep = defaultSleep }: WebexSignInOptions = {}): Promise<TokenResult> {
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
  for (let wait = RETRY_FIRST_MS; ; wait *= 2) {
    const token = refreshed ?? app.application?.states?.user?.token ?? null;
    if (token) {
      try {
        const answer = await api.post<TokenAnswer>('webex/authenticate', { accessToken: token });
        return outcomeOfToken(answer.token);
      } catch (error) {
        if (isClientRefusal(error)) return outcomeOfError(error);
      }
    }
    if (wait > RETRY_LAST_MS) return { outcome: 'error', message: GENERIC_ERROR };
    await sleep(wait);
  }
}

export function createWebexHost(options: WebexSignInOptions = {}): Host {
  return {
    kind: 'webex',
    embedded: true,
    basePath: '/webex',
    acquireToken: () => webexSignIn(options),
    UnauthorizedCard: LazyUnauthorizedCard,
  };
}
