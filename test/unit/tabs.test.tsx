import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { getApp } from '../../api/contract/apps';
import { visibleTabs } from '../../src/app/AppTabs';
import { makeBootstrap, renderSignedIn } from './helpers';

const labels = (appId: string, role: 'owner' | 'admin' | 'supervisor') => visibleTabs(getApp(appId)!, role).map((t) => t.label);

describe('per-app tabs', () => {
  it('shows admins every tab of document signature', () => {
    expect(labels('document-signature', 'admin')).toEqual(['Dashboard', 'Signatures', 'Documents', 'Configuration']);
  });

  it('hides Documents and Configuration from supervisors in document signature', () => {
    expect(labels('document-signature', 'supervisor')).toEqual(['Dashboard', 'Signatures']);
  });

  it('hides Forms and Configuration from supervisors in eForm', () => {
    expect(labels('e-form', 'supervisor')).toEqual(['Dashboard', 'Submissions']);
  });

  it('keeps Product Catalog visible to supervisors in payments', () => {
    expect(labels('payments', 'supervisor')).toEqual(['Dashboard', 'Payments', 'Product Catalog']);
  });

  it('gives identity verification exactly the three tabs of SPEC §2 (the review queue is a view of Verifications)', () => {
    expect(labels('identity-verification', 'admin')).toEqual(['Dashboard', 'Verifications', 'Configuration']);
    expect(getApp('identity-verification')!.routes).not.toContain('review');
  });

  it('gives the owner the admin-only tabs', () => {
    expect(labels('one-time-passcode', 'owner')).toEqual(['Dashboard', 'Authentications', 'Configuration']);
  });

  it('shows the tab bar of an app on a free trial', async () => {
    renderSignedIn('/passkeys');
    const nav = await screen.findByRole('navigation', { name: 'Passkeys sections' });
    expect(
      within(nav)
        .getAllByRole('link')
        .map((l) => l.textContent),
    ).toEqual(['Dashboard', 'Activity', 'Enrollments', 'Configuration']);
    expect(within(nav).getByRole('link', { name: 'Dashboard' }).getAttribute('aria-current')).toBe('page');
  });

  it('brings the current tab into the bar on every move, and survives a browser whose scrollIntoView answers a promise (Chromium)', async () => {
    const scrolled: string[] = [];
    const spy = vi.spyOn(Element.prototype, 'scrollIntoView').mockImplementation(function (this: Element) {
      scrolled.push(this.textContent ?? '');
      return Promise.resolve() as unknown as void;
    });
    try {
      renderSignedIn('/passkeys');
      const nav = await screen.findByRole('navigation', { name: 'Passkeys sections' });
      await waitFor(() => expect(scrolled).toContain('Dashboard'));
      fireEvent.click(within(nav).getByRole('link', { name: 'Activity' }));
      await waitFor(() => expect(scrolled).toContain('Activity'));
      fireEvent.click(within(nav).getByRole('link', { name: 'Configuration' }));
      await waitFor(() => expect(scrolled).toContain('Configuration'));
      expect(screen.queryByText('Something went wrong')).toBeNull();
    } finally {
      spy.mockRestore();
    }
  });

  it('hides the tab bar while the app is inactive', async () => {
    renderSignedIn('/passkeys', makeBootstrap({ status: { passkeys: 'inactive' } }));
    expect(await screen.findByRole('button', { name: 'Start Free Trial' })).toBeTruthy();
    expect(screen.queryByRole('navigation', { name: 'Passkeys sections' })).toBeNull();
  });

  it('shows a supervisor the tab bar without Configuration', async () => {
    renderSignedIn('/passkeys/activity', makeBootstrap({ role: 'supervisor' }));
    const nav = await screen.findByRole('navigation', { name: 'Passkeys sections' });
    expect(within(nav).queryByRole('link', { name: 'Configuration' })).toBeNull();
    expect(within(nav).getByRole('link', { name: 'Activity' }).getAttribute('aria-current')).toBe('page');
  });
});
