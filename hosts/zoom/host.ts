import type zoomSdk from '@zoom/appssdk';
import type { ZoomLoginAnswer } from '../../api/contract/hosts';
import { createApi, type Api } from '../../src/api/client';
import type { Host, TokenResult } from '../host';
import { isClientRefusal, outcomeOfError, outcomeOfToken } from '../outcome';
import { LazyUnauthorizedCard } from '../lazy-card';
import { isOutsideDesktopClient } from '../outside';
import { defaultSleep, signInWithRetry, type Sleep } from '../retry';
import { ZOOM_CAPABILITIES, ZOOM_SDK_API_VERSION } from './capabilities';

/** The part of the Zoom Apps SDK the adapter uses. */
export type ZoomSdk = Pick<typeof zoomSdk, 'config' | 'getAppContext' | 'openUrl'>;

// The SDK object is a Proxy that answers every property, `then` included: awaiting it, returning
// it from an async function or passing it to Promise.resolve would treat it as a promise and
// hang. It is only ever called through, never awaited or returned.

/**
 * Configures the SDK, reads the encrypted app context and trades it for a session. Anything but
 * our API's refusal (the SDK not ready, no answer, a server fault) is tried again after 250 ms,
 * 500 ms, 1 s ... up to a 16 s wait, as Webex does; the SDK is configured once, the context read
 * afresh each time (it expires within minutes).
 */
export async function zoomSignIn(sdk: ZoomSdk, api: Api, sleep: Sleep = defaultSleep): Promise<TokenResult> {
  let configured = false;
  return signInWithRetry(async () => {
    try {
      if (!configured) {
        await sdk.config({ version: ZOOM_SDK_API_VERSION, capabilities: [...ZOOM_CAPABILITIES] });
        configured = true;
      }
      const { context } = await sdk.getAppContext();
      const answer = await api.post<ZoomLoginAnswer>('zoom/context', { context });
      // an agent session is no admin: the unauthorized card, whose Agent Preview uses the token
      return outcomeOfToken(answer.token, answer.role === 'agent' ? undefined : answer.role);
    } catch (error) {
      return isClientRefusal(error) ? outcomeOfError(error) : null;
    }
  }, sleep);
}

/**
 * The SDK in a box: it is a Proxy that answers `then`, so it never travels bare through a promise.
 * It loads when sign-in starts, not with the entry's first JS.
 */
type SdkBox = { sdk: ZoomSdk };
const loadZoomSdk = (): Promise<SdkBox> => import('@zoom/appssdk').then((m) => ({ sdk: m.default }));

export type ZoomHostOptions = {
  sleep?: Sleep;
  /** where the page runs; a plain browser tab gets the 'runs inside Zoom' card, not a sign-in */
  outside?: () => boolean;
};

export function createZoomHost(
  sdk?: ZoomSdk,
  api: Api = createApi({ getToken: () => null }),
  { sleep = defaultSleep, outside = isOutsideDesktopClient }: ZoomHostOptions = {},
): Host {
  let loading: Promise<SdkBox> | null = null;
  // once loaded (sign-in loads it), calls go straight through, inside the click that asked
  let loaded: SdkBox | null = sdk ? { sdk } : null;
  const load = () => (loading ??= loaded ? Promise.resolve(loaded) : loadZoomSdk().then((box) => (loaded = box)));
  return {
    kind: 'zoom',
    embedded: true,
    basePath: '/zoom',
    async acquireToken() {
      if (outside()) return { outcome: 'outside' };
      let box: SdkBox;
      try {
        box = await load();
      } catch (error) {
        loading = null;
        return outcomeOfError(error);
      }
      return zoomSignIn(box.sdk, api, sleep);
    },
    UnauthorizedCard: LazyUnauthorizedCard,
    links: {
      // Zoom's webview keeps links inside the app; openUrl hands the page to the system browser,
      // where the browser entry (served at the root) shows it after its own sign-in.
      openInBrowser(path: string) {
        const url = new URL(path, window.location.origin).href;
        const open = (box: SdkBox) => box.sdk.openUrl({ url });
        void (loaded ? open(loaded) : load().then(open)).catch(() => window.open(url, '_blank', 'noopener'));
      },
    },
  };
}
