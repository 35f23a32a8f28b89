import { screen, waitFor } from '@testing-library/react';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { APPS } from '../../api/contract/apps';
import { pageTitle } from '../../src/app/title';
import { SETTINGS_SECTIONS } from '../../src/pages/settings/sections';
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
    ['/dev/sms-outbox', true, 'Development SMS outbox · Switchboard'],
    ['/no-such-page', true, 'Page not found · Switchboard'],
    ['/journeys', true, 'Journeys · Switchboard'],
    ['/journeys/templates/new', true, 'New journey · Journeys · Switchboard'],
    ['/journeys/3f2a', true, 'Journey · Journeys · Switchboard'],
  ])('%s (signed in: %s) is titled %j', (path, signedIn, title) => {
    expect(pageTitle(path, signedIn)).toBe(title);
  });

  it('every route the console serves has a title of its own, never Page not found', () => {
    // the fixed routes as the router declares them, plus every settings section, Watch Tower page and app tab
    const declared = [...readFileSync('src/app/routes.tsx', 'utf8').matchAll(/<Route path="([^"]+)"/g)].map((m) => m[1]!);
    const paths = [
      ...declared,
      ...SETTINGS_SECTIONS.map((s) => `/settings/${s.slug}`),
      '/watch-tower/accounts/acc_1',
      ...APPS.flatMap((app) => [`/${app.id}`, ...app.tabs.filter((t) => t.path).map((t) => `/${app.id}/${t.path}`)]),
    ];
    expect(declared).toContain('/dev/sms-outbox');
    const untitled = paths.filter((path) => pageTitle(path, true).startsWith('Page not found'));
    expect(untitled).toEqual([]);
  });

  it('the console names the page on screen in the tab title', async () => {
    renderSignedIn('/settings/domain');
    await screen.findByRole('heading', { name: 'Domain' });
    await waitFor(() => expect(document.title).toBe('Domain · Settings · Switchboard'));
  });
});
