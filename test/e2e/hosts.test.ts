import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext } from 'playwright-core';
import { launchBrowser, startServer } from './harness';
import { encryptZoomContext, startWebexPeer, startZoomPeer, zoomBridgeScript, zoomServerEnv, type WebexPeer, type ZoomPeer } from '../fixtures/host-peers';

// The zoom and webex entries in Chromium, each with the real SDK talking to a fake host: Zoom's
// native bridge (window.chrome.webview) injected into the page, and a Webex web client on a
// routed https://teams.webex.com page framing the webex entry. The server is configured with
// loopback stand-ins for Zoom's REST API and a Webex identity broker.

const ZOOM_APP_ID = 'e2e-zoom-app';
const ZOOM_SECRET = 'e2e-zoom-app-client-secret';
const WEBEX_APP_ID = 'e2e-webex-app';
const APP_ORIGIN = 'https://switchboard-e2e.test';

/** A Webex web client page framing the webex entry and answering the SDK's requests. */
function webexClientPage(token: string, src: string) {
  return `<!doctype html><html><body><iframe src="${src}" style="width:900px;height:700px"></iframe><script>
    window.addEventListener('message', (e) => {
      let msg; try { msg = JSON.parse(e.data); } catch { return; }
      if (!msg.requestId) return;
      const data = msg.request === 'application.initialize'
        ? { application: { displayContext: 'SIDEBAR', sdkVersion: '2.5.0', theme: 'LIGHT', user: { id: 'u1', orgId: 'o1', email: 'owner@acme.test', displayName: 'Olivia Owens', token: ${JSON.stringify(token)} } } }
        : {};
      e.source.postMessage(JSON.stringify({ requestId: msg.requestId, code: 0, data }), '*');
    });
  </script></body></html>`;
}

