import { screen } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeBootstrap, renderSignedIn } from './helpers';

describe('Developers in ghost mode', () => {
  // a lazy page: compile it first so the test times the page, not the compiler
  beforeAll(() => import('../../src/pages/settings/developers'), 60_000);

  it('staff see the secrets masked with no way to copy them; the widget key can still be copied', async () => {
    const masked = { widgetKey: 'wk_public', secretKey: `sk_${'*'.repeat(43)}`, webhookSecret: '*'.repeat(32), revealed: false };
    renderSignedIn('/settings/developers', makeBootstrap(), { 'GET /api/accounts/developer': { body: masked } }, { ghost: true });
    await screen.findByTestId('key-Secret key');
    expect(screen.queryByRole('button', { name: 'Copy Secret key' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Copy Webhook secret' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Copy Widget key' })).toBeTruthy();
    expect(screen.getByText(/Hidden in ghost mode: only the account's own admins can copy or rotate it\./)).toBeTruthy();
  });

  it("staff see no Rotate for either key; the account's own admins do", async () => {
    const masked = { widgetKey: 'wk_public', secretKey: `sk_${'*'.repeat(43)}`, webhookSecret: '*'.repeat(32), revealed: false };
    const view = renderSignedIn(
      '/settings/developers',
      makeBootstrap(),
      { 'GET /api/accounts/developer': { body: masked } },
      { ghost: true },
    );
    await screen.findByTestId('key-Secret key');
    expect(screen.queryByRole('button', { name: /^Rotate/ })).toBeNull();
    view.unmount();
    const keys = { widgetKey: 'wk_public', secretKey: `sk_${'a'.repeat(43)}`, webhookSecret: 'b'.repeat(32), revealed: true };
    renderSignedIn('/settings/developers', makeBootstrap(), { 'GET /api/accounts/developer': { body: keys } });
    await screen.findByTestId('key-Secret key');
    expect(screen.getAllByRole('button', { name: /^Rotate/ }).map((b) => b.getAttribute('aria-label'))).toEqual([
      'Rotate Secret key',
      'Rotate Webhook secret',
    ]);
  });
});
