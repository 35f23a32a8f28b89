import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { OTP_ACTIONS } from '../../api/contract/apps/one-time-passcode';
import type { Notification } from '../../api/contract/notifications';
import type { ActionResult, AgentAppsAnswer, TaskRow } from '../../api/contract/platform';
import { UnauthorizedCard } from '../../hosts/UnauthorizedCard';
import { liveStream, makeBootstrap, makeToken, mockApi, renderSignedIn } from './helpers';

// What each screen does when the tab's live stream (GET /api/live) announces a change: the
// activity list, the bell, the development outbox and the Agent Preview. The stream is the test's
// own (helpers' liveStream); every screen re-reads through the normal API, never on a timer.

vi.mock('../../src/ui/Chart', () => ({
  default: ({ title }: { title: string }) => <figure data-testid="chart">{title}</figure>,
}));

const APP = 'one-time-passcode';
const FIRST = '0b6f0f7e-3f4e-4d7c-9a55-2b1c8f0e6a11';
const SECOND = '5d0c4a52-9d0e-4f3a-8a3e-7f1b2c3d4e5f';
const NEW = 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d';

const CREATED = new Date(Date.now() - 60_000).toISOString();
const row = (over: Partial<TaskRow> = {}): TaskRow => ({
  id: FIRST,
  status: 'pending',
  phoneNumber: '+1 •••• •• 4567',
  customerRef: 'CUST-1',
  agent: 'ann@acme.test',
  createdAt: CREATED,
  endedAt: null,
  values: { sends: 1, checks: 0 },
  ...over,
});

const note = (id: string, title: string): Notification => ({
  id,
  kind: 'test.live',
  title,
  body: '',
  link: null,
  createdAt: new Date().toISOString(),
  read: false,
});