describe('embedded hosts in Chromium', () => {
  let zoom: ZoomPeer;
  let broker: WebexPeer;
  let server: Awaited<ReturnType<typeof startServer>>;
  let browser: Browser;
  let context: BrowserContext;

  beforeAll(async () => {
    zoom = await startZoomPeer([
      { id: 'z-owner', email: 'owner@acme.test', first_name: 'Olivia', last_name: 'Owens' },
      { id: 'z-super', email: 'supervisor@acme.test', first_name: 'Sam', last_name: 'Silva' },
    ]);
    broker = await startWebexPeer(WEBEX_APP_ID);
    server = await startServer({
      env: {
        ...zoomServerEnv(zoom, ZOOM_APP_ID, ZOOM_SECRET),
        WEBEX_APP_ID,
        WEBEX_ALLOWED_ISSUERS: broker.issuer,
      },
    });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await zoom?.close();
    await broker?.close();
  });

  const zoomContext = (uid: string) => encryptZoomContext({ typ: 'panel', uid, iss: 'marketplace.zoom.us', aud: ZOOM_APP_ID, ts: Date.now(), exp: Date.now() + 5 * 60_000 }, ZOOM_SECRET);

  it('the zoom entry signs in through the Zoom SDK and reaches the console, with the headers Zoom requires', async () => {
    context = await browser.newContext();
    const page = await context.newPage();
    await page.addInitScript(zoomBridgeScript(zoomContext('z-owner')));
    const response = await page.goto(`${server.url}/zoom/`);
    const headers = response!.headers();
    expect(headers['strict-transport-security']).toMatch(/max-age=/);
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['referrer-policy']).toBeTruthy();
    expect(headers['content-security-policy']).toContain("default-src 'self'");
    await page.getByRole('heading', { name: 'Welcome, Olivia' }).waitFor();
    const calls = (await page.evaluate('window.__zoomCalls')) as { apiName: string; data?: { version?: string; js_api_lists?: string[] } }[];
    expect(calls.map((c) => c.apiName).slice(0, 2)).toEqual(['config', 'getAppContext']);
    expect(calls[0]!.data).toMatchObject({ version: '0.16.0', js_api_lists: expect.arrayContaining(['getAppContext', 'openUrl']) });
    await context.close();
  });

  it("'Open in browser' on the Developers page in Zoom asks Zoom to open the browser console", async () => {
    context = await browser.newContext();
    const page = await context.newPage();
    await page.addInitScript(zoomBridgeScript(zoomContext('z-owner')));
    await page.goto(`${server.url}/zoom/settings/developers`);
    await page.getByRole('link', { name: 'Open in browser' }).click();
    await page.waitForFunction("window.__zoomCalls.some((c) => c.apiName === 'openUrl')");
    const calls = (await page.evaluate('window.__zoomCalls')) as { apiName: string; data?: { url?: string } }[];
    expect(calls.find((c) => c.apiName === 'openUrl')!.data!.url).toBe(`${server.url}/settings/developers`);
    await context.close();
  });

  it("a Zoom supervisor sees You're not yet authorized", async () => {
    context = await browser.newContext();
    const page = await context.newPage();
    await page.addInitScript(zoomBridgeScript(zoomContext('z-super')));
    await page.goto(`${server.url}/zoom/`);
    await page.getByRole('heading', { name: "You're not yet authorized" }).waitFor();
    await context.close();
  });

  for (const [entry, client] of [['zoom', 'Zoom'], ['webex', 'Webex']] as const) {
    it(`/${entry}/ opened in a plain browser tab says it runs inside ${client} and links to the browser console`, async () => {
      context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(`${server.url}/${entry}/`);
      await page.getByRole('heading', { name: `This page runs inside ${client}` }).waitFor();
      expect(await page.getByText('Sign-in failed').count()).toBe(0);
      await page.getByRole('link', { name: 'Open the console in this browser' }).click();
      await page.getByRole('heading', { name: 'Sign in' }).waitFor();
      expect(new URL(page.url()).pathname).toBe('/');
      await context.close();
    });
  }

  async function webexContext(parentOrigin: string) {
    const ctx = await browser.newContext();
    const token = await broker.sign({ email: 'owner@acme.test', name: 'Olivia Owens', email_verified: true });
    await ctx.route(`${parentOrigin}/**`, (route) => route.fulfill({ contentType: 'text/html', body: webexClientPage(token, `${APP_ORIGIN}/webex/`) }));
    // The app is served over https to the framing client: route that origin to the test server.
    await ctx.route(`${APP_ORIGIN}/**`, async (route) => {
      const url = new URL(route.request().url());
      // route.fetch waits for a whole body, which the live-updates stream never ends: the tab
      // does without it here (it falls back to polling), and what is still in flight when the
      // context closes is dropped rather than reported as an unhandled rejection.
      if (url.pathname === '/api/live') return route.abort().catch(() => {});
      try {
        const response = await route.fetch({ url: `${server.url}${url.pathname}${url.search}` });
        await route.fulfill({ response });
      } catch {
        await route.abort().catch(() => {});
      }
    });
    return ctx;
  }

  it('the webex entry, framed by the Webex web client, signs in through the Webex SDK and reaches the console', async () => {
    context = await webexContext('https://teams.webex.com');
    const page = await context.newPage();
    await page.goto('https://teams.webex.com/embedded');
    const frame = page.frameLocator('iframe');
    await frame.getByRole('heading', { name: 'Welcome, Olivia' }).waitFor({ timeout: 20_000 });
    await context.close();
  });

  it('the webex entry sends no X-Frame-Options and lets only Webex origins frame it', async () => {
    const res = await fetch(`${server.url}/webex/`);
    expect(res.headers.get('x-frame-options')).toBeNull();
    expect(res.headers.get('content-security-policy')).toMatch(/frame-ancestors 'self' https:\/\/\*\.webex\.com/);
    context = await webexContext('https://evil.example');
    const page = await context.newPage();
    await page.goto('https://evil.example/embedded');
    const child = await page.waitForFunction(() => document.querySelector('iframe') !== null);
    await child.dispose();
    // Chromium refuses to render a frame its CSP forbids and shows its error page instead
    const frameUrl = () => page.frames().find((f) => f !== page.mainFrame())?.url() ?? '';
    await expect.poll(frameUrl, { timeout: 10_000, interval: 50 }).toMatch(/^chrome-error:/);
    await context.close();
  });
});
