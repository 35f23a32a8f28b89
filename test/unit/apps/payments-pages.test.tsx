import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { Product, StripeConnection } from '../../../api/contract/apps/payments';
import { PAYMENT_ACTIONS } from '../../../api/contract/apps/payments';
import type { DashboardAnswer, TaskDetail } from '../../../api/contract/platform';
import { makeBootstrap, renderSignedIn } from '../helpers';
import { STATE_MESSAGES } from '../../../api/contract/stripe-states';

vi.mock('../../../src/ui/Chart', () => ({
  default: ({ title }: { title: string }) => <figure data-testid="chart">{title}</figure>,
}));

const ID = '0b6f0f7e-3f4e-4d7c-9a55-2b1c8f0e6a11';
const NOT_CONNECTED: StripeConnection = {
  connected: false,
  configured: true,
  accountId: null,
  name: null,
  country: null,
  defaultCurrency: null,
  chargesEnabled: false,
  connectedAt: null,
};
const NOT_CONFIGURED: StripeConnection = { ...NOT_CONNECTED, configured: false };
const CONNECTED: StripeConnection = {
  connected: true,
  configured: true,
  accountId: 'acct_1AbC',
  name: 'Acme Payments',
  country: 'JP',
  defaultCurrency: 'jpy',
  chargesEnabled: true,
  connectedAt: '2026-11-20T10:00:00Z',
};
const PRODUCTS: Product[] = [
  {
    id: 'prod_A1',
    name: 'Parking',
    description: null,
    active: true,
    priceId: 'price_1',
    unitAmount: 500,
    currency: 'jpy',
    updatedAt: '2026-11-20T10:00:00Z',
  },
  {
    id: 'prod_B2',
    name: 'Annual plan',
    description: 'One year',
    active: false,
    priceId: 'price_2',
    unitAmount: 9900,
    currency: 'usd',
    updatedAt: '2026-11-20T10:00:00Z',
  },
];

