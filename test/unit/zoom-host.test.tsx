import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ZOOM_CAPABILITIES } from '../../hosts/zoom/capabilities';
import { createZoomHost, zoomSignIn, type ZoomHostOptions, type ZoomSdk } from '../../hosts/zoom/host';
import { createApi } from '../../src/api/client';
import { browserHost } from '../../hosts/browser/host';
import { makeBootstrap, makeToken, mockApi, renderConsole } from './helpers';

// The real SDK hangs a vitest worker on import; the adapter gets this fake, built like the real
// one: a Proxy that answers every property, `then` included (a `then` that never settles, so
// awaiting the SDK object anywhere would hang the sign-in and fail these tests).
const calls: string[] = [];
const fake = vi.hoisted(() => ({
  config: vi.fn(),
  getAppContext: vi.fn(),
  openUrl: vi.fn(),
}));
vi.mock('@zoom/appssdk', () => ({
  default: new Proxy(fake, {
    get: (target, prop) => (prop in target ? target[prop as keyof typeof target] : () => new Promise(() => {})),
  }),
}));
const { default: zoomSdk } = await import('@zoom/appssdk');

beforeEach(() => {
  calls.length = 0;
  fake.config
    .mockReset()
    .mockImplementation(
      async () => (calls.push('config'), { clientVersion: '6.0.0', runningContext: 'inMainClient', unsupportedApis: [] }),
    );
  fake.getAppContext.mockReset().mockImplementation(async () => (calls.push('getAppContext'), { context: 'ENCRYPTED-CONTEXT' }));
  fake.openUrl.mockReset().mockResolvedValue({ message: 'success' });
});

afterEach(() => {
  vi.useRealTimers();
});

// inside the Zoom client unless a test says otherwise (happy-dom names no browser anyway)
const zoomHost = (options: ZoomHostOptions = {}) =>
  createZoomHost(zoomSdk as unknown as ZoomSdk, undefined, { outside: () => false, ...options });
const noWait = async () => {};
const sdk = () => zoomSdk as unknown as ZoomSdk;
const noToken = () => createApi({ getToken: () => null });

