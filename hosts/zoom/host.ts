import zoomSdk from '@zoom/appssdk';
import type { ZoomLoginAnswer } from '../../api/contract/hosts';
import { createApi, type Api } from '../../src/api/client';
import type { Host } from '../host';
import { outcomeOfError, outcomeOfToken } from '../outcome';
import { UnauthorizedCard } from '../UnauthorizedCard';
import { ZOOM_CAPABILITIES, ZOOM_SDK_API_VERSION } from './capabilities';

/** The part of the Zoom Apps SDK the adapter uses. */
export type ZoomSdk = Pick<typeof zoomSdk, 'config' | 'getAppContext' | 'openUrl'>;

// The SDK object is a Proxy that answers every property, `then` included: awaiting it, returning
// it from an async function or passing it to Promise.resolve would treat it as a promise and
// hang. It is only ever called through, never awaited or returned.

/** Configures the SDK, reads the encrypted app context and trades it for a session. */
export async function zoomSignIn(sdk: ZoomSdk, api: Api) {
  try {
    await sdk.config({ version: ZOOM_SDK_API_VERSION, capabilities: [...ZOOM_CAPABILITIES] });
    const { context } = await sdk.getAppContext();
    const answer = await api.post<ZoomLoginAnswer>('zoom/context', { context });
    // an agent session is no admin: the unauthorized card, whose Agent Preview uses the token
    return outcomeOfToken(answer.token, answer.role === 'agent' ? undefined : answer.role);
  } catch (error) {
    return outcomeOfError(error);
  }
}

export function createZoomHost(sdk: ZoomSdk = zoomSdk, api: Api = createApi({ getToken: () => null })): Host {
  return {
    kind: 'zoom',
    embedded: true,
    basePath: '/zoom',
    acquireToken: () => zoomSignIn(sdk, api),
    UnauthorizedCard,
    links: {
      // Zoom's webview keeps links inside the app; openUrl hands the page to the system browser,
      // where the browser entry (served at the root) shows it after its own sign-in.
      openInBrowser(path: string) {
        void sdk.openUrl({ url: new URL(path, window.location.origin).href }).catch(() => window.open(new URL(path, window.location.origin).href, '_blank', 'noopener'));
      },
    },
  };
}
