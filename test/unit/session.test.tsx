import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TOKEN_KEY, here, makeBootstrap, makeToken, mockApi, renderConsole, renderSignedIn } from './helpers';

afterEach(() => {
  vi.useRealTimers();
});

const realSetTimeout = globalThis.setTimeout;

/**
 * With fake timers: lets the console's modules load and its first call go out, a millisecond of
 * fake time at a time, until `ready` holds (loading takes real time, which fake time does not wait for).
 */
async function settle(ready: () => boolean) {
  for (let i = 0; i < 500 && !ready(); i++) {
    await act(() => vi.advanceTimersByTimeAsync(1));
    await new Promise((resolve) => realSetTimeout(resolve, 1));
  }
  expect(ready()).toBe(true);
}

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

  it('a database restart (503 DATABASE_UNAVAILABLE with Retry-After) keeps the session, shows Reconnecting… and loads the account by itself when the server is back', async () => {
    vi.useFakeTimers();
    const token = makeToken();
    let down = 2;
    const api = mockApi({
      'GET /api/admins/bootstrap': () =>
        down-- > 0
          ? {
              status: 503,
              headers: { 'retry-after': '2' },
              body: {
                code: 'DATABASE_UNAVAILABLE',
                message: 'The database is briefly unavailable. Please try again in a moment.',
              },
            }
          : { body: makeBootstrap() },
    });
    renderConsole({ path: '/', token });
    await settle(() => screen.queryByRole('heading', { name: 'Reconnecting…' }) !== null);
    expect(screen.getByText('You are still signed in. Trying again in 2 s.')).toBeTruthy();
    expect(localStorage.getItem(TOKEN_KEY)).toBe(token);
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(screen.getByText('You are still signed in. Trying again in 1 s.')).toBeTruthy();
    expect(api.calls).toHaveLength(1);
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(api.calls).toHaveLength(2);
    expect(screen.getByRole('heading', { name: 'Reconnecting…' })).toBeTruthy();
    await act(() => vi.advanceTimersByTimeAsync(2000));
    expect(screen.getByRole('heading', { name: 'Welcome, Olivia' })).toBeTruthy();
    expect(localStorage.getItem(TOKEN_KEY)).toBe(token);
  });

  it('a 429 with Retry-After keeps the session and waits as long as the server asked', async () => {
    vi.useFakeTimers();
    const token = makeToken();
    mockApi({
      'GET /api/admins/bootstrap': {
        status: 429,
        headers: { 'retry-after': '5' },
        body: { code: 'RATE_LIMITED', message: 'Too many requests' },
      },
    });
    renderConsole({ path: '/', token });
    await settle(() => screen.queryByRole('heading', { name: 'Reconnecting…' }) !== null);
    expect(screen.getByText('You are still signed in. Trying again in 5 s.')).toBeTruthy();
    expect(localStorage.getItem(TOKEN_KEY)).toBe(token);
  });

  it('with no answer (offline) it keeps trying by itself after 1 s, 2 s, 4 s …', async () => {
    vi.useFakeTimers();
    const token = makeToken();
    const { fetchMock } = mockApi({});
    const at: number[] = [];
    const start = Date.now();
    fetchMock.mockImplementation(async () => {
      at.push(Date.now() - start);
      throw new TypeError('Failed to fetch');
    });
    renderConsole({ path: '/', token });
    // the first call comes once the console's modules have loaded, however long that takes
    await settle(() => at.length === 1);
    // a second at a time: each retry is scheduled by a React effect, which runs between steps
    for (let s = 0; s < 8; s++) await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(at.slice(1).map((t, i) => t - at[i]!)).toEqual([1000, 2000, 4000]);
    expect(screen.getByText("Can't reach the server. Please check your internet connection and try again.")).toBeTruthy();
    expect(localStorage.getItem(TOKEN_KEY)).toBe(token);
  });

  it.each([
    [401, 'TOKEN_INVALID', 'Invalid token'],
    [403, 'ACCOUNT_ARCHIVED', 'This account has been archived.'],
    [404, 'NOT_FOUND', 'No such admin'],
  ])('a definitive %i (%s) clears the token and shows sign-in', async (status, code, message) => {
    mockApi({ 'GET /api/admins/bootstrap': { status, body: { code, message } } });
    renderConsole({ path: '/', token: makeToken() });
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeTruthy();
    expect(screen.queryByText('Your session has expired. Please sign in again.')).toBeNull();
    await waitFor(() => expect(localStorage.getItem(TOKEN_KEY)).toBeNull());
    expect(here()).toBe('/');
  });

  it('a 500 (the server answered, and it broke) clears the token and shows sign-in', async () => {
    mockApi({
      'GET /api/admins/bootstrap': {
        status: 500,
        body: { code: 'INTERNAL', message: 'Something went wrong on our side. Please try again.' },
      },
    });
    renderConsole({ path: '/', token: makeToken() });
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeTruthy();
    await waitFor(() => expect(localStorage.getItem(TOKEN_KEY)).toBeNull());
  });
});
