import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Notification } from '../../api/contract/notifications';
import { makeBootstrap, renderSignedIn } from './helpers';

const note = (over: Partial<Notification>): Notification => ({
  id: 'n1',
  kind: 'invitation.accepted',
  title: 'Sam Silva accepted the invitation',
  body: 'supervisor@acme.test joined as supervisor.',
  link: '/settings/admin-management',
  createdAt: new Date().toISOString(),
  read: false,
  ...over,
});

describe('notifications bell', () => {
  const list = {
    notifications: [
      note({}),
      note({ id: 'n2', kind: 'credits.high', title: 'Passkeys has used 86% of its credits', read: true }),
    ],
    unread: 1,
  };

  it('shows the unread count and lists the notifications', async () => {
    renderSignedIn('/', makeBootstrap(), { 'GET /api/notifications': { body: list } });
    const bell = await screen.findByRole('button', { name: 'Notifications, 1 unread' });
    fireEvent.click(bell);
    expect(await screen.findByText('Sam Silva accepted the invitation')).toBeTruthy();
    expect(screen.getByText('Passkeys has used 86% of its credits')).toBeTruthy();
  });

  it('marks one as read and lowers the count', async () => {
    const { calls } = renderSignedIn('/', makeBootstrap(), {
      'GET /api/notifications': { body: list },
      'POST /api/notifications/read': { body: { unread: 0 } },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Notifications, 1 unread' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Mark "Sam Silva accepted the invitation" as read' }));
    await screen.findByRole('button', { name: 'Notifications' });
    expect(JSON.parse(calls.find((c) => c.path === '/api/notifications/read')!.body)).toEqual({ id: 'n1' });
  });

  it('marks all as read', async () => {
    const { calls } = renderSignedIn('/', makeBootstrap(), {
      'GET /api/notifications': { body: list },
      'POST /api/notifications/read': { body: { unread: 0 } },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Notifications, 1 unread' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Mark all as read' }));
    await waitFor(() => expect(calls.some((c) => c.path === '/api/notifications/read' && c.body === '{"all":true}')).toBe(true));
    expect(screen.queryByRole('button', { name: /Mark "/ })).toBeNull();
  });

  it('offers no mark-as-read in ghost mode', async () => {
    renderSignedIn('/', makeBootstrap(), { 'GET /api/notifications': { body: list } }, { ghost: true });
    fireEvent.click(await screen.findByRole('button', { name: 'Notifications, 1 unread' }));
    await screen.findByText('Sam Silva accepted the invitation');
    expect(screen.queryByRole('button', { name: 'Mark all as read' })).toBeNull();
  });
});
