import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { IntegrationCard, sortIntegrations } from '../../../src/ui/IntegrationCard';

const noop = () => {};

describe('IntegrationCard', () => {
  it('a card that is not connected offers Connect only', () => {
    const onConnect = vi.fn();
    render(
      <IntegrationCard
        id="twilio"
        title="Twilio"
        connected={false}
        onConnect={onConnect}
        onManage={noop}
        onDisconnect={async () => {}}
      />,
    );
    expect(screen.queryByText('Connected')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Connect Twilio' }));
    expect(onConnect).toHaveBeenCalledOnce();
    expect(screen.queryByRole('button', { name: /Disconnect/ })).toBeNull();
  });

  it('a connected card shows Connected with Manage and Disconnect', () => {
    const onManage = vi.fn();
    render(
      <IntegrationCard id="twilio" title="Twilio" connected onConnect={noop} onManage={onManage} onDisconnect={async () => {}} />,
    );
    expect(screen.getByText('Connected')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Manage Twilio' }));
    expect(onManage).toHaveBeenCalledOnce();
  });

  it('disconnecting asks for confirmation first', async () => {
    const onDisconnect = vi.fn(async () => {});
    render(<IntegrationCard id="twilio" title="Twilio" connected onConnect={noop} onManage={noop} onDisconnect={onDisconnect} />);
    fireEvent.click(screen.getByRole('button', { name: 'Disconnect Twilio' }));
    expect(onDisconnect).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onDisconnect).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Disconnect Twilio' }));
    expect(screen.getByRole('dialog', { name: 'Disconnect Twilio?' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Disconnect' }));
    await waitFor(() => expect(onDisconnect).toHaveBeenCalledOnce());
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('a failed disconnect keeps the confirmation open with the error', async () => {
    render(
      <IntegrationCard
        id="x"
        title="X"
        connected
        onConnect={noop}
        onManage={noop}
        onDisconnect={async () => {
          throw new Error('Network down');
        }}
      />,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Disconnect X' }));
    fireEvent.click(screen.getByRole('button', { name: 'Disconnect' }));
    await waitFor(() => expect(screen.getByRole('dialog').textContent).toContain('Network down'));
  });

  it('a disabled card shows its reason and no actions', () => {
    render(
      <IntegrationCard
        id="zoom"
        title="Zoom SMS"
        connected={false}
        disabled
        disabledReason="Contact Journey to enable Zoom SMS"
        onConnect={noop}
        onManage={noop}
        onDisconnect={async () => {}}
      />,
    );
    expect(screen.getByText('Contact Journey to enable Zoom SMS')).toBeTruthy();
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('connected integrations sort first, otherwise in the given order', () => {
    const items = [
      { id: 'a', on: false },
      { id: 'b', on: true },
      { id: 'c', on: false },
      { id: 'd', on: true },
    ];
    expect(sortIntegrations(items, (i) => i.on).map((i) => i.id)).toEqual(['b', 'd', 'a', 'c']);
    expect(items.map((i) => i.id)).toEqual(['a', 'b', 'c', 'd']);
  });
});
