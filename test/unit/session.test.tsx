import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { TOKEN_KEY, here, makeBootstrap, makeToken, mockApi, renderConsole, renderSignedIn } from './helpers';

describe('session', () => {
  it('signs in with the token of a sign-in link and removes it from the address bar', async () => {
    const token = makeToken();
    mockApi({ 'GET /api/admins/bootstrap': { body: makeBootstrap() } });
    renderConsole({ path: `/?token=${token}&x=1` });
    expect(await screen.findByRole('heading', { name: 'Welcome, Olivia' })).toBeTruthy();
    expect(here()).toBe('/?x=1');
    expect(localStorage.getItem(TOKEN_KEY)).toBe(token);
  });

  it('sends the bearer token and the time zone with the bootstrap call', async () => {
    const { calls } = renderSignedIn('/');
    await screen.findByRole('heading', { name: 'Welcome, Olivia' });
    const bootstrap = calls.find((c) => c.url.endsWith('/api/admins/bootstrap'))!;
    expect(bootstrap.headers.get('authorization')).toMatch(/^Bearer ey/);
    expect(bootstrap.headers.get('x-time-zone')).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
  });

  it('shows the session-expired message at /?expired=true when the token has expired', async () => {
    mockApi({ 'GET /api/admins/bootstrap': { status: 401, body: { code: 'JWT_EXPIRED', message: 'Token expired' } } });
    renderConsole({ path: '/settings/branding', token: makeToken() });
    expect(await screen.findByText('Your session has expired. Please sign in again.')).toBeTruthy();
    expect(here()).toBe('/?expired=true');
    expect(localStorage.getItem(TOKEN_KEY)).toBeNull();
  });

  it('keeps the session and offers a retry when the server cannot be reached', async () => {
    const token = makeToken();
    let reachable = false;
    const { fetchMock } = mockApi({ 'GET /api/admins/bootstrap': { body: makeBootstrap() } });
    const answer = fetchMock.getMockImplementation()!;
    fetchMock.mockImplementation(async (input, init) => {
      if (!reachable) throw new TypeError('Failed to fetch');
      return answer(input, init);
    });
    renderConsole({ path: '/', token });
    expect(await screen.findByText("Can't reach the server. Please check your internet connection and try again.")).toBeTruthy();
    expect(localStorage.getItem(TOKEN_KEY)).toBe(token);
    expect(screen.queryByRole('heading', { name: 'Sign in' })).toBeNull();
    reachable = true;
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('heading', { name: 'Welcome, Olivia' })).toBeTruthy();
  });

  it('keeps the session when the server answers 503', async () => {
    const token = makeToken();
    mockApi({ 'GET /api/admins/bootstrap': { status: 503, body: { code: 'UNAVAILABLE', message: 'down' } } });
    renderConsole({ path: '/', token });
    expect(await screen.findByRole('heading', { name: 'Your account could not be loaded' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Retry' })).toBeTruthy();
    expect(localStorage.getItem(TOKEN_KEY)).toBe(token);
  });

  it('clears the token and shows sign-in when the bootstrap fails for another reason', async () => {
    mockApi({ 'GET /api/admins/bootstrap': { status: 401, body: { code: 'TOKEN_INVALID', message: 'Invalid token' } } });
    renderConsole({ path: '/', token: makeToken() });
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeTruthy();
    expect(screen.queryByText('Your session has expired. Please sign in again.')).toBeNull();
    await waitFor(() => expect(localStorage.getItem(TOKEN_KEY)).toBeNull());
    expect(here()).toBe('/');
  });
});