describe('Zoom host', () => {
  it('configures the SDK (version 0.16.0, fixed capabilities), then posts the app context and shows the console', async () => {
    const api = mockApi({
      'POST /api/zoom/context': { body: { token: makeToken(), role: 'owner' } },
      'GET /api/admins/bootstrap': { body: makeBootstrap() },
    });
    renderConsole({ path: '/zoom/', host: zoomHost() });
    expect(await screen.findByRole('heading', { name: 'Welcome, Olivia' })).toBeTruthy();
    expect(fake.config).toHaveBeenCalledWith({ version: '0.16.0', capabilities: [...ZOOM_CAPABILITIES] });
    expect(calls).toEqual(['config', 'getAppContext']);
    const post = api.calls.find((c) => c.path === '/api/zoom/context')!;
    expect(JSON.parse(post.body)).toEqual({ context: 'ENCRYPTED-CONTEXT' });
    expect(post.headers.get('authorization')).toBeNull();
  });

  it('shows nothing before authentication completes', async () => {
    let answer!: (v: { context: string }) => void;
    fake.getAppContext.mockImplementation(() => new Promise((resolve) => (answer = resolve)));
    mockApi({
      'POST /api/zoom/context': { body: { token: makeToken(), role: 'owner' } },
      'GET /api/admins/bootstrap': { body: makeBootstrap() },
    });
    const { container } = renderConsole({ path: '/zoom/', host: zoomHost() });
    await act(async () => {});
    expect(container.textContent).toBe('');
    await act(async () => answer({ context: 'ENCRYPTED-CONTEXT' }));
    expect(await screen.findByRole('heading', { name: 'Welcome, Olivia' })).toBeTruthy();
  });

  it("a Zoom user without admin access (supervisor) gets You're not yet authorized with the Agent Preview", async () => {
    mockApi({ 'POST /api/zoom/context': { body: { token: makeToken({ role: 'supervisor' }), role: 'supervisor' } } });
    renderConsole({ path: '/zoom/', host: zoomHost() });
    expect(await screen.findByRole('heading', { name: "You're not yet authorized" })).toBeTruthy();
    expect(screen.getByRole('region', { name: 'Agent Preview list' })).toBeTruthy();
  });

  it("ACCOUNT_EXISTS shows You're not yet authorized", async () => {
    mockApi({
      'POST /api/zoom/context': {
        status: 403,
        body: { code: 'ACCOUNT_EXISTS', message: 'An account already exists for your company.' },
      },
    });
    renderConsole({ path: '/zoom/', host: zoomHost() });
    expect(await screen.findByRole('heading', { name: "You're not yet authorized" })).toBeTruthy();
  });

  it("another 4xx shows the server's message", async () => {
    mockApi({
      'POST /api/zoom/context': {
        status: 401,
        body: { code: 'ZOOM_CONTEXT_EXPIRED', message: 'The Zoom app context has expired. Please reopen the app in Zoom.' },
      },
    });
    renderConsole({ path: '/zoom/', host: zoomHost() });
    expect(await screen.findByText('The Zoom app context has expired. Please reopen the app in Zoom.')).toBeTruthy();
  });

  it('a server failure, once every retry has failed, shows An error occurred', async () => {
    mockApi({
      'POST /api/zoom/context': { status: 502, body: { code: 'ZOOM_UNAVAILABLE', message: 'Zoom could not be reached' } },
    });
    renderConsole({ path: '/zoom/', host: zoomHost({ sleep: noWait }) });
    expect(await screen.findByText('An error occurred')).toBeTruthy();
    expect(screen.queryByText(/Zoom could not be reached/)).toBeNull();
  });

  it('retries a 5xx after 250, 500, 1000 ... ms and stops after the 16 s wait, as Webex does', async () => {
    vi.useFakeTimers();
    const start = Date.now();
    const at: number[] = [];
    mockApi({
      'POST /api/zoom/context': () => (
        at.push(Date.now() - start), { status: 503, body: { code: 'DATABASE_UNAVAILABLE', message: 'down' } }
      ),
    });
    const result = zoomSignIn(sdk(), noToken());
    await vi.advanceTimersByTimeAsync(60_000);
    expect(await result).toEqual({ outcome: 'error', message: 'An error occurred' });
    expect(at.slice(1).map((t, i) => t - at[i]!)).toEqual([250, 500, 1000, 2000, 4000, 8000, 16000]);
    // configured once; a fresh app context for every attempt (it expires within minutes)
    expect(fake.config).toHaveBeenCalledTimes(1);
    expect(fake.getAppContext).toHaveBeenCalledTimes(8);
  });

  it('signs in when the server answers on a later attempt (no answer at first)', async () => {
    vi.useFakeTimers();
    let attempts = 0;
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        attempts++;
        if (attempts < 3) throw new TypeError('Failed to fetch');
        return new Response(JSON.stringify({ token: makeToken(), role: 'owner' }), {
          status: 200,
          headers: { 'content-type': 'application/json' },
        });
      }),
    );
    const result = zoomSignIn(sdk(), noToken());
    await vi.advanceTimersByTimeAsync(249);
    expect(attempts).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(attempts).toBe(2);
    await vi.advanceTimersByTimeAsync(500);
    expect((await result).outcome).toBe('token');
  });

  it('retries when the SDK is not ready yet (getAppContext fails) and signs in once it is', async () => {
    vi.useFakeTimers();
    fake.getAppContext.mockRejectedValueOnce(new Error('not ready')).mockRejectedValueOnce(new Error('not ready'));
    mockApi({ 'POST /api/zoom/context': { body: { token: makeToken(), role: 'owner' } } });
    const result = zoomSignIn(sdk(), noToken());
    await vi.advanceTimersByTimeAsync(750);
    expect((await result).outcome).toBe('token');
    expect(fake.getAppContext).toHaveBeenCalledTimes(3);
  });

  it("a 4xx stops retrying and shows the server's message", async () => {
    vi.useFakeTimers();
    const api = mockApi({
      'POST /api/zoom/context': {
        status: 401,
        body: { code: 'ZOOM_CONTEXT_EXPIRED', message: 'The Zoom app context has expired. Please reopen the app in Zoom.' },
      },
    });
    const result = zoomSignIn(sdk(), noToken());
    await vi.advanceTimersByTimeAsync(60_000);
    expect(await result).toEqual({
      outcome: 'error',
      message: 'The Zoom app context has expired. Please reopen the app in Zoom.',
    });
    expect(api.calls).toHaveLength(1);
  });

  it('opened in a plain browser tab, says it runs inside Zoom and links to the browser console, without loading the SDK', async () => {
    const api = mockApi({});
    renderConsole({ path: '/zoom/', host: zoomHost({ outside: () => true }) });
    expect(await screen.findByRole('heading', { name: 'This page runs inside Zoom' })).toBeTruthy();
    await waitFor(() => expect(document.title).toBe('Runs inside Zoom · Switchboard'));
    expect(screen.getByText(/Open it from Apps in the Zoom desktop or mobile client/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Open the console in this browser' }).getAttribute('href')).toBe(
      `${window.location.origin}/`,
    );
    expect(screen.queryByText('Sign-in failed')).toBeNull();
    expect(fake.config).not.toHaveBeenCalled();
    expect(api.calls).toHaveLength(0);
  });

  it("the Developers page has an 'Open in browser' link in Zoom that opens the browser console through the SDK", async () => {
    mockApi({
      'POST /api/zoom/context': { body: { token: makeToken(), role: 'owner' } },
      'GET /api/admins/bootstrap': { body: makeBootstrap() },
    });
    renderConsole({ path: '/zoom/settings/developers', host: zoomHost() });
    const link = await screen.findByRole('link', { name: 'Open in browser' });
    expect(link.getAttribute('href')).toBe(`${window.location.origin}/settings/developers`);
    fireEvent.click(link);
    expect(fake.openUrl).toHaveBeenCalledWith({ url: `${window.location.origin}/settings/developers` });
  });

  it("the browser console's Developers page has no 'Open in browser' link", async () => {
    mockApi({ 'GET /api/admins/bootstrap': { body: makeBootstrap() } });
    renderConsole({ path: '/settings/developers', token: makeToken(), host: browserHost });
    expect(await screen.findByRole('heading', { name: 'Developers' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Open in browser' })).toBeNull();
  });
});
