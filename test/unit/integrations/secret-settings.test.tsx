import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { LoggingSettings } from '../../../api/contract/logging';
import { makeBootstrap, renderSignedIn } from '../helpers';

const SID = 'AC0123456789abcdef0123456789abcdef';
const view = (over: Partial<NonNullable<LoggingSettings['datadog']>> = {}) => ({
  connected: true as const,
  waiting: 0,
  pending: 0,
  lastError: null,
  failed: 0,
  failedError: null,
  fullPhoneNumbers: false,
  ...over,
});

describe('managing a connected integration keeps its secrets', () => {
  it('Manage Twilio shows an empty Auth Token that may stay blank, and saves without it', async () => {
    const twilio = { provider: 'twilio', twilio: { accountSid: SID, phoneNumber: '+14155550100' } };
    const { calls } = renderSignedIn('/settings/sms-configuration', makeBootstrap(), {
      'GET /api/sms': { body: twilio },
      'POST /api/sms': { body: twilio },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Manage Twilio' }));
    const dialog = await screen.findByRole('dialog', { name: 'Manage Twilio' });
    const token = within(dialog).getByLabelText('Auth Token') as HTMLInputElement;
    expect(token.value).toBe('');
    expect(token.required).toBe(false);
    expect(within(dialog).getByText('Leave blank to keep the current value')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await screen.findByText('Twilio has been configured');
    const post = calls.find((c) => c.method === 'POST' && c.path === '/api/sms')!;
    expect(JSON.parse(post.body)).toEqual({
      provider: 'twilio',
      twilio: { accountSid: SID, authToken: '', phoneNumber: '+14155550100' },
    });
  });

  it('Connect Twilio still asks for the Auth Token', async () => {
    const { calls } = renderSignedIn('/settings/sms-configuration', makeBootstrap(), {
      'GET /api/sms': { body: { provider: null } },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Connect Twilio' }));
    const dialog = await screen.findByRole('dialog', { name: 'Connect Twilio' });
    fireEvent.change(within(dialog).getByLabelText(/Account SID/), { target: { value: SID } });
    fireEvent.change(within(dialog).getByLabelText(/Phone number/), { target: { value: '+14155550100' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Auth Token is required')).toBeTruthy();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('Manage CloudWatch leaves both keys blank with the hint, and saves the other settings', async () => {
    const settings: LoggingSettings = { cloudwatch: { ...view(), region: 'eu-west-2', logGroup: '/acme' } };
    const { calls } = renderSignedIn('/settings/logging', makeBootstrap(), {
      'GET /api/logging': { body: settings },
      'POST /api/logging': { body: settings },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Manage CloudWatch' }));
    const dialog = await screen.findByRole('dialog', { name: 'Manage CloudWatch' });
    expect((within(dialog).getByLabelText(/AWS Secret Access Key/) as HTMLInputElement).value).toBe('');
    expect(within(dialog).getAllByText('Leave blank to keep the current value')).toHaveLength(2);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await screen.findByText('CloudWatch has been configured');
    const post = calls.find((c) => c.method === 'POST' && c.path === '/api/logging')!;
    expect(JSON.parse(post.body)).toEqual({
      destination: 'cloudwatch',
      cloudwatch: { accessKeyId: '', secretAccessKey: '', region: 'eu-west-2', logGroup: '/acme' },
    });
  });

  it('Connect Sumo Logic still asks for the Collector URL', async () => {
    renderSignedIn('/settings/logging', makeBootstrap(), { 'GET /api/logging': { body: {} } });
    fireEvent.click(await screen.findByRole('button', { name: 'Connect Sumo Logic' }));
    const dialog = await screen.findByRole('dialog', { name: 'Connect Sumo Logic' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Collector URL is required')).toBeTruthy();
  });
});

describe('logging: events that could not be delivered', () => {
  it('a card with given-up events says how many, why, and Retry sends them again', async () => {
    let failed = 3;
    const settings = (): LoggingSettings => ({
      rapid7: view({
        failed,
        failedError: failed ? 'The destination answered 503' : null,
        waiting: 3 - failed,
        pending: 3 - failed,
      }),
    });
    const { calls } = renderSignedIn('/settings/logging', makeBootstrap(), {
      'GET /api/logging': () => ({ body: settings() }),
      'POST /api/logging/retry': () => {
        failed = 0;
        return { body: settings() };
      },
    });
    const card = await waitFor(() => {
      const el = document.querySelector('[data-integration="rapid7"]') as HTMLElement | null;
      if (!el?.textContent?.includes('could not be delivered')) throw new Error('not yet');
      return el;
    });
    expect(within(card).getByText('3 events could not be delivered')).toBeTruthy();
    expect(within(card).getByText('Last error: The destination answered 503')).toBeTruthy();
    fireEvent.click(within(card).getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(within(card).queryByText(/could not be delivered/)).toBeNull());
    expect(within(card).getByText(/3 events waiting/)).toBeTruthy();
    const post = calls.find((c) => c.method === 'POST' && c.path === '/api/logging/retry')!;
    expect(JSON.parse(post.body)).toEqual({ destination: 'rapid7' });
  });

  it('a card without given-up events shows no Retry', async () => {
    renderSignedIn('/settings/logging', makeBootstrap(), {
      'GET /api/logging': { body: { datadog: { ...view(), site: 'eu' } } },
    });
    await screen.findByRole('button', { name: 'Manage Datadog' });
    expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull();
  });
});

describe('logging: full phone numbers per destination', () => {
  it('a connected card has a Send full phone numbers checkbox that opts that destination in', async () => {
    let full = false;
    const { calls } = renderSignedIn('/settings/logging', makeBootstrap(), {
      'GET /api/logging': () => ({ body: { sumologic: view({ fullPhoneNumbers: full }) } }),
      'PUT /api/privacy/full-numbers/logging/sumologic': async (req: Request) => {
        full = ((await req.json()) as { fullPhoneNumbers: boolean }).fullPhoneNumbers;
        return { body: { destination: 'sumologic', fullPhoneNumbers: full } };
      },
    });
    const card = await waitFor(() => {
      const el = document.querySelector('[data-integration="sumologic"]') as HTMLElement | null;
      if (!el?.textContent?.includes('Send full phone numbers')) throw new Error('not yet');
      return el;
    });
    const box = within(card).getByRole('checkbox', { name: /Send full phone numbers/ }) as HTMLInputElement;
    expect(box.checked).toBe(false);
    fireEvent.click(box);
    await screen.findByText('Log shipments to Sumo Logic now carry full phone numbers');
    const put = calls.find((c) => c.method === 'PUT' && c.path === '/api/privacy/full-numbers/logging/sumologic')!;
    expect(JSON.parse(put.body)).toEqual({ fullPhoneNumbers: true });
    await waitFor(() =>
      expect((within(card).getByRole('checkbox', { name: /Send full phone numbers/ }) as HTMLInputElement).checked).toBe(true),
    );
  });

  it('a destination not connected has no full phone numbers checkbox', async () => {
    renderSignedIn('/settings/logging', makeBootstrap(), {
      'GET /api/logging': { body: { datadog: { ...view(), site: 'eu' } } },
    });
    await screen.findByRole('button', { name: 'Manage Datadog' });
    expect(screen.getAllByRole('checkbox', { name: /Send full phone numbers/ })).toHaveLength(1);
  });
});