describe('live screens', () => {
  it('an activity list shows a changed row in place with a quiet highlight, and keeps new rows behind "Show 1 new"', async () => {
    const live = liveStream();
    let rows = [row(), row({ id: SECOND, customerRef: 'CUST-2' })];
    const { calls } = renderSignedIn(`/${APP}/authentications`, makeBootstrap(), {
      [`GET /api/${APP}/tasks`]: () => ({ body: rows }),
      'GET /api/live': live.route,
    });
    const table = await screen.findByRole('table', { name: 'Authentications' });
    await waitFor(() => expect(live.requests()).toBe(1));
    const reads = () => calls.filter((c) => c.path === `/api/${APP}/tasks`).length;
    const before = reads();

    rows = [
      row({ id: NEW, customerRef: 'CUST-NEW' }),
      row({ status: 'approved', endedAt: new Date().toISOString() }),
      row({ id: SECOND, customerRef: 'CUST-2' }),
    ];
    // another app's change is none of this list's business
    live.send({ id: 5, kind: 'task', app: 'passkeys', ref: NEW }, '5');
    await new Promise((r) => setTimeout(r, 600));
    expect(reads()).toBe(before);
    live.send({ id: 6, kind: 'task', app: APP, ref: FIRST }, '6');
    live.send({ id: 7, kind: 'task', app: APP, ref: NEW }, '7');

    // the changed row is updated where it was, highlighted; the new one waits
    const show = await screen.findByRole('button', { name: 'Show 1 new' });
    const bodyRows = () => within(table).getAllByRole('row').slice(1);
    await waitFor(() => expect(bodyRows()[0]!.textContent).toContain('Approved'));
    expect(bodyRows().map((r) => r.textContent?.includes('CUST-2'))).toEqual([false, true]);
    expect(bodyRows()[0]!.className).toContain('row-changed');
    expect(bodyRows()[1]!.className).not.toContain('row-changed');
    expect(within(table).queryByText('CUST-NEW')).toBeNull();
    // the two changes of the burst were read once
    expect(reads()).toBe(before + 1);

    fireEvent.click(show);
    await waitFor(() => expect(bodyRows()).toHaveLength(3));
    expect(bodyRows()[0]!.textContent).toContain('CUST-NEW');
    expect(bodyRows()[0]!.className).toContain('row-changed');
    expect(screen.queryByRole('button', { name: /Show \d+ new/ })).toBeNull();
  });

  it('the bell counts a new notification as the stream announces it', async () => {
    const live = liveStream();
    let list = { notifications: [note('n1', 'First')], unread: 1 };
    renderSignedIn('/', makeBootstrap(), { 'GET /api/notifications': () => ({ body: list }), 'GET /api/live': live.route });
    await screen.findByRole('button', { name: 'Notifications, 1 unread' });
    await waitFor(() => expect(live.requests()).toBe(1));
    list = { notifications: [note('n2', 'Second'), note('n1', 'First')], unread: 2 };
    live.send({ id: 3, kind: 'notification', app: null, ref: 'n2' }, '3');
    fireEvent.click(await screen.findByRole('button', { name: 'Notifications, 2 unread' }));
    expect(await screen.findByText('Second')).toBeTruthy();
  });

  it('the development outbox shows a new message as the stream announces it', async () => {
    const live = liveStream();
    const message = (id: string, body: string) => ({ id, to: '+15551234567', body, createdAt: new Date().toISOString() });
    let outbox = [message('m1', 'Your code is 111111.')];
    renderSignedIn('/dev/sms-outbox', makeBootstrap(), {
      'GET /api/dev/sms-outbox': () => ({ body: outbox }),
      'GET /api/live': live.route,
    });
    await screen.findByText('Your code is 111111.');
    await waitFor(() => expect(live.requests()).toBe(1));
    outbox = [message('m2', 'Your code is 222222.'), ...outbox];
    live.send({ id: 4, kind: 'outbox', app: null, ref: 'm2' }, '4');
    expect(await screen.findByText('Your code is 222222.')).toBeTruthy();
    expect(screen.getAllByTestId('outbox-message')).toHaveLength(2);
  });

  it('the development outbox shows the newest hundred, and the older ones below them on "Show older messages"', async () => {
    const live = liveStream();
    const messages = Array.from({ length: 150 }, (_, i) => ({
      id: `m${i}`,
      to: '+15551234567',
      body: `Message ${i}`,
      createdAt: new Date(Date.now() - i * 1000).toISOString(),
    }));
    const { calls } = renderSignedIn('/dev/sms-outbox', makeBootstrap(), {
      'GET /api/dev/sms-outbox': (request) => {
        const limit = Number(new URL(request.url).searchParams.get('limit'));
        return { body: messages.slice(0, limit), headers: { 'x-more': String(messages.length > limit) } };
      },
      'GET /api/live': live.route,
    });
    await screen.findByText('Message 99');
    expect(screen.queryByText('Message 100')).toBeNull();
    expect(screen.getByText('The newest 100 messages.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Show older messages' }));
    expect(await screen.findByText('Message 149')).toBeTruthy();
    expect(screen.getAllByTestId('outbox-message')).toHaveLength(150);
    expect(screen.getByText('All 150 messages.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Show older messages' })).toBeNull();
    expect(calls.filter((c) => c.path === '/api/dev/sms-outbox').map((c) => new URL(c.url).searchParams.get('limit'))).toEqual([
      '100',
      '200',
    ]);
  });

  it("the Agent Preview opens its stream with the agent's own session and follows its task on it", async () => {
    // an agent (host user) session: the role the server gives it is 'agent'
    const token = makeToken({ role: 'agent' as 'supervisor', sub: 'agent:agent@acme.test', email: 'agent@acme.test' });
    const live = liveStream();
    const streamTokens: (string | null)[] = [];
    const apps: AgentAppsAnswer = {
      apps: [{ id: APP, title: 'One-Time Passcode', color: '#059669', actions: OTP_ACTIONS }],
      timeZone: 'UTC',
    };
    const sent: ActionResult = { taskId: FIRST, status: 'pending', message: 'Passcode sent to +1 •••• •• 4567', task: {} };
    let status: ActionResult = sent;
    const { calls } = mockApi({
      'GET /api/agent/apps': { body: apps },
      [`POST /api/${APP}/actions/send`]: { status: 201, body: sent },
      [`GET /api/${APP}/tasks/${FIRST}/status`]: () => ({ body: status }),
      'GET /api/live': (request) => {
        streamTokens.push(request.headers.get('authorization'));
        return live.route();
      },
    });
    render(<UnauthorizedCard agentToken={token} />);
    fireEvent.click(await screen.findByRole('button', { name: 'One-Time Passcode' }));
    const form = await screen.findByRole('form', { name: 'Send passcode' });
    fireEvent.change(within(form).getByLabelText(/Phone number/), { target: { value: '+15551234567' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Send passcode' }));
    await screen.findByRole('form', { name: 'Check code' });
    await waitFor(() => expect(streamTokens).toEqual([`Bearer ${token}`]));
    // never in the address
    expect(calls.filter((c) => c.path === '/api/live').every((c) => !new URL(c.url).search)).toBe(true);
    const reads = () => calls.filter((c) => c.path === `/api/${APP}/tasks/${FIRST}/status`).length;
    await new Promise((r) => setTimeout(r, 300));
    const before = reads();
    status = { ...sent, status: 'expired', message: 'The passcode expired' };
    live.send({ id: 9, kind: 'task', app: APP, ref: FIRST }, '9');
    await waitFor(() => expect(screen.getByTestId('action-status').textContent).toContain('The passcode expired'));
    expect(reads()).toBe(before + 1);
  });

  it('the live stream carries the time-zone header, like every other call under /api (SPEC §7)', async () => {
    const live = liveStream();
    const { calls } = renderSignedIn('/', makeBootstrap(), {
      'GET /api/notifications': () => ({ body: [] }),
      'GET /api/live': live.route,
    });
    await waitFor(() => expect(live.requests()).toBe(1));
    const zone = (path: string) => calls.find((c) => c.path === path)!.headers.get('x-time-zone');
    expect(zone('/api/live')).toBeTruthy();
    expect(zone('/api/live')).toBe(zone('/api/admins/bootstrap'));
  });
});
