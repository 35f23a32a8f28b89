import { act, fireEvent, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ZOOM_CAPABILITIES } from '../../hosts/zoom/capabilities';
import { createZoomHost, type ZoomSdk } from '../../hosts/zoom/host';
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
  default: new Proxy(fake, { get: (target, prop) => (prop in target ? target[prop as keyof typeof target] : () => new Promise(() => {})) }),
}));
const { default: zoomSdk } = await import('@zoom/appssdk');

beforeEach(() => {
  calls.length = 0;
  fake.config.mockReset().mockImplementation(async () => (calls.push('config'), { clientVersion: '6.0.0', runningContext: 'inMainClient', unsupportedApis: [] }));
  fake.getAppContext.mockReset().mockImplementation(async () => (calls.push('getAppContext'), { context: 'ENCRYPTED-CONTEXT' }));
  fake.openUrl.mockReset().mockResolvedValue({ message: 'success' });
});

const zoomHost = () => createZoomHost(zoomSdk as unknown as ZoomSdk);

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
    mockApi({ 'POST /api/zoom/context': { body: { token: makeToken(), role: 'owner' } }, 'GET /api/admins/bootstrap': { body: makeBootstrap() } });
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
    mockApi({ 'POST /api/zoom/context': { status: 403, body: { code: 'ACCOUNT_EXISTS', message: 'An account already exists for your company.' } } });
    renderConsole({ path: '/zoom/', host: zoomHost() });
    expect(await screen.findByRole('heading', { name: "You're not yet authorized" })).toBeTruthy();
  });

  it("another 4xx shows the server's message", async () => {
    mockApi({ 'POST /api/zoom/context': { status: 401, body: { code: 'ZOOM_CONTEXT_EXPIRED', message: 'The Zoom app context has expired. Please reopen the app in Zoom.' } } });
    renderConsole({ path: '/zoom/', host: zoomHost() });
    expect(await screen.findByText('The Zoom app context has expired. Please reopen the app in Zoom.')).toBeTruthy();
  });

  it('a server failure shows An error occurred', async () => {
    mockApi({ 'POST /api/zoom/context': { status: 502, body: { code: 'ZOOM_UNAVAILABLE', message: 'Zoom could not be reached' } } });
    renderConsole({ path: '/zoom/', host: zoomHost() });
    expect(await screen.findByText('An error occurred')).toBeTruthy();
    expect(screen.queryByText(/Zoom could not be reached/)).toBeNull();
  });

  it('outside Zoom (the SDK refuses to configure) shows An error occurred and calls nothing', async () => {
    fake.config.mockRejectedValue(new Error('The Zoom Apps SDK is not supported by this browser'));
    const api = mockApi({});
    renderConsole({ path: '/zoom/', host: zoomHost() });
    expect(await screen.findByText('An error occurred')).toBeTruthy();
    expect(fake.getAppContext).not.toHaveBeenCalled();
    expect(api.calls).toHaveLength(0);
  });

  it("the Developers page has an 'Open in browser' link in Zoom that opens the browser console through the SDK", async () => {
    mockApi({ 'POST /api/zoom/context': { body: { token: makeToken(), role: 'owner' } }, 'GET /api/admins/bootstrap': { body: makeBootstrap() } });
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
