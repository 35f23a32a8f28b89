import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { OTP_ACTIONS } from '../../../api/contract/apps/one-time-passcode';
import { PASSKEY_ACTIONS } from '../../../api/contract/apps/passkeys';
import type { ActionResult, AgentAppsAnswer } from '../../../api/contract/platform';
import { outcomeOfToken } from '../../../hosts/outcome';
import { UnauthorizedCard } from '../../../hosts/UnauthorizedCard';
import { makeToken, mockApi } from '../helpers';
import { consoleTimeZone, setConsoleTimeZone } from '../../../src/ui/format';

const ID = '0b6f0f7e-3f4e-4d7c-9a55-2b1c8f0e6a11';
const apps: AgentAppsAnswer = {
  apps: [{ id: 'one-time-passcode', title: 'One-Time Passcode', color: '#059669', actions: OTP_ACTIONS }],
  timeZone: 'UTC',
};

describe('Agent Preview', () => {
  it('keeps the session of a host user without admin access for the agent functions', () => {
    const token = makeToken({ role: 'supervisor' });
    expect(outcomeOfToken(token)).toEqual({ outcome: 'unauthorized', agentToken: token });
  });

  it("shows the panel's dates in the account's time zone, which an agent session learns with its apps", async () => {
    setConsoleTimeZone(undefined);
    const token = makeToken({ role: 'supervisor' });
    mockApi({ 'GET /api/agent/apps': { body: { ...apps, timeZone: 'Pacific/Honolulu' } } });
    render(<UnauthorizedCard agentToken={token} />);
    await screen.findByRole('button', { name: 'One-Time Passcode' });
    expect(consoleTimeZone()).toBe('Pacific/Honolulu');
    setConsoleTimeZone(undefined);
  });

  it('lets an agent pick an active app, send a passcode with its own session and see the status', async () => {
    const token = makeToken({ role: 'supervisor' });
    const sent: ActionResult = { taskId: ID, status: 'pending', message: 'Passcode sent to +1 •••• •• 4567', task: {} };
    const { calls } = mockApi({
      'GET /api/agent/apps': { body: apps },
      'POST /api/one-time-passcode/actions/send': { status: 201, body: sent },
    });
    render(<UnauthorizedCard agentToken={token} />);
    expect(screen.getByRole('heading', { name: "You're not yet authorized" })).toBeTruthy();
    fireEvent.click(await screen.findByRole('button', { name: 'One-Time Passcode' }));
    const form = await screen.findByRole('form', { name: 'Send passcode' });
    fireEvent.change(within(form).getByLabelText(/Phone number/), { target: { value: '+15551234567' } });
    fireEvent.change(within(form).getByLabelText(/Customer ID/), { target: { value: 'CUST-7' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Send passcode' }));
    await waitFor(() => expect(screen.getByTestId('action-status').textContent).toContain('Passcode sent to +1 •••• •• 4567'));
    const post = calls.find((c) => c.method === 'POST')!;
    expect(post.headers.get('authorization')).toBe(`Bearer ${token}`);
    expect(JSON.parse(post.body)).toEqual({ input: { phoneNumber: '+15551234567', customerRef: 'CUST-7' } });
    expect(await screen.findByRole('form', { name: 'Check code' })).toBeTruthy();
  });

  it('while the passkey link is out, says what is happening first and offers Cancel the link as a secondary button below it', async () => {
    const token = makeToken({ role: 'supervisor' });
    const sent: ActionResult = {
      taskId: ID,
      status: 'pending',
      message: 'Verification link sent to +1 •••• •• 4567. Waiting for the caller to open it.',
      task: {},
    };
    mockApi({
      'GET /api/agent/apps': {
        body: { apps: [{ id: 'passkeys', title: 'Passkeys', color: '#7c3aed', actions: PASSKEY_ACTIONS }] },
      },
      'POST /api/passkeys/actions/verify': { status: 201, body: sent },
    });
    render(<UnauthorizedCard agentToken={token} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Passkeys' }));
    const form = await screen.findByRole('form', { name: 'Verify with a passkey' });
    fireEvent.change(within(form).getByLabelText(/Customer ID/), { target: { value: 'CUST-7' } });
    fireEvent.change(within(form).getByLabelText(/Phone number/), { target: { value: '+15551234567' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Verify with a passkey' }));
    const cancel = await screen.findByRole('form', { name: 'Cancel the link' });
    const status = screen.getByTestId('action-status');
    expect(status.textContent).toContain('Waiting for the caller to open it.');
    // the status comes first in reading order, the way out after it
    expect(status.compareDocumentPosition(cancel) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(cancel.textContent).toContain('Cancel the link when the caller no longer needs it: it stops working at once.');
    const button = within(cancel).getByRole('button', { name: 'Cancel the link' });
    expect(button.className).toContain('btn-secondary');
    expect(button.className).not.toContain('btn-primary');
  });

  it('says what went wrong when the agent functions cannot be loaded', async () => {
    mockApi({
      'GET /api/agent/apps': {
        status: 403,
        body: { code: 'FORBIDDEN', message: 'Agent access is not enabled for this account' },
      },
    });
    render(<UnauthorizedCard agentToken={makeToken({ role: 'supervisor' })} />);
    expect(await screen.findByText('Agent access is not enabled for this account')).toBeTruthy();
  });

  it('lists the apps without actions when there is no agent session', () => {
    render(<UnauthorizedCard />);
    expect(screen.getByText('One-Time Passcode')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'One-Time Passcode' })).toBeNull();
  });
});
