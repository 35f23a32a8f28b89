import fs from 'node:fs';
import path from 'node:path';
import { ZOOM_CAPABILITIES } from '../hosts/zoom/capabilities';

// The Zoom app manifest and the Webex embedded-app registration are derived from PUBLIC_URL, the
// address the server is reached at, so the URLs registered with Zoom and Webex are the ones the
// build serves (/zoom/ and /webex/). `npm run manifests` writes them for the configured
// PUBLIC_URL; the committed *.example.json files are checked against this code by a test.

export const APP_NAME = 'Switchboard';
export const APP_DESCRIPTION =
  'The admin console of your customer-verification apps: dashboards, activity, configuration and account settings, inside your contact-centre client.';
export const EXAMPLE_PUBLIC_URL = 'https://console.switchboard.example';

export const ZOOM_HOME_PATH = '/zoom/';
export const WEBEX_START_PATH = '/webex/';

function origin(publicUrl: string): URL {
  const url = new URL(publicUrl);
  if (url.protocol !== 'https:') throw new Error(`PUBLIC_URL must be an https:// address for Zoom and Webex (got ${publicUrl})`);
  return url;
}

const join = (publicUrl: string, p: string) => publicUrl.replace(/\/$/, '') + p;

/** The body of Zoom's `PUT /marketplace/apps/{appId}/manifest` (a General app with Zoom Apps). */
export function zoomManifest(publicUrl: string) {
  const host = origin(publicUrl).host;
  const home = join(publicUrl, ZOOM_HOME_PATH);
  return {
    manifest: {
      display_information: { display_name: APP_NAME, description: APP_DESCRIPTION },
      oauth_information: {
        usage: 'USER_OPERATION',
        development_redirect_uri: home,
        production_redirect_uri: home,
        oauth_allow_list: [home],
        strict_mode: true,
        subdomain_strict_mode: true,
        // zoomapp:inmeeting lets the app open in the client; the user's e-mail is read by the
        // server-to-server app (user:read:user:admin), not through this one.
        scopes: [{ scope: 'zoomapp:inmeeting', optional: false }],
      },
      features: {
        products: ['ZOOM_MEETING', 'ZOOM_CONTACT_CENTER'],
        development_home_uri: home,
        production_home_uri: home,
        domain_allow_list: [{ domain: host, explanation: 'The Switchboard console and its API' }],
        in_client_feature: {
          zoom_app_api: { enable: true, zoom_app_apis: [...ZOOM_CAPABILITIES].sort() },
          guest_mode: { enable: false, enable_test_guest_mode: false },
          in_client_oauth: { enable: false },
          collaborate_mode: {
            enable: false,
            enable_screen_sharing: false,
            enable_play_together: false,
            enable_start_immediately: false,
            enable_join_immediately: false,
          },
        },
        zoom_client_support: {
          mobile: { enable: false },
          zoom_room: {
            enable: false,
            enable_personal_zoom_room: false,
            enable_shared_zoom_room: false,
            enable_digital_signage: false,
            enable_zoom_rooms_controller: false,
          },
          pwa_client: { enable: true },
        },
      },
    },
  };
}

/**
 * Webex registers embedded apps through a form (developer.webex.com > My Apps > Create a New App >
 * Embedded App); this file holds exactly what to enter, so the form matches the build.
 */
export function webexManifest(publicUrl: string) {
  const host = origin(publicUrl).host;
  return {
    $comment: 'Enter these values in the Webex developer portal: My Apps > Create a New App > Embedded App.',
    appName: APP_NAME,
    description: APP_DESCRIPTION,
    summary: 'Admin console for customer-verification apps',
    whereDoesYourAppWork: ['Meeting', 'Messaging', 'Sidebar'],
    validDomains: [host],
    startPageUrl: join(publicUrl, WEBEX_START_PATH),
    layoutPreference: 'Side panel',
  };
}

export const MANIFEST_FILES = { zoom: 'zoom-app.json', webex: 'webex-app.json' } as const;

export function writeManifests(publicUrl: string, dir: string): string[] {
  fs.mkdirSync(dir, { recursive: true });
  const written: string[] = [];
  for (const [file, body] of [
    [MANIFEST_FILES.zoom, zoomManifest(publicUrl)],
    [MANIFEST_FILES.webex, webexManifest(publicUrl)],
  ] as const) {
    const target = path.join(dir, file);
    fs.writeFileSync(target, JSON.stringify(body, null, 2) + '\n');
    written.push(target);
  }
  return written;
}
