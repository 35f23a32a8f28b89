import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { here, makeBootstrap, renderSignedIn } from './helpers';

describe('settings and Watch Tower guards', () => {
  it('sends a supervisor away from settings to the root', async () => {
    renderSignedIn('/settings/branding', makeBootstrap({ role: 'supervisor' }));
    expect(await screen.findByRole('heading', { name: 'Welcome, Olivia' })).toBeTruthy();
    expect(here()).toBe('/');
  });

  it('shows an admin the settings screen with its side menu and Back to apps', async () => {
    renderSignedIn('/settings/domain', makeBootstrap({ role: 'admin' }));
    expect(await screen.findByRole('heading', { name: 'Domain' })).toBeTruthy();
    const menu = screen.getByRole('navigation', { name: 'Settings' });
    expect([...menu.querySelectorAll('a')].map((a) => a.textContent)).toEqual([
      'Branding',
      'Domain',
      'Admin Management',
      'SMS Configuration',
      'Customer Lookup',
      'Single Sign-On',
      'Billing',
      'Logging',
      'Audit log',
      'Developers',
    ]);
    expect(screen.getByRole('link', { name: /Back to apps/ })).toBeTruthy();
  });

  it('opens Branding for /settings', async () => {
    renderSignedIn('/settings');
    expect(await screen.findByRole('heading', { name: 'Branding' })).toBeTruthy();
    expect(here()).toBe('/settings/branding');
  });

  it('serves the billing settings route', async () => {
    renderSignedIn('/settings/billing');
    expect(await screen.findByRole('heading', { name: 'Billing' })).toBeTruthy();
  });

  it('sends a user who is not provider staff away from Watch Tower', async () => {
    renderSignedIn('/watch-tower/accounts', makeBootstrap({ role: 'owner', isRoot: false }));
    await waitFor(() => expect(here()).toBe('/'));
  });

  it('shows provider staff the Watch Tower header', async () => {
    renderSignedIn('/watch-tower/accounts/acc_123', makeBootstrap({ isRoot: true }));
    expect(await screen.findByRole('heading', { name: 'Account acc_123' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Dashboard' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Accounts' }).getAttribute('aria-current')).toBe('page');
    expect(screen.getByRole('button', { name: 'Back to my account' })).toBeTruthy();
  });
});