describe('Payments pages', () => {
  it('the catalog says no Stripe account is connected and who connects one (a supervisor gets no link to a page they cannot open)', async () => {
    renderSignedIn('/payments/products', makeBootstrap({ role: 'supervisor' }), {
      'GET /api/payments/stripe': { body: NOT_CONNECTED },
    });
    await screen.findByText(STATE_MESSAGES.STRIPE_NOT_CONNECTED);
    expect(screen.queryByRole('button', { name: 'Add a product' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Open Configuration > Stripe' })).toBeNull();
  });

  it('without Stripe Connect on the server, Configuration > Stripe says so once, names who can fix it, and offers no button that is not there', async () => {
    renderSignedIn('/payments/settings/stripe', makeBootstrap({ role: 'admin' }), {
      'GET /api/payments/stripe': { body: NOT_CONFIGURED },
    });
    await screen.findByText(STATE_MESSAGES.STRIPE_CONNECT_NOT_CONFIGURED);
    expect(screen.queryByRole('button', { name: 'Connect with Stripe' })).toBeNull();
    expect(document.body.textContent).not.toMatch(/Select Connect with Stripe/);
    expect(screen.getAllByText(STATE_MESSAGES.STRIPE_CONNECT_NOT_CONFIGURED)).toHaveLength(1);
  });

  it('Request a payment is switched off with the same sentence when the server has no Stripe Connect', async () => {
    renderSignedIn('/payments', makeBootstrap(), {
      'GET /api/payments/dashboard': { body: { app: 'payments', days: 30, timeZone: 'UTC', tiles: [], series: [], latest: [] } },
      'GET /api/payments/actions': {
        body: {
          app: 'payments',
          actions: PAYMENT_ACTIONS,
          unavailable: { code: 'STRIPE_CONNECT_NOT_CONFIGURED', message: STATE_MESSAGES.STRIPE_CONNECT_NOT_CONFIGURED },
        },
      },
    });
    const form = await screen.findByRole('form', { name: 'Request a payment' });
    expect((within(form).getByRole('button', { name: 'Request a payment' }) as HTMLButtonElement).disabled).toBe(true);
    // the fields are switched off with their fieldset
    expect(
      (
        within(form)
          .getByLabelText(/Phone number/)
          .closest('fieldset') as HTMLFieldSetElement
      ).disabled,
    ).toBe(true);
    expect(screen.getAllByText(STATE_MESSAGES.STRIPE_CONNECT_NOT_CONFIGURED)).toHaveLength(1);
    expect(document.body.textContent).not.toMatch(/temporarily/);
  });

  it('an empty dashboard names its first step with the action itself, not "Send your first request a payment"', async () => {
    renderSignedIn('/payments', makeBootstrap(), {
      'GET /api/payments/dashboard': { body: { app: 'payments', days: 30, timeZone: 'UTC', tiles: [], series: [], latest: [] } },
      'GET /api/payments/actions': { body: { app: 'payments', actions: PAYMENT_ACTIONS } },
    });
    expect(await screen.findByRole('heading', { name: 'Get started: Request a payment' })).toBeTruthy();
    expect(document.body.textContent).not.toMatch(/your first request/);
  });

  it('the catalog lists prices in their currency (zero-decimal right); supervisors read, admins edit', async () => {
    renderSignedIn('/payments/products', makeBootstrap({ role: 'supervisor' }), {
      'GET /api/payments/stripe': { body: CONNECTED },
      'GET /api/payments/products': { body: PRODUCTS },
    });
    const table = await screen.findByRole('table', { name: 'Products' });
    expect(within(table).getByText('¥500')).toBeTruthy();
    expect(within(table).getByText('$99.00')).toBeTruthy();
    expect(within(table).getByText('Archived')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Edit' })).toBeNull();
  });

  it('an admin adds a product: the price typed in major units is sent in minor units', async () => {
    const { calls } = renderSignedIn('/payments/products', makeBootstrap({ role: 'admin' }), {
      'GET /api/payments/stripe': { body: CONNECTED },
      'GET /api/payments/products': { body: PRODUCTS },
      'POST /api/payments/products': { status: 201, body: PRODUCTS[0] },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Add a product' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText(/Name/), { target: { value: 'Valet' } });
    fireEvent.change(within(dialog).getByLabelText(/Price/), { target: { value: '1500' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST' && c.path === '/api/payments/products')).toBe(true));
    const post = calls.find((c) => c.method === 'POST' && c.path === '/api/payments/products')!;
    expect(JSON.parse(post.body)).toMatchObject({ name: 'Valet', unitAmount: 1500, currency: 'jpy' });
  });

  it('the dashboard shows money tiles in the currency and the connect notice when needed', async () => {
    const dash: DashboardAnswer = {
      app: 'payments',
      days: 30,
      timeZone: 'UTC',
      tiles: [
        { key: 'net', label: 'Net volume after refunds (USD)', value: 123_450, previous: 0, format: 'money', currency: 'usd' },
        { key: 'success', label: 'Success rate', value: 75, previous: 50, format: 'percent' },
        { key: 'requests', label: 'Requests sent', value: 4, previous: 2, format: 'count' },
        { key: 'refunded', label: 'Refunded (USD)', value: 500, previous: 0, format: 'money', currency: 'usd' },
      ],
      series: [{ key: 'net', label: 'Net volume (USD)', currency: 'usd', points: [{ date: '2026-11-22', value: 123_450 }] }],
      latest: [],
    };
    renderSignedIn('/payments', makeBootstrap(), {
      'GET /api/payments/stripe': { body: NOT_CONNECTED },
      'GET /api/payments/dashboard': { body: dash },
      'GET /api/payments/actions': {
        body: {
          app: 'payments',
          actions: PAYMENT_ACTIONS,
          unavailable: { code: 'STRIPE_NOT_CONNECTED', message: STATE_MESSAGES.STRIPE_NOT_CONNECTED },
        },
      },
    });
    expect((await screen.findByTestId('kpi-net')).textContent).toContain('$1,234.50');
    expect(screen.getByTestId('kpi-refunded').textContent).toContain('$5.00');
    await screen.findByText(STATE_MESSAGES.STRIPE_NOT_CONNECTED);
  });

  it('a success rate with no request sent in the period reads "—", not 0 %', async () => {
    const dash: DashboardAnswer = {
      app: 'payments',
      days: 30,
      timeZone: 'UTC',
      tiles: [
        { key: 'success', label: 'Success rate', value: null, previous: 50, format: 'percent' },
        { key: 'requests', label: 'Requests sent', value: 0, previous: 2, format: 'count' },
      ],
      series: [],
      latest: [],
    };
    renderSignedIn('/payments', makeBootstrap(), {
      'GET /api/payments/stripe': { body: NOT_CONNECTED },
      'GET /api/payments/dashboard': { body: dash },
      'GET /api/payments/actions': {
        body: {
          app: 'payments',
          actions: PAYMENT_ACTIONS,
          unavailable: { code: 'STRIPE_NOT_CONNECTED', message: STATE_MESSAGES.STRIPE_NOT_CONNECTED },
        },
      },
    });
    const tile = await screen.findByTestId('kpi-success');
    expect(tile.querySelector('.kpi-value')!.textContent).toBe('—');
    expect(tile.textContent).toContain('none this period');
    expect(tile.textContent).not.toContain('0%');
  });

  it('an admin refunds part of a payment after a confirmation', async () => {
    const detail: TaskDetail = {
      id: ID,
      status: 'succeeded',
      phoneNumber: '+1 •••• •• 4567',
      customerRef: 'CUST-1',
      agent: 'ann@acme.test',
      createdAt: '2026-11-22T10:00:00Z',
      endedAt: '2026-11-22T10:05:00Z',
      values: {
        amount: 1250,
        currency: 'usd',
        refunded: 0,
        product: 'Consultation',
        paidAt: '2026-11-22T10:05:00Z',
        checkoutSessionId: 'cs_1',
        paymentIntentId: 'pi_1',
      },
      events: [],
    };
    const { calls } = renderSignedIn(`/payments/payments?session=${ID}`, makeBootstrap({ role: 'admin' }), {
      'GET /api/payments/tasks': { body: [] },
      [`GET /api/payments/tasks/${ID}`]: { body: detail },
      [`POST /api/payments/tasks/${ID}/refund`]: { body: { refundedAmount: 500 } },
    });
    const panel = await screen.findByRole('dialog');
    fireEvent.change(await within(panel).findByLabelText(/Amount in USD/), { target: { value: '5' } });
    fireEvent.click(within(panel).getByRole('button', { name: 'Refund' }));
    const confirm = await screen.findByRole('dialog', { name: 'Refund $5.00?' });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Refund' }));
    await waitFor(() =>
      expect(calls.some((c) => c.method === 'POST' && c.path === `/api/payments/tasks/${ID}/refund`)).toBe(true),
    );
    expect(JSON.parse(calls.find((c) => c.method === 'POST')!.body)).toEqual({ amount: 500 });
  });
});
