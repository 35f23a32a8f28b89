import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Request } from 'playwright-core';
import { launchBrowser, pickChoice, startServer } from './harness';
import {
  encryptZoomContext,
  startWebexPeer,
  startZoomPeer,
  zoomBridgeScript,
  zoomServerEnv,
  type WebexPeer,
  type ZoomPeer,
} from '../fixtures/host-peers';
import { selfSignedCertificate, startTlsFront, type TlsFront } from '../support/tls-front';

// The zoom and webex entries in Chromium, each with the real SDK talking to a fake host: Zoom's
// native bridge (window.chrome.webview) injected into the page, and a Webex web client on a
// routed https://teams.webex.com page framing the webex entry, served over https by a loopback TLS
// front. The server is configured with loopback stand-ins for Zoom's REST API and a Webex
// identity broker. In both webviews the live-updates stream opens (fetch with the session in a
// header) and what changes elsewhere shows without a reload.

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
  /** https for the app's origin (passed on to the server) and for the framing client's pages */
  let front: TlsFront;
  let client: TlsFront;
  let clientPage = '';
  let browser: Browser;
  let context: BrowserContext;
  let ownerToken: string;

  /** a call to the API as the account's owner (outside any webview: the change made elsewhere) */
  const asOwner = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${server.url}/api${path}`, {
      method,
      headers: { authorization: `Bearer ${ownerToken}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json().catch(() => null)) as unknown };
  };
  /** The live stream's requests a context made: the session went in a header, never in the address. */
  const liveRequests = (ctx: BrowserContext) => {
    const seen: Request[] = [];
    ctx.on('request', (r) => new URL(r.url()).pathname.endsWith('/api/live') && seen.push(r));
    return seen;
  };
  /** Checks each went with a bearer token in its header and nothing in its address; answers the tokens' payloads. */
  const headerNotAddress = async (streams: Request[]) => {
    expect(streams.length).toBeGreaterThanOrEqual(1);
    const payloads: { role: string; email: string }[] = [];
    for (const r of streams) {
      expect(new URL(r.url()).search).toBe('');
      const auth = (await r.allHeaders()).authorization ?? '';
      expect(auth).toMatch(/^Bearer [\w-]+\.[\w-]+\.[\w-]+$/);
      payloads.push(JSON.parse(Buffer.from(auth.split('.')[1]!, 'base64url').toString()));
    }
    return payloads;
  };

  beforeAll(async () => {
    zoom = await startZoomPeer([
      { id: 'z-owner', email: 'owner@acme.test', first_name: 'Olivia', last_name: 'Owens' },
      { id: 'z-super', email: 'supervisor@acme.test', first_name: 'Sam', last_name: 'Silva' },
      // no admin of any account, but of acme's company domain: an agent session
      { id: 'z-agent', email: 'alex.agent@acme.test', first_name: 'Alex', last_name: 'Agent' },
    ]);
    broker = await startWebexPeer(WEBEX_APP_ID);
    server = await startServer({
      env: {
        ...zoomServerEnv(zoom, ZOOM_APP_ID, ZOOM_SECRET),
        WEBEX_APP_ID,
        WEBEX_ALLOWED_ISSUERS: broker.issuer,
      },
      linkFor: ['owner@acme.test'],
    });
    ownerToken = new URL(server.links['owner@acme.test']!).searchParams.get('token')!;
    expect((await asOwner('POST', '/sms', { provider: 'dev-outbox' })).status).toBe(200);
    const credentials = selfSignedCertificate([new URL(APP_ORIGIN).hostname, 'teams.webex.com', 'evil.example']);
    front = await startTlsFront(Number(new URL(server.url).port), credentials);
    client = await startTlsFront((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(clientPage), credentials);
    // The Webex client's origins and the app's https origin resolve to the loopback fronts (the
    // browser's own resolver, so every origin is what a real one would be, and loopback pages may
    // reach loopback servers).
    const host = (name: string, to: TlsFront) => `MAP ${name} 127.0.0.1:${to.port}`;
    browser = await launchBrowser([
      `--host-resolver-rules=${[host(new URL(APP_ORIGIN).hostname, front), host('teams.webex.com', client), host('evil.example', client)].join(',')}`,
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await front?.close();
    await client?.close();
    await server?.stop();
    await zoom?.close();
    await broker?.close();
  });

  const zoomContext = (uid: string) =>
    encryptZoomContext(
      { typ: 'panel', uid, iss: 'marketplace.zoom.us', aud: ZOOM_APP_ID, ts: Date.now(), exp: Date.now() + 5 * 60_000 },
      ZOOM_SECRET,
    );

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
    const calls = (await page.evaluate('window.__zoomCalls')) as {
      apiName: string;
      data?: { version?: string; js_api_lists?: string[] };
    }[];
    expect(calls.map((c) => c.apiName).slice(0, 2)).toEqual(['config', 'getAppContext']);
    expect(calls[0]!.data).toMatchObject({
      version: '0.16.0',
      js_api_lists: expect.arrayContaining(['getAppContext', 'openUrl']),
    });
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

  for (const [entry, client] of [
    ['zoom', 'Zoom'],
    ['webex', 'Webex'],
  ] as const) {
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

  /** A context whose Webex client page (any of its origins) frames the app at `path`. */
  async function webexContext(path = '/webex/', email = 'owner@acme.test', name = 'Olivia Owens') {
    // Both origins are served over https by loopback fronts with their own (self-signed)
    // certificate: the framing client's page, and the app through a TLS front before the test
    // server, so answers, the never-ending live stream among them, arrive as they are sent.
    const ctx = await browser.newContext({ ignoreHTTPSErrors: true });
    const token = await broker.sign({ email, name, email_verified: true });
    clientPage = webexClientPage(token, `${APP_ORIGIN}${path}`);
    return ctx;
  }

  it('the webex entry, framed by the Webex web client, signs in through the Webex SDK and reaches the console', async () => {
    context = await webexContext();
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
    context = await webexContext();
    const page = await context.newPage();
    await page.goto('https://evil.example/embedded');
    const child = await page.waitForFunction(() => document.querySelector('iframe') !== null);
    await child.dispose();
    // Chromium refuses to render a frame its CSP forbids and shows its error page instead
    const frameUrl = () =>
      page
        .frames()
        .find((f) => f !== page.mainFrame())
        ?.url() ?? '';
    await expect.poll(frameUrl, { timeout: 10_000, interval: 50 }).toMatch(/^chrome-error:/);
    await context.close();
  });

  it("in Zoom, a host user who is no admin gets the Agent Preview; its own live stream brings the customer's submit at once", async () => {
    const created = await asOwner('POST', '/e-form/forms', {
      definition: {
        title: 'Zoom live claim',
        hiddenFields: [],
        fields: [{ id: 'name', type: 'short_text', label: 'Full name', required: true }],
      },
    });
    expect(created.status).toBe(201);
    expect((await asOwner('POST', `/e-form/forms/${(created.body as { id: string }).id}/publish`, {})).status).toBe(200);
    context = await browser.newContext();
    const streams = liveRequests(context);
    const page = await context.newPage();
    await page.addInitScript(zoomBridgeScript(zoomContext('z-agent')));
    await page.goto(`${server.url}/zoom/`);
    await page.getByRole('heading', { name: "You're not yet authorized" }).waitFor();
    await page.getByRole('button', { name: 'eForm' }).click();
    const send = page.getByRole('form', { name: 'Send a form' });
    await pickChoice(send, 'Form', 'zoom live', 'Zoom live claim');
    await send.getByLabel(/Phone number/).fill('+15550143001');
    await send.getByRole('button', { name: 'Send a form' }).click();
    await page.getByTestId('action-status').filter({ hasText: 'sent to' }).waitFor();
    await expect.poll(() => streams.length).toBeGreaterThanOrEqual(1);
    const reloads = () => page.evaluate(() => performance.getEntriesByType('navigation').length);
    const navigations = await reloads();

    // the customer opens the link and submits the form
    const outbox = (await asOwner('GET', '/dev/sms-outbox')).body as { to: string; body: string }[];
    const link = new URL(outbox.find((m) => m.to === '+15550143001')!.body.match(/https?:\/\/\S+/)![0]).pathname;
    expect((await fetch(`${server.url}${link}`)).status).toBe(200);
    const form = new FormData();
    form.append('name', 'Zed Caller');
    expect(await (await fetch(`${server.url}${link}`, { method: 'POST', body: form })).text()).toContain('Thank you');

    await page.getByTestId('action-status').filter({ hasText: 'The customer submitted the form.' }).waitFor({ timeout: 5_000 });
    expect(await reloads()).toBe(navigations);
    // the stream is the agent's own session's, in a header
    for (const p of await headerNotAddress(streams)) expect(p).toMatchObject({ role: 'agent', email: 'alex.agent@acme.test' });
    await context.close();
  });

  it('in the Webex frame the console streams live: a passcode sent elsewhere shows on its dashboard without a reload', async () => {
    context = await webexContext('/webex/one-time-passcode');
    const streams = liveRequests(context);
    const page = await context.newPage();
    await page.goto('https://teams.webex.com/embedded');
    const frame = page.frameLocator('iframe');
    const sentTile = frame.getByTestId('kpi-sent').locator('.kpi-value');
    await sentTile.waitFor({ timeout: 20_000 });
    await frame.getByTestId('live-indicator').and(frame.locator('[data-state="live"]')).waitFor({ timeout: 10_000 });
    const before = Number((await sentTile.innerText()).replace(/,/g, ''));

    const sent = await asOwner('POST', '/one-time-passcode/actions/send', { input: { phoneNumber: '+15550143002' } });
    expect(sent.status).toBe(201);
    await expect.poll(async () => Number((await sentTile.innerText()).replace(/,/g, '')), { timeout: 5_000 }).toBe(before + 1);
    // one document load of the frame: the figure came by the stream, not a reload
    const frameLoads = await page.frames()[1]!.evaluate(() => performance.getEntriesByType('navigation').length);
    expect(frameLoads).toBe(1);
    for (const p of await headerNotAddress(streams)) expect(p).toMatchObject({ role: 'owner', email: 'owner@acme.test' });
    await context.close();
  });

  it('in the Webex frame, an agent picks one of the account\u2019s journeys and sends it: one SMS, followed in the panel', async () => {
    expect(
      (await asOwner('POST', '/journeys/templates', { name: 'Webex callback check', steps: [{ app: 'one-time-passcode' }] }))
        .status,
    ).toBe(201);
    context = await webexContext('/webex/', 'alex.agent@acme.test', 'Alex Agent');
    const page = await context.newPage();
    await page.goto('https://teams.webex.com/embedded');
    const frame = page.frameLocator('iframe');
    await frame.getByRole('heading', { name: "You're not yet authorized" }).waitFor({ timeout: 20_000 });
    await frame.getByRole('button', { name: 'Journeys' }).click();
    const panel = frame.getByRole('region', { name: 'Journeys' });
    await pickChoice(panel, 'Journey', 'webex callback', 'Webex callback check');
    await panel.getByLabel('Phone number').fill('+15550143003');
    await panel.getByRole('button', { name: 'Send journey' }).click();
    await panel.getByRole('status').filter({ hasText: 'Webex callback check' }).waitFor();
    const outbox = (await asOwner('GET', '/dev/sms-outbox')).body as { to: string }[];
    expect(outbox.filter((m) => m.to === '+15550143003')).toHaveLength(1);
    await context.close();
  });
});
