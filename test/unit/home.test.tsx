import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { here, makeBootstrap, renderSignedIn } from './helpers';

const card = (title: string) => screen.getByRole('heading', { name: new RegExp(`^${title}`) }).closest('li') as HTMLElement;

describe('home', () => {
  it('shows Start Free Trial on an inactive app', async () => {
    renderSignedIn('/', makeBootstrap({ status: { payments: 'inactive' } }));
    await screen.findByRole('heading', { name: 'Welcome, Olivia' });
    expect(within(card('Payments')).getByRole('button', { name: 'Start Free Trial' })).toBeTruthy();
  });

  it('says beside Start Free Trial what the trial gives and what it costs after', async () => {
    renderSignedIn('/', makeBootstrap({ status: { payments: 'inactive' } }));
    await screen.findByRole('heading', { name: 'Welcome, Olivia' });
    expect(within(card('Payments')).getByTestId('trial-terms').textContent).toMatch(
      /^Free for 14 days with 100 credits; then \$\d+\.\d\d a month if you subscribe$/,
    );
  });

  it('tells a supervisor an admin starts the trial, instead of a Start Free Trial the server would refuse', async () => {
    renderSignedIn('/', makeBootstrap({ role: 'supervisor', status: { payments: 'inactive' } }));
    await screen.findByRole('heading', { name: /^Welcome/ });
    expect(within(card('Payments')).queryByRole('button')).toBeNull();
    expect(within(card('Payments')).getByText('An admin of your account can start its free trial.')).toBeTruthy();
  });

  it('shows Launch app on an app that is not inactive', async () => {
    renderSignedIn('/', makeBootstrap({ status: { passkeys: 'subscription' } }));
    await screen.findByRole('heading', { name: 'Welcome, Olivia' });
    expect(within(card('Passkeys')).getByRole('link', { name: 'Launch app Passkeys' }).getAttribute('href')).toBe('/passkeys');
  });

  it('starts the free trial and opens the app with its tab bar', async () => {
    const { calls } = renderSignedIn('/', makeBootstrap({ status: { payments: 'inactive' } }), {
      'POST /api/payments/billing/free-trial': {
        status: 201,
        body: { status: 'free-trial', trialEndsAt: '2030-01-01T00:00:00Z' },
      },
      'GET /api/payments/billing/usage': { body: { status: 'ok', credits: 0, freeTier: 100 } },
    });
    await screen.findByRole('heading', { name: 'Welcome, Olivia' });
    fireEvent.click(within(card('Payments')).getByRole('button', { name: 'Start Free Trial' }));
    expect(await screen.findByRole('navigation', { name: 'Payments sections' })).toBeTruthy();
    expect(here()).toBe('/payments');
    const post = calls.find((c) => c.method === 'POST')!;
    expect(post.path).toBe('/api/payments/billing/free-trial');
    expect(JSON.parse(post.body)).toEqual({});
  });

  it('reports a free trial that did not start', async () => {
    renderSignedIn('/', makeBootstrap({ status: { payments: 'inactive' } }), {
      'POST /api/payments/billing/free-trial': { status: 403, body: { code: 'FORBIDDEN', message: 'Admins only' } },
    });
    await screen.findByRole('heading', { name: 'Welcome, Olivia' });
    fireEvent.click(within(card('Payments')).getByRole('button', { name: 'Start Free Trial' }));
    expect(await screen.findByText('Could not start the free trial')).toBeTruthy();
    expect(screen.getByText('Admins only')).toBeTruthy();
    expect(here()).toBe('/');
  });

  it('hides an unreleased app that is not in the bootstrap apps', async () => {
    renderSignedIn('/');
    await screen.findByRole('heading', { name: 'Welcome, Olivia' });
    expect(screen.queryByRole('heading', { name: /Identity Verification/ })).toBeNull();
  });

  it('shows an unreleased app to a provider-domain user whose bootstrap lists it', async () => {
    renderSignedIn('/', makeBootstrap({ email: 'staff@provider.test', apps: ['passkeys', 'identity-verification'] }));
    await screen.findByRole('heading', { name: 'Welcome, Olivia' });
    expect(screen.getByRole('heading', { name: /Identity Verification/ })).toBeTruthy();
  });

  it('answers an app address outside the bootstrap apps with page not found', async () => {
    renderSignedIn('/identity-verification');
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeTruthy();
  });

  it('each app card shows its own icon, not its initial: Passkeys and Payments no longer look alike', async () => {
    renderSignedIn('/', makeBootstrap());
    await screen.findByRole('heading', { name: 'Welcome, Olivia' });
    const icon = (title: string) => card(title).querySelector('.app-card-icon')!;
    for (const title of ['Passkeys', 'Payments']) {
      expect(icon(title).querySelector('svg')).toBeTruthy();
      expect(icon(title).textContent).toBe('');
    }
    expect(icon('Passkeys').innerHTML).not.toBe(icon('Payments').innerHTML);
  });

  it("owners and admins read each active card's usage this period beside Launch app", async () => {
    const bootstrap = makeBootstrap({ status: { passkeys: 'subscription', payments: 'inactive' } });
    bootstrap.billing.passkeys = { ...bootstrap.billing.passkeys, usage: { status: 'ok', credits: 1234, freeTier: 2000 } };
    renderSignedIn('/', bootstrap);
    await screen.findByRole('heading', { name: 'Welcome, Olivia' });
    expect(within(card('Passkeys')).getByTestId('app-card-usage').textContent).toBe('1,234 of 2,000 credits used this period');
    expect(within(card('Passkeys')).getByRole('link', { name: 'Launch app Passkeys' })).toBeTruthy();
    // an app not started has no period and shows none
    expect(within(card('Payments')).queryByTestId('app-card-usage')).toBeNull();
  });

  it('a supervisor sees no usage on the cards (credit info is for owners and admins)', async () => {
    const bootstrap = makeBootstrap({ role: 'supervisor', status: { passkeys: 'subscription' } });
    bootstrap.billing.passkeys = { ...bootstrap.billing.passkeys, usage: { status: 'ok', credits: 1234, freeTier: 2000 } };
    renderSignedIn('/', bootstrap);
    await screen.findByRole('heading', { name: /^Welcome/ });
    expect(within(card('Passkeys')).getByRole('link', { name: 'Launch app Passkeys' })).toBeTruthy();
    expect(screen.queryByTestId('app-card-usage')).toBeNull();
  });
});
