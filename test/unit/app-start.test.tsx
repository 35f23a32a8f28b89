import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { here, makeBootstrap, renderSignedIn } from './helpers';

afterEach(() => sessionStorage.clear());

describe("a sign-in link that names an app ('app start')", () => {
  it('starts the free trial of the named inactive app and opens it with its tab bar', async () => {
    const { calls } = renderSignedIn('/?app=payments', makeBootstrap({ status: { payments: 'inactive' } }), {
      'POST /api/apps/start': {
        body: { app: 'payments', started: true, billing: { status: 'free-trial', trialEndsAt: '2030-01-01T00:00:00Z' } },
      },
      'GET /api/payments/billing/usage': { body: { status: 'ok', credits: 0, freeTier: 100 } },
    });
    expect(await screen.findByRole('navigation', { name: 'Payments sections' })).toBeTruthy();
    expect(here()).toBe('/payments');
    const post = calls.find((c) => c.method === 'POST')!;
    expect(post.path).toBe('/api/apps/start');
    expect(JSON.parse(post.body)).toEqual({ app: 'payments' });
  });

  it('is remembered across the identity provider round trip and used once', async () => {
    sessionStorage.setItem('switchboard.startApp', 'passkeys');
    const { calls } = renderSignedIn('/', makeBootstrap({ status: { passkeys: 'subscription' } }), {
      'POST /api/apps/start': {
        body: { app: 'passkeys', started: false, billing: { status: 'subscription', trialEndsAt: null } },
      },
    });
    expect(await screen.findByRole('navigation', { name: 'Passkeys sections' })).toBeTruthy();
    expect(calls.filter((c) => c.path === '/api/apps/start')).toHaveLength(1);
    expect(sessionStorage.getItem('switchboard.startApp')).toBeNull();
  });

  it('ignores an app parameter that names no app', async () => {
    const { calls } = renderSignedIn('/?app=nonsense', makeBootstrap());
    await screen.findByRole('heading', { name: 'Welcome, Olivia' });
    expect(calls.some((c) => c.path === '/api/apps/start')).toBe(false);
  });

  it('says so when the app could not be started', async () => {
    renderSignedIn('/?app=payments', makeBootstrap({ status: { payments: 'inactive' } }), {
      'POST /api/apps/start': {
        status: 403,
        body: { code: 'FORBIDDEN', message: 'Ask an administrator of your account to start this app.' },
      },
    });
    expect(await screen.findByText('Could not open the app')).toBeTruthy();
    expect(screen.getByText('Ask an administrator of your account to start this app.')).toBeTruthy();
  });
});
