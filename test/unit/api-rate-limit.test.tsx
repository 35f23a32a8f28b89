import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { AccountDetail } from '../../api/contract/watch-tower';
import { makeBootstrap, renderSignedIn } from './helpers';

const ID = '6f1c2b9a-0000-4000-8000-00000000a11c';
const detail: AccountDetail = {
  id: ID,
  name: 'Acme',
  provider: 'zoom',
  createdAt: '2026-01-01T00:00:00.000Z',
  apps: [],
  admins: [],
  smsHeldRanges: 2,
  apiRateLimit: { perSecond: 20, burst: 40, isDefault: true },
};
// the charts are another test's subject: their request fails here and the page says so
const empty = { status: 503, body: { code: 'UNAVAILABLE', message: 'Statistics are resting' } };

describe('the /api/v1 rate limit', () => {
  it('Settings > Developers shows the limit and the burst in use, read-only', async () => {
    renderSignedIn('/settings/developers', makeBootstrap(), {
      'GET /api/accounts/developer': { body: { widgetKey: 'wk_1', secretKey: 'sk_1', webhookSecret: 'whsec_1', revealed: true } },
      'GET /api/accounts/developer/rate-limit': { body: { perSecond: 100, burst: 200, isDefault: false, used: 12 } },
    });
    const list = await screen.findByLabelText('API rate limit');
    expect(within(list).getByText(/100 requests a second, bursts of 200/)).toBeTruthy();
    expect(within(list).getByText(/12 of 200/)).toBeTruthy();
    expect(screen.queryByRole('textbox', { name: /Requests per second/ })).toBeNull();
  });

  it('provider staff see the SMS flag and set the limit of an account in Watch Tower', async () => {
    const { calls } = renderSignedIn('/watch-tower/accounts/' + ID, makeBootstrap({ isRoot: true }), {
      [`GET /api/watch-tower/accounts/${ID}`]: { body: detail },
      'GET /api/watch-tower/statistics/account': empty,
      [`PUT /api/watch-tower/accounts/${ID}/api-rate-limit`]: { body: { perSecond: 150, burst: 300, isDefault: false } },
    });
    expect(await screen.findByText(/Suspected SMS pumping: the fraud guard holds 2 number ranges/)).toBeTruthy();
    const form = await screen.findByRole('form', { name: 'API rate limit' });
    fireEvent.change(within(form).getByLabelText(/Requests per second/), { target: { value: '150' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    await screen.findByText('The API rate limit is 150 requests a second');
    const put = calls.find((c) => c.method === 'PUT')!;
    expect(JSON.parse(put.body)).toEqual({ perSecond: 150 });
    await waitFor(() => expect(screen.getByText(/Now 150 requests a second, bursts of 300/)).toBeTruthy());
  });

  it('a limit below one is refused at the field before anything is sent', async () => {
    const { calls } = renderSignedIn('/watch-tower/accounts/' + ID, makeBootstrap({ isRoot: true }), {
      [`GET /api/watch-tower/accounts/${ID}`]: { body: detail },
      'GET /api/watch-tower/statistics/account': empty,
    });
    const form = await screen.findByRole('form', { name: 'API rate limit' });
    fireEvent.change(within(form).getByLabelText(/Requests per second/), { target: { value: '0' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    expect(await within(form).findByText('Requests per second must be at least 1')).toBeTruthy();
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);
  });
});
