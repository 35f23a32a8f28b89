import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createApi } from '../../src/api/client';
import { createWebexHost, webexSignIn, type WebexApp } from '../../hosts/webex/host';
import { makeBootstrap, makeToken, mockApi, renderConsole } from './helpers';

/** A stand-in for the SDK's Application: host state, onReady and the token-refresh event. */
function fakeApp({ token = 'webex-user-jwt' as string | null, ready = Promise.resolve() as Promise<unknown> } = {}) {
  const handlers: Record<string, (payload: unknown) => void> = {};
  const app: WebexApp & { emit(event: string, payload: unknown): void } = {
    onReady: vi.fn(() => ready),
    listen: vi.fn(async () => {}),
    on: vi.fn((event: string, cb: (payload: unknown) => void) => (handlers[event] = cb)),
    application: { states: { user: token === null ? null : { token } } },
    emit: (event, payload) => handlers[event]?.(payload),
  };
  return app;
}

const noToken = () => createApi({ getToken: () => null });

afterEach(() => {
  vi.useRealTimers();
});

describe('Webex host', () => {
  it("posts the user's token from the SDK and shows the console", async () => {
    const api = mockApi({
      'POST /api/webex/authenticate': { body: { token: makeToken() } },
      'GET /api/admins/bootstrap': { body: makeBootstrap() },
    });
    const app = fakeApp();
    renderConsole({ path: '/webex/', host: createWebexHost({ createApp: () => app }) });
    expect(await screen.findByRole('heading', { name: 'Welcome, Olivia' })).toBeTruthy();
    expect(JSON.parse(api.calls.find((c) => c.path === '/api/webex/authenticate')!.body)).toEqual({
      accessToken: 'webex-user-jwt',
    });
  });

  it('retries a 5xx after 250, 500, 1000 ... ms and stops after the 16 s wait with An error occurred', async () => {
    vi.useFakeTimers();
    const start = Date.now();
    const at: number[] = [];
    mockApi({
      'POST /api/webex/authenticate': () => (
        at.push(Date.now() - start), { status: 503, body: { code: 'WEBEX_UNAVAILABLE', message: 'down' } }
      ),
    });
    const result = webexSignIn({ createApp: () => fakeApp(), api: noToken() });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(await result).toEqual({ outcome: 'error', message: 'An error occurred' });
    const waits = at.slice(1).map((t, i) => t - at[i]!);
    expect(waits).toEqual([250, 500, 1000, 2000, 4000, 8000, 16000]);
  });

  it('retries network errors with the same back-off', async () => {
    vi.useFakeTimers();
    let attempts = 0;
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        attempts++;
        if (attempts < 3) throw new TypeError('Failed to fetch');
        return new Response(JSON.stringify({ token: makeToken() }), {
          status: 200,
          headers: { 'content-type': 'application/json' },
        });
      }),
    );
    const result = webexSignIn({ createApp: () => fakeApp(), api: noToken() });
    await vi.advanceTimersByTimeAsync(249);
    expect(attempts).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(attempts).toBe(2);
    await vi.advanceTimersByTimeAsync(500);
    expect((await result).outcome).toBe('token');
    expect(attempts).toBe(3);
  });

  it('waits for a missing token, retrying until the host provides one (also through tokenRefreshed)', async () => {
    vi.useFakeTimers();
    const app = fakeApp({ token: null });
    const api = mockApi({ 'POST /api/webex/authenticate': { body: { token: makeToken() } } });
    const result = webexSignIn({ createApp: () => app, api: noToken() });
    await vi.advanceTimersByTimeAsync(250 + 500);
    expect(api.calls).toHaveLength(0);
    app.emit('application:tokenRefreshed', 'refreshed-jwt');
    await vi.advanceTimersByTimeAsync(1000);
    expect((await result).outcome).toBe('token');
    expect(api.calls.map((c) => JSON.parse(c.body))).toEqual([{ accessToken: 'refreshed-jwt' }]);
  });

  it('gives up with An error occurred when the host never provides a token', async () => {
    vi.useFakeTimers();
    const api = mockApi({});
    const result = webexSignIn({ createApp: () => fakeApp({ token: null }), api: noToken() });
    await vi.advanceTimersByTimeAsync(31_749);
    let settled = false;
    void result.then(() => (settled = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await result).toEqual({ outcome: 'error', message: 'An error occurred' });
    expect(api.calls).toHaveLength(0);
  });

  it('a 4xx stops retrying and shows the server error', async () => {
    vi.useFakeTimers();
    const api = mockApi({
      'POST /api/webex/authenticate': {
        status: 401,
        body: { code: 'WEBEX_TOKEN_EXPIRED', message: 'The Webex token has expired. Please reopen the app in Webex.' },
      },
    });
    const result = webexSignIn({ createApp: () => fakeApp(), api: noToken() });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(await result).toEqual({ outcome: 'error', message: 'The Webex token has expired. Please reopen the app in Webex.' });
    expect(api.calls).toHaveLength(1);
  });

  it('signs in once onReady has timed out (it never settles outside a host) if the state has a token', async () => {
    vi.useFakeTimers();
    mockApi({ 'POST /api/webex/authenticate': { body: { token: makeToken() } } });
    const app = fakeApp({ ready: new Promise(() => {}) });
    const result = webexSignIn({ createApp: () => app, api: noToken() });
    await vi.advanceTimersByTimeAsync(10_000);
    expect((await result).outcome).toBe('token');
    expect(app.listen).not.toHaveBeenCalled();
  });

  it("ACCOUNT_EXISTS shows You're not yet authorized", async () => {
    mockApi({
      'POST /api/webex/authenticate': {
        status: 403,
        body: { code: 'ACCOUNT_EXISTS', message: 'An account already exists for your company.' },
      },
    });
    renderConsole({ path: '/webex/', host: createWebexHost({ createApp: () => fakeApp() }) });
    expect(await screen.findByRole('heading', { name: "You're not yet authorized" })).toBeTruthy();
  });

  it("a supervisor (no admin access) gets You're not yet authorized with the Agent Preview", async () => {
    mockApi({ 'POST /api/webex/authenticate': { body: { token: makeToken({ role: 'supervisor' }) } } });
    renderConsole({ path: '/webex/', host: createWebexHost({ createApp: () => fakeApp() }) });
    expect(await screen.findByRole('heading', { name: "You're not yet authorized" })).toBeTruthy();
    expect(screen.getByRole('region', { name: 'Agent Preview list' })).toBeTruthy();
  });

  it('shows nothing while authentication is still retrying', async () => {
    vi.useFakeTimers();
    mockApi({ 'POST /api/webex/authenticate': { status: 500, body: { code: 'INTERNAL', message: 'x' } } });
    const { container } = renderConsole({ path: '/webex/', host: createWebexHost({ createApp: () => fakeApp() }) });
    await act(async () => vi.advanceTimersByTimeAsync(5_000));
    expect(container.textContent).toBe('');
    await act(async () => vi.advanceTimersByTimeAsync(30_000));
    expect(container.textContent).toContain('An error occurred');
  });

  it('opened in a plain browser tab, says it runs inside Webex and links to the browser console, without waiting for the SDK', async () => {
    const api = mockApi({});
    const createApp = vi.fn(() => fakeApp());
    renderConsole({ path: '/webex/', host: createWebexHost({ createApp, outside: () => true }) });
    expect(await screen.findByRole('heading', { name: 'This page runs inside Webex' })).toBeTruthy();
    await waitFor(() => expect(document.title).toBe('Runs inside Webex · Switchboard'));
    expect(screen.getByRole('link', { name: 'Open the console in this browser' }).getAttribute('href')).toBe(
      `${window.location.origin}/`,
    );
    expect(createApp).not.toHaveBeenCalled();
    expect(api.calls).toHaveLength(0);
  });

  it("has no 'Open in browser' link on the Developers page", async () => {
    mockApi({
      'POST /api/webex/authenticate': { body: { token: makeToken() } },
      'GET /api/admins/bootstrap': { body: makeBootstrap() },
    });
    renderConsole({ path: '/webex/settings/developers', host: createWebexHost({ createApp: () => fakeApp() }) });
    expect(await screen.findByRole('heading', { name: 'Developers' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Open in browser' })).toBeNull();
  });
});
