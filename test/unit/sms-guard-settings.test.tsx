import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { SMS_GUARD_DEFAULT_RULES, type SmsGuard } from '../../api/contract/sms-guard';
import { OTP_ACTIONS } from '../../api/contract/apps/one-time-passcode';
import type { AgentAppsAnswer } from '../../api/contract/platform';
import { UnauthorizedCard } from '../../hosts/UnauthorizedCard';
import { makeBootstrap, makeToken, mockApi, renderSignedIn } from './helpers';

const twilio = { provider: 'twilio', twilio: { accountSid: 'AC0123456789abcdef0123456789abcdef', phoneNumber: '+14155550100' } };
const guard = (over: Partial<SmsGuard> = {}): SmsGuard => ({
  allowedCountries: ['US'],
  isDefault: true,
  rules: SMS_GUARD_DEFAULT_RULES,
  pumpingGuard: true,
  holds: [],
  countries: [
    { code: 'US', callingCode: '1' },
    { code: 'CA', callingCode: '1' },
    { code: 'GB', callingCode: '44' },
  ],
  ...over,
});

describe('Settings > SMS Configuration: the fraud guard', () => {
  it('lists the allowed countries by name, adds one and saves the list', async () => {
    const { calls } = renderSignedIn('/settings/sms-configuration', makeBootstrap(), {
      'GET /api/sms': { body: twilio },
      'GET /api/sms/guard': { body: guard() },
      'PUT /api/sms/guard': { body: guard({ allowedCountries: ['CA', 'US'], isDefault: false }) },
    });
    const form = await screen.findByRole('form', { name: 'SMS fraud guard' });
    expect(within(form).getByText('Until you choose, the country of your sender number.')).toBeTruthy();
    expect(within(form).getByText(/United States \(US\)/)).toBeTruthy();
    fireEvent.change(within(form).getByLabelText('Add a country'), { target: { value: 'CA' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Add' }));
    expect(within(form).getByRole('button', { name: 'Remove Canada' })).toBeTruthy();
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    await screen.findByText('The SMS fraud guard has been saved');
    const put = calls.find((c) => c.method === 'PUT')!;
    expect(JSON.parse(put.body)).toEqual({ allowedCountries: ['US', 'CA'], pumpingGuard: true, rules: SMS_GUARD_DEFAULT_RULES });
  });

  it('refuses to save no country at all, with the message at the list', async () => {
    const { calls } = renderSignedIn('/settings/sms-configuration', makeBootstrap(), {
      'GET /api/sms': { body: twilio },
      'GET /api/sms/guard': { body: guard() },
    });
    const form = await screen.findByRole('form', { name: 'SMS fraud guard' });
    fireEvent.click(within(form).getByRole('button', { name: 'Remove United States' }));
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    expect(await within(form).findByText('Allow at least one country')).toBeTruthy();
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);
  });

  it('shows a held range with its reason and releases it after confirmation', async () => {
    const hold = {
      prefix: '+370600',
      country: 'LT',
      heldAt: '2026-11-25T10:00:00.000Z',
      heldUntil: '2026-11-25T11:00:00.000Z',
      reason: '21 SMS in the last hour, above 5 × the usual 0.0 an hour + 20',
    };
    const { calls } = renderSignedIn('/settings/sms-configuration', makeBootstrap(), {
      'GET /api/sms': { body: twilio },
      'GET /api/sms/guard': { body: guard({ holds: [hold] }) },
      'POST /api/sms/guard/holds/%2B370600/release': { body: guard() },
    });
    expect(await screen.findByText(/\+370600… \(Lithuania\)/)).toBeTruthy();
    expect(screen.getByText(/21 SMS in the last hour/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Release' }));
    const dialog = await screen.findByRole('dialog', { name: 'Release +370600…?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Release' }));
    await screen.findByText('No number range is held.');
    expect(calls.some((c) => c.method === 'POST' && c.path === '/api/sms/guard/holds/%2B370600/release')).toBe(true);
  });
});

describe("the agent's panel", () => {
  it('shows the refusal of a country that is not allowed, naming it', async () => {
    const apps: AgentAppsAnswer = {
      apps: [{ id: 'one-time-passcode', title: 'One-Time Passcode', color: '#059669', actions: OTP_ACTIONS }],
      timeZone: 'UTC',
    };
    const message =
      'SMS to Canada (CA) are not allowed for this account. An admin can allow the country under Settings > SMS Configuration.';
    mockApi({
      'GET /api/agent/apps': { body: apps },
      'POST /api/one-time-passcode/actions/send': { status: 403, body: { code: 'COUNTRY_NOT_ALLOWED', message } },
    });
    render(<UnauthorizedCard agentToken={makeToken({ role: 'supervisor' })} />);
    fireEvent.click(await screen.findByRole('button', { name: 'One-Time Passcode' }));
    const form = await screen.findByRole('form', { name: 'Send passcode' });
    fireEvent.change(within(form).getByLabelText(/Phone number/), { target: { value: '+16042345678' } });
    fireEvent.change(within(form).getByLabelText(/Customer ID/), { target: { value: 'CUST-7' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Send passcode' }));
    await waitFor(() => expect(within(form).getByRole('alert').textContent).toBe(message));
  });
});
