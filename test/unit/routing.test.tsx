import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { here, renderConsole } from './helpers';

describe('signed-out routes', () => {
  it('shows sign-in at the root', async () => {
    renderConsole({ path: '/' });
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeTruthy();
    expect(screen.getByRole('button', { name: /Sign in with Google/ })).toBeTruthy();
    expect(screen.getByRole('button', { name: /Sign in with Microsoft/ })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Sign in using SSO' })).toBeTruthy();
  });

  it('redirects any other path to the root without its query string', async () => {
    renderConsole({ path: '/settings/branding?tab=2' });
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeTruthy();
    expect(here()).toBe('/');
  });

  it('keeps the query string when already at the root', async () => {
    renderConsole({ path: '/?expired=true&utm=mail' });
    expect(await screen.findByText('Your session has expired. Please sign in again.')).toBeTruthy();
    expect(here()).toBe('/?expired=true&utm=mail');
  });

  it('shows the sign-up page at /sign-up', async () => {
    renderConsole({ path: '/sign-up' });
    expect(await screen.findByRole('heading', { name: 'Create your account' })).toBeTruthy();
    expect(here()).toBe('/sign-up');
  });

  it('shows the SSO return page at /sso/callback with the error description when code and state are missing', async () => {
    renderConsole({ path: '/sso/callback?error=access_denied&error_description=The%20user%20cancelled' });
    expect(await screen.findByText('The user cancelled')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Go back' })).toBeTruthy();
  });

  it('redirects a signed-out Watch Tower address to the root', async () => {
    renderConsole({ path: '/watch-tower/accounts' });
    await waitFor(() => expect(here()).toBe('/'));
  });
});
