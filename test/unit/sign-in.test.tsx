import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Role } from '../../api/contract/common';
import { here, makeBootstrap, makeToken, mockApi, renderConsole, TOKEN_KEY } from './helpers';

function stubAssign() {
  const assign = vi.fn();
  const original = window.location.assign;
  Object.defineProperty(window.location, 'assign', { configurable: true, value: assign });
  return { assign, restore: () => Object.defineProperty(window.location, 'assign', { configurable: true, value: original }) };
}

let restore = () => {};
afterEach(() => restore());

describe('sign-in', () => {
  it('asks for a valid email before signing in with SSO', async () => {
    renderConsole({ path: '/' });
    fireEvent.change(await screen.findByLabelText('Work email'), { target: { value: 'not-an-email' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign in using SSO' }));
    expect(await screen.findByText('Please provide a valid email address')).toBeTruthy();
  });

  it('explains that SSO is not configured for the email address', async () => {
    mockApi({
      'POST /api/sso/oauth/authorize': { status: 404, body: { code: 'SSO_NOT_CONFIGURED', message: 'not configured' } },
    });
    renderConsole({ path: '/' });
    fireEvent.change(await screen.findByLabelText('Work email'), { target: { value: 'ann@acme.test' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign in using SSO' }));
    expect(await screen.findByText('SSO is not configured for this email address')).toBeTruthy();
  });

  it('sends the browser to the identity provider SSO answers with', async () => {
    const stub = stubAssign();
    restore = stub.restore;
    mockApi({ 'POST /api/sso/oauth/authorize': { body: { url: 'https://idp.example/authorize?x=1' } } });
    renderConsole({ path: '/' });
    fireEvent.change(await screen.findByLabelText('Work email'), { target: { value: 'ann@acme.test' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign in using SSO' }));
    await waitFor(() => expect(stub.assign).toHaveBeenCalledWith('https://idp.example/authorize?x=1'));
  });

  it('starts the Google-type sign-in at its start address, naming the browser’s time zone', async () => {
    const stub = stubAssign();
    restore = stub.restore;
    renderConsole({ path: '/' });
    fireEvent.click(await screen.findByRole('button', { name: /Sign in with Google/ }));
    const zone = new URLSearchParams({ timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone });
    expect(stub.assign).toHaveBeenCalledWith(`/api/auth/google/start?${zone}`);
  });
});

describe('sign-up', () => {
  it('keeps the provider buttons disabled until the terms are accepted', async () => {
    renderConsole({ path: '/sign-up' });
    const google = (await screen.findByRole('button', { name: /Sign up with Google/ })) as HTMLButtonElement;
    const microsoft = screen.getByRole('button', { name: /Sign up with Microsoft/ }) as HTMLButtonElement;
    expect([google.disabled, microsoft.disabled]).toEqual([true, true]);
    fireEvent.click(screen.getByRole('checkbox'));
    expect([google.disabled, microsoft.disabled]).toEqual([false, false]);
  });

  it('links "terms of service" to the terms page, opened in a new tab', async () => {
    renderConsole({ path: '/sign-up' });
    const link = (await screen.findByRole('link', { name: /terms of service/ })) as HTMLAnchorElement;
    expect(link.getAttribute('href')).toBe('/terms');
    expect(link.target).toBe('_blank');
    expect(link.rel).toContain('noopener');
    expect(link.textContent).toContain('(opens in a new tab)');
  });

  it('starts the Microsoft-type sign-up once the terms are accepted', async () => {
    const stub = stubAssign();
    restore = stub.restore;
    renderConsole({ path: '/sign-up' });
    fireEvent.click(await screen.findByRole('checkbox'));
    fireEvent.click(screen.getByRole('button', { name: /Sign up with Microsoft/ }));
    const zone = new URLSearchParams({ timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone });
    expect(stub.assign).toHaveBeenCalledWith(`/api/auth/azure/start?signup=1&${zone}`);
  });
});

describe('SSO callback', () => {
  it('shows Logging you in... while it trades the code for a session', async () => {
    mockApi({ 'POST /api/sso/oauth/callback': () => new Promise(() => {}) });
    renderConsole({ path: '/sso/callback?code=c1&state=s1' });
    expect(await screen.findByText('Logging you in...')).toBeTruthy();
  });

  it('stores the session and opens the app picker', async () => {
    const token = makeToken();
    const { calls } = mockApi({
      'POST /api/sso/oauth/callback': { body: { token } },
      'GET /api/admins/bootstrap': { body: makeBootstrap() },
    });
    renderConsole({ path: '/sso/callback?code=c1&state=s1' });
    expect(await screen.findByRole('heading', { name: 'Welcome, Olivia' })).toBeTruthy();
    expect(here()).toBe('/');
    expect(localStorage.getItem(TOKEN_KEY)).toBe(token);
    expect(JSON.parse(calls.find((c) => c.path === '/api/sso/oauth/callback')!.body)).toEqual({ code: 'c1', state: 's1' });
  });

  it('asks a user who is not an admin to contact the account administrator', async () => {
    mockApi({ 'POST /api/sso/oauth/callback': { status: 403, body: { code: 'ADMIN_NOT_FOUND', message: 'no admin' } } });
    renderConsole({ path: '/sso/callback?code=c1&state=s1' });
    expect(
      await screen.findByText('Please contact your account administrator to be added as an administrator on the account.'),
    ).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Go back' }));
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeTruthy();
  });

  it('shows an SSO agent-group member the Agent Preview with the agent session, and stores no session', async () => {
    // the API's agent tokens carry role 'agent', which the console's own token type does not name
    const token = makeToken({ sub: 'agent:agent.only@acme.test', role: 'agent' as unknown as Role });
    const { calls } = mockApi({
      'POST /api/sso/oauth/callback': { body: { token } },
      'GET /api/agent/apps': { body: { apps: [] } },
    });
    renderConsole({ path: '/sso/callback?code=c1&state=s1' });
    expect(await screen.findByRole('heading', { name: "You're not yet authorized" })).toBeTruthy();
    await waitFor(() =>
      expect(calls.find((c) => c.path === '/api/agent/apps')?.headers.get('authorization')).toBe(`Bearer ${token}`),
    );
    expect(localStorage.getItem(TOKEN_KEY)).toBeNull();
    expect(calls.some((c) => c.path === '/api/admins/bootstrap')).toBe(false);
  });

  it('shows the server message for other failures', async () => {
    mockApi({
      'POST /api/sso/oauth/callback': {
        status: 400,
        body: { code: 'STATE_MISMATCH', message: 'The sign-in state did not match' },
      },
    });
    renderConsole({ path: '/sso/callback?code=c1&state=s1' });
    expect(await screen.findByText('The sign-in state did not match')).toBeTruthy();
  });
});
