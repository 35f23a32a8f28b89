import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { pageTitle } from '../../src/app/title';
import { renderSignedIn } from './helpers';

describe('browser tab titles', () => {
  it.each([
    ['/', true, 'Apps · Switchboard'],
    ['/', false, 'Sign in · Switchboard'],
    ['/settings/branding', true, 'Branding · Settings · Switchboard'],
    ['/settings/billing', true, 'Billing · Settings · Switchboard'],
    ['/support/ticket', true, 'Report an issue · Support · Switchboard'],
    ['/one-time-passcode', true, 'Dashboard · One-Time Passcode · Switchboard'],
    ['/one-time-passcode/settings/sms-content', true, 'SMS content · Configuration · One-Time Passcode · Switchboard'],
    ['/document-signature/documents/d_1/3', true, 'Documents · Document Signature · Switchboard'],
    ['/payments/products', true, 'Product Catalog · Payments · Switchboard'],
    ['/watch-tower/accounts', true, 'Accounts · Watch Tower · Switchboard'],
    ['/no-such-page', true, 'Page not found · Switchboard'],
  ])('%s (signed in: %s) is titled %j', (path, signedIn, title) => {
    expect(pageTitle(path, signedIn)).toBe(title);
  });

  it('the console names the page on screen in the tab title', async () => {
    renderSignedIn('/settings/domain');
    await screen.findByRole('heading', { name: 'Domain' });
    await waitFor(() => expect(document.title).toBe('Domain · Settings · Switchboard'));
  });
});
