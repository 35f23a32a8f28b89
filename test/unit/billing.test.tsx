import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { BillingApp, BillingOverview } from '../../api/contract/billing';
import { plansOf } from '../../api/contract/plans';
import { STATE_MESSAGES } from '../../api/contract/stripe-states';
import { makeBootstrap, renderSignedIn } from './helpers';

const app = (over: Partial<BillingApp> & Pick<BillingApp, 'app' | 'status'>): BillingApp => ({
  plan: null,
  trialEndsAt: null,
  periodStart: null,
  periodEnd: null,
  cancelAtPeriodEnd: false,
  paymentFailed: false,
  checkoutOpen: false,
  subscribable: true,
  usage: { status: 'ok', credits: 0, freeTier: 0 },
  nextInvoice: null,
  ...over,
});

const OVERVIEW: BillingOverview = {
  configured: true,
  billingEmail: null,
  hasCustomer: true,
  apps: [
    app({
      app: 'passkeys',
      status: 'free-trial',
      plan: 'free-trial',
      trialEndsAt: '2030-01-15T00:00:00Z',
      usage: { status: 'near-limit', credits: 80, freeTier: 100 },
    }),
    app({
      app: 'one-time-passcode',
      status: 'subscription',
      plan: 'subscription',
      periodEnd: '2030-02-01T00:00:00Z',
      usage: { status: 'ok', credits: 79, freeTier: 100 },
    }),
    app({ app: 'payments', status: 'inactive' }),
    app({ app: 'e-form', status: 'enterprise', plan: 'enterprise' }),
    app({ app: 'document-signature', status: 'cancelled' }),
  ],
};

const routes = {
  'GET /api/billing': { body: OVERVIEW },
  'GET /api/billing/invoices': {
    body: {
      invoices: [
        {
          id: 'in_1',
          date: '2030-01-01T00:00:00Z',
          amountCents: 4900,
          currency: 'usd',
          status: 'paid',
          pdfUrl: 'https://files.example/in_1.pdf',
          hostedUrl: null,
        },
      ],
    },
  },
};

const card = (title: string) => screen.getByRole('region', { name: `${title} billing` });

