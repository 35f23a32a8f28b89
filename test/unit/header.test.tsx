import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { here, liveStream, makeBootstrap, makeToken, renderSignedIn, TOKEN_KEY } from './helpers';

const openSettingsMenu = async () => fireEvent.click(await screen.findByRole('button', { name: 'Settings menu' }));

describe('header', () => {
  // The search dialog is a lazy page; compile it before the tests that open it (see customer-search.test.tsx).
  beforeAll(() => import('../../src/pages/search'), 60_000);
  it('links the logo to the root', async () => {
    renderSignedIn('/passkeys');
    expect((await screen.findByRole('link', { name: 'Acme Support home' })).getAttribute('href')).toBe('/');
  });

  it('gives supervisors no header tools', async () => {
    renderSignedIn('/', makeBootstrap({ role: 'supervisor' }));
    await screen.findByRole('heading', { name: 'Welcome, Olivia' });
    expect(screen.queryByRole('button', { name: 'Settings menu' })).toBeNull();
    expect(screen.queryByRole('button', { name: /Search customers/ })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Notifications' })).toBeNull();
  });

  it('lists the settings menu entries for an admin, without Watch Tower', async () => {
    renderSignedIn('/', makeBootstrap({ role: 'admin' }));
    await openSettingsMenu();
    const menu = document.querySelector<HTMLElement>('.popover-panel')!;
    for (const name of ['Account Settings', 'Billing', 'Support', 'Resources', 'Contact sales', 'Report an issue'])
      expect(within(menu).getByRole('link', { name })).toBeTruthy();
    const status = screen.getByRole('link', { name: /System status/ });
    expect([status.getAttribute('target'), status.getAttribute('rel')]).toEqual(['_blank', 'noopener noreferrer']);
    expect(screen.getByRole('button', { name: 'Sign out' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Watch Tower' })).toBeNull();
  });

  it('offers Watch Tower in the settings menu to provider staff', async () => {
    renderSignedIn('/', makeBootstrap({ isRoot: true }));
    await openSettingsMenu();
    expect(screen.getByRole('link', { name: 'Watch Tower' }).getAttribute('href')).toBe('/watch-tower');
  });

  it('signs out to the sign-in page and forgets the token', async () => {
    renderSignedIn('/passkeys');
    await openSettingsMenu();
    fireEvent.click(screen.getByRole('button', { name: 'Sign out' }));
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeTruthy();
    expect(here()).toBe('/');
    expect(localStorage.getItem(TOKEN_KEY)).toBeNull();
  });

  it('signing out ends the session on the server with the token it forgets', async () => {
    const { calls } = renderSignedIn('/passkeys', makeBootstrap(), { 'POST /api/sign-out': { status: 204 } });
    const token = localStorage.getItem(TOKEN_KEY);
    await openSettingsMenu();
    fireEvent.click(screen.getByRole('button', { name: 'Sign out' }));
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeTruthy();
    const signOut = calls.find((c) => c.method === 'POST' && c.path === '/api/sign-out');
    expect(signOut?.headers.get('authorization')).toBe(`Bearer ${token}`);
    expect(localStorage.getItem(TOKEN_KEY)).toBeNull();
  });

  it('opens the customer search with Ctrl+K', async () => {
    renderSignedIn('/');
    await screen.findByRole('heading', { name: 'Welcome, Olivia' });
    fireEvent.keyDown(window, { key: 'k', ctrlKey: true });
    const dialog = await screen.findByRole('dialog', { name: 'Search customers' });
    expect(dialog.getAttribute('aria-modal')).toBe('true');
  });

  it('closes the customer search with Escape', async () => {
    renderSignedIn('/');
    fireEvent.click(await screen.findByRole('button', { name: /Search customers/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Search customers' });
    fireEvent.keyDown(dialog, { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it("follows the current app's credit usage as the live stream announces it, and only that app's", async () => {
    const live = liveStream();
    let credits = 10;
    const { calls } = renderSignedIn('/passkeys', makeBootstrap(), {
      'GET /api/passkeys/billing/usage': () => ({ body: { status: 'ok', credits, freeTier: 100 } }),
      'GET /api/live': live.route,
    });
    // the figure and its unit are apart in the markup (they stack in a narrow panel) but read as one
    const chipText = () => screen.queryByTestId('credit-info')?.textContent;
    await waitFor(() => expect(chipText()).toBe('10 / 100 credits'));
    await waitFor(() => expect(live.requests()).toBe(1));
    const reads = () => calls.filter((c) => c.path === '/api/passkeys/billing/usage').length;
    const before = reads();
    credits = 81;
    // another app's credits and a task change are none of the header's business
    live.send({ id: 7, kind: 'credits', app: 'one-time-passcode', ref: null }, '7');
    live.send({ id: 8, kind: 'task', app: 'passkeys', ref: '0b6f0f7e-3f4e-4d7c-9a55-2b1c8f0e6a11' }, '8');
    await new Promise((r) => setTimeout(r, 200));
    expect(reads()).toBe(before);
    expect(chipText()).toBe('10 / 100 credits');
    // its own app's: re-read once, shown at once (in red past 80 %), with no reload
    live.send({ id: 9, kind: 'credits', app: 'passkeys', ref: null }, '9');
    await waitFor(() => expect(chipText()).toMatch(/81 \/ 100 credits/));
    expect(screen.getByTestId('credit-info').classList.contains('credit-warning')).toBe(true);
    expect(reads()).toBe(before + 1);
    expect(calls.filter((c) => c.path === '/api/admins/bootstrap').length).toBe(1);
  });

  it('shows the credits of the current app in red at 80% of the free tier', async () => {
    renderSignedIn('/passkeys', makeBootstrap(), {
      'GET /api/passkeys/billing/usage': { body: { status: 'near-limit', credits: 80, freeTier: 100 } },
    });
    // the figure and its unit are apart in the markup (they stack in a narrow panel) but read as one
    const credits = await screen.findByText(
      (_, el) => !!el?.classList.contains('credit-info') && /80 \/ 100 credits/.test(el.textContent ?? ''),
    );
    expect(credits.classList.contains('credit-warning')).toBe(true);
  });

  it('shows the credits of the current app without warning below 80% of the free tier', async () => {
    renderSignedIn('/passkeys', makeBootstrap(), {
      'GET /api/passkeys/billing/usage': { body: { status: 'ok', credits: 79, freeTier: 100 } },
    });
    // the figure and its unit are apart in the markup (they stack in a narrow panel) but read as one
    const credits = await screen.findByText(
      (_, el) => !!el?.classList.contains('credit-info') && /79 \/ 100 credits/.test(el.textContent ?? ''),
    );
    expect(credits.classList.contains('credit-warning')).toBe(false);
  });

  it('shows Back to apps on settings pages only', async () => {
    renderSignedIn('/passkeys');
    await screen.findByRole('navigation', { name: 'Passkeys sections' });
    expect(screen.queryByRole('link', { name: /Back to apps/ })).toBeNull();
  });

  it('shows the ghost-mode banner when the token carries the ghost flag', async () => {
    renderSignedIn('/', makeBootstrap(), {}, { ghost: true, acc: 'acc_ghosted' });
    expect(await screen.findByRole('button', { name: /You're in ghost mode/ })).toBeTruthy();
  });

  it('ends ghost mode from the banner and opens the account in Watch Tower', async () => {
    const staffToken = makeToken({ root: true, acc: 'acc_provider' });
    const { calls } = renderSignedIn(
      '/',
      makeBootstrap({ isRoot: true }),
      { 'DELETE /api/ghost-mode': { body: { token: staffToken } } },
      { ghost: true, acc: 'acc_ghosted' },
    );
    fireEvent.click(await screen.findByRole('button', { name: /You're in ghost mode/ }));
    await waitFor(() => expect(here()).toBe('/watch-tower/accounts/acc_ghosted'));
    expect(localStorage.getItem(TOKEN_KEY)).toBe(staffToken);
    expect(calls.some((c) => c.method === 'DELETE' && c.path === '/api/ghost-mode')).toBe(true);
    await waitFor(() => expect(screen.queryByRole('button', { name: /You're in ghost mode/ })).toBeNull());
  });

  it('a supervisor, who has no settings menu, reaches Support and Resources from the footer', async () => {
    renderSignedIn('/', makeBootstrap({ role: 'supervisor' }));
    const help = await screen.findByRole('navigation', { name: 'Help' });
    expect([...help.querySelectorAll('a')].map((a) => [a.textContent, a.getAttribute('href')])).toEqual([
      ['Support', '/support'],
      ['Resources', '/resources'],
      ['Data Processing Addendum', '/legal/data-processing-addendum'],
    ]);
  });
});
