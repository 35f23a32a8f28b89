import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { here, makeBootstrap, renderSignedIn } from './helpers';

describe('settings and Watch Tower guards', () => {
  it('sends a supervisor away from settings to the root', async () => {
    renderSignedIn('/settings/branding', makeBootstrap({ role: 'supervisor' }));
    expect(await screen.findByRole('heading', { name: 'Welcome, Olivia' })).toBeTruthy();
    expect(here()).toBe('/');
  });

  it('says why when it sends a supervisor away from settings', async () => {
    renderSignedIn('/settings/developers', makeBootstrap({ role: 'supervisor' }));
    expect(await screen.findByText('That page is for administrators')).toBeTruthy();
    expect(here()).toBe('/');
  });

  it.each([
    '/one-time-passcode/settings/general',
    '/one-time-passcode/settings/sms-content',
    '/document-signature/documents',
    '/document-signature/documents/new',
    '/document-signature/settings/storage',
    '/e-form/forms/f_1',
    '/payments/settings/stripe',
  ])('sends a supervisor who opens %s by URL back to / and says why', async (path) => {
    renderSignedIn(path, makeBootstrap({ role: 'supervisor' }));
    expect(await screen.findByText('That page is for administrators')).toBeTruthy();
    await waitFor(() => expect(here()).toBe('/'));
  });

  it("lets a supervisor open an app's activity tab", async () => {
    renderSignedIn('/one-time-passcode/authentications', makeBootstrap({ role: 'supervisor' }));
    expect(await screen.findByRole('link', { name: 'Authentications' })).toBeTruthy();
    expect(here()).toBe('/one-time-passcode/authentications');
    expect(screen.queryByText('That page is for administrators')).toBeNull();
  });

  it('lets an admin open an app configuration page', async () => {
    renderSignedIn('/one-time-passcode/settings/general', makeBootstrap({ role: 'admin' }));
    expect(await screen.findByRole('link', { name: 'Configuration' })).toBeTruthy();
    expect(here()).toBe('/one-time-passcode/settings/general');
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