describe('Settings > Billing', () => {
  it('shows each app with the action that fits its state', async () => {
    renderSignedIn('/settings/billing', makeBootstrap({ role: 'admin' }), routes);
    await screen.findByRole('region', { name: 'Passkeys billing' });
    expect(within(card('Passkeys')).getByRole('button', { name: 'Subscribe to Passkeys' })).toBeTruthy();
    expect(within(card('One-Time Passcode')).getByRole('link', { name: 'Manage One-Time Passcode billing' })).toBeTruthy();
    expect(within(card('Payments')).getByRole('button', { name: 'Start Free Trial of Payments' })).toBeTruthy();
    // the price before the button, as beside Subscribe
    expect(within(card('Payments')).getByTestId('trial-terms').textContent).toMatch(
      /^Free for 14 days with 100 credits; then \$\d+\.\d\d a month if you subscribe$/,
    );
    expect(within(card('eForm')).getByRole('link', { name: 'Contact sales about eForm' })).toBeTruthy();
    expect(within(card('Document Signature')).getByRole('button', { name: 'Subscribe to Document Signature' })).toBeTruthy();
  });

  it('turns the usage bar red at 80 % of the included credits and not below', async () => {
    renderSignedIn('/settings/billing', makeBootstrap({ role: 'admin' }), routes);
    await screen.findByRole('region', { name: 'Passkeys billing' });
    expect(within(card('Passkeys')).getByRole('progressbar').getAttribute('data-warning')).toBe('true');
    expect(within(card('One-Time Passcode')).getByRole('progressbar').getAttribute('data-warning')).toBeNull();
  });

  it('lists invoices with their PDF link', async () => {
    renderSignedIn('/settings/billing', makeBootstrap({ role: 'admin' }), routes);
    const link = await screen.findByRole('link', { name: /\(PDF\)/ });
    expect(link.getAttribute('href')).toBe('https://files.example/in_1.pdf');
    expect(screen.getByText('$49.00')).toBeTruthy();
  });

  it('refuses a malformed billing e-mail inline without calling the API', async () => {
    const { calls } = renderSignedIn('/settings/billing', makeBootstrap({ role: 'admin' }), routes);
    const input = await screen.findByLabelText('Invoices and receipts go to');
    fireEvent.change(input, { target: { value: 'nope' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Please provide a valid email address')).toBeTruthy();
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);
  });

  it('without Stripe billing on the server: says once who can set it up, and no Subscribe can be pressed', async () => {
    const off: BillingOverview = {
      ...OVERVIEW,
      configured: false,
      apps: OVERVIEW.apps.map((a) => ({ ...a, subscribable: false })),
    };
    renderSignedIn(
      '/settings/billing',
      { ...makeBootstrap({ role: 'admin' }), subscribable: [] },
      { ...routes, 'GET /api/billing': { body: off } },
    );
    await screen.findByRole('region', { name: 'Passkeys billing' });
    expect(screen.getAllByText(STATE_MESSAGES.BILLING_NOT_CONFIGURED)).toHaveLength(1);
    for (const name of ['Subscribe to Passkeys', 'Subscribe to Document Signature'])
      expect((screen.getByRole('button', { name }) as HTMLButtonElement).disabled).toBe(true);
    // what works without Stripe still does
    expect(
      (within(card('Payments')).getByRole('button', { name: 'Start Free Trial of Payments' }) as HTMLButtonElement).disabled,
    ).toBe(false);
  });

  it('says Stripe is the development stand-in when it is, and not otherwise', async () => {
    renderSignedIn('/settings/billing', { ...makeBootstrap({ role: 'admin' }), stripeStandIn: true }, routes);
    expect((await screen.findByTestId('stripe-stand-in')).textContent).toMatch(
      /^Development Stripe stand-in\. .*4242 4242 4242 4242/,
    );
  });

  it('says nothing of a stand-in with Stripe itself', async () => {
    renderSignedIn('/settings/billing', makeBootstrap({ role: 'admin' }), routes);
    await screen.findByRole('region', { name: 'Passkeys billing' });
    expect(screen.queryByTestId('stripe-stand-in')).toBeNull();
  });

  it('a subscribed app without a Stripe customer (the demo accounts) is not told that subscribing is still to come', async () => {
    const noCustomer: BillingOverview = { ...OVERVIEW, hasCustomer: false };
    renderSignedIn('/settings/billing', makeBootstrap({ role: 'admin' }), {
      ...routes,
      'GET /api/billing': { body: noCustomer },
      'GET /api/billing/invoices': { body: { invoices: [] } },
    });
    await screen.findByText('No invoices yet');
    expect(screen.getByText('No payment method is on file in Stripe for this account.')).toBeTruthy();
    expect(screen.getByText('Invoices appear here once Stripe issues one.')).toBeTruthy();
    expect(screen.queryByText(/when you first subscribe|once an app is subscribed/)).toBeNull();
  });

  it('before any subscription, says a payment method and invoices come with the first', async () => {
    const none: BillingOverview = {
      ...OVERVIEW,
      hasCustomer: false,
      apps: OVERVIEW.apps.filter((a) => a.status !== 'subscription'),
    };
    renderSignedIn('/settings/billing', makeBootstrap({ role: 'admin' }), {
      ...routes,
      'GET /api/billing': { body: none },
      'GET /api/billing/invoices': { body: { invoices: [] } },
    });
    await screen.findByText('No invoices yet');
    expect(screen.getByText('A payment method is added when you first subscribe.')).toBeTruthy();
    expect(screen.getByText('Invoices appear here once an app is subscribed.')).toBeTruthy();
  });

  it('names states with one vocabulary and keeps badges on one line', async () => {
    renderSignedIn('/settings/billing', makeBootstrap({ role: 'admin' }), routes);
    await screen.findByRole('region', { name: 'Passkeys billing' });
    expect(within(card('One-Time Passcode')).getByText('Subscribed').className).toContain('badge');
    expect(within(card('Payments')).getByText('Inactive')).toBeTruthy();
    expect(screen.queryByText('Not started')).toBeNull();
  });
});

describe('pricing', () => {
  it('shows the three plans with the figures of the plans module and marks the current one', async () => {
    renderSignedIn('/passkeys/pricing', makeBootstrap({ status: { passkeys: 'free-trial' } }));
    await screen.findByRole('heading', { name: 'Passkeys pricing', level: 1 });
    const plans = screen.getAllByRole('listitem').filter((li) => li.classList.contains('pricing-plan'));
    expect(plans).toHaveLength(3);
    const current = plans.find((p) => p.getAttribute('aria-current') === 'true')!;
    expect(within(current).getByText('Current plan')).toBeTruthy();
    expect(within(current).getByRole('heading').textContent).toMatch(/^Free trial/);
    expect(screen.getByText(`$${(plansOf('passkeys')!.monthlyPriceCents / 100).toFixed(2)} / month`)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Subscribe' })).toBeTruthy();
  });

  it('switches Subscribe off and says why where the server takes no subscription to the app', async () => {
    renderSignedIn('/passkeys/pricing', {
      ...makeBootstrap({ status: { passkeys: 'free-trial' } }),
      subscribable: ['one-time-passcode'],
    });
    await screen.findByRole('heading', { name: 'Passkeys pricing', level: 1 });
    expect((screen.getByRole('button', { name: 'Subscribe' }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByTestId('billing-not-configured').textContent).toBe(STATE_MESSAGES.BILLING_NOT_CONFIGURED);
  });
});

describe('a cancelled app', () => {
  it('opens under a cancelled notice with Subscribe', async () => {
    renderSignedIn('/passkeys', makeBootstrap({ status: { passkeys: 'cancelled' } }));
    expect(await screen.findByText(/Passkeys is cancelled/)).toBeTruthy();
    expect(screen.getAllByRole('button', { name: 'Subscribe' }).length).toBeGreaterThan(0);
  });
});
