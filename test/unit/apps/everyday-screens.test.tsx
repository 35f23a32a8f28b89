import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { OTP_ACTIONS } from '../../../api/contract/apps/one-time-passcode';
import type { SubmissionRow } from '../../../api/contract/apps/e-form';
import type { ActionResult } from '../../../api/contract/platform';
import { describeUserAgent } from '../../../src/ui/user-agent';
import { liveStream, makeBootstrap, renderSignedIn } from '../helpers';
import { OTP_APP, OTP_TASK_ID, otpDashboard, otpTaskRow } from '../../support/otp-console-data';

// The screens agents use every day, as a person reads them: the main action first, people before
// ids, every cell named for the side panel's stacked list, a send result one click from the
// development outbox, and the eForm submissions list live as its badge says.

vi.mock('../../../src/ui/Chart', () => ({
  default: ({ title }: { title: string }) => <figure data-testid="chart">{title}</figure>,
}));

const OTP = OTP_APP;
const ID = OTP_TASK_ID;

const otpRoutes = (sent?: ActionResult) => ({
  [`GET /api/${OTP}/dashboard`]: { body: otpDashboard() },
  [`GET /api/${OTP}/actions`]: { body: { app: OTP, actions: OTP_ACTIONS } },
  ...(sent ? { [`POST /api/${OTP}/actions/send`]: { status: 201, body: sent } } : {}),
});

describe('the screens people use every day', () => {
  it('an app dashboard puts "Send to a customer" before its figures, chart and latest list', async () => {
    renderSignedIn(`/${OTP}`, makeBootstrap(), otpRoutes());
    await screen.findByTestId('kpi-sent');
    const send = screen.getByRole('heading', { name: 'Send to a customer' });
    const figures = screen.getByRole('list', { name: 'Key figures' });
    // DOCUMENT_POSITION_FOLLOWING: the figures come after the form
    expect(send.compareDocumentPosition(figures) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(send.compareDocumentPosition(await screen.findByTestId('chart')) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('a list leads with what a person recognises and keeps the id for its last column, the first cell opening the task', async () => {
    renderSignedIn(`/${OTP}/authentications`, makeBootstrap(), { [`GET /api/${OTP}/tasks`]: { body: [otpTaskRow()] } });
    const table = await screen.findByRole('table', { name: 'Authentications' });
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((h) => h.textContent);
    expect(headers[0]).toBe('Phone');
    expect(headers.at(-1)).toBe('ID');
    const first = within(table).getAllByRole('cell')[0]!;
    expect(within(first).getByRole('button', { name: /^Open authentication/ }).textContent).toBe('+1 •••• •• 4567');
  });

  it('every cell carries its column name, which the side panel shows when the table stacks into a list', async () => {
    renderSignedIn(`/${OTP}/authentications`, makeBootstrap(), { [`GET /api/${OTP}/tasks`]: { body: [otpTaskRow()] } });
    const table = await screen.findByRole('table', { name: 'Authentications' });
    expect(table.className).toContain('table-stacks');
    const labels = within(table)
      .getAllByRole('cell')
      .map((c) => c.getAttribute('data-label'));
    expect(labels).toEqual(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    );
  });

  it("the dashboard's latest list leads with the phone, not a truncated id", async () => {
    renderSignedIn(`/${OTP}`, makeBootstrap(), otpRoutes());
    const table = await screen.findByRole('table', { name: 'Latest authentications' });
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((h) => h.textContent);
    // beside the send form: the people columns and when, no id, no counts
    expect(headers).toEqual(['Phone', 'Status', 'Agent', 'Customer', 'Created']);
    expect(within(within(table).getAllByRole('cell')[0]!).getByRole('link').textContent).toBe('+1 •••• •• 4567');
  });

  it('a send result in development links to the development outbox, where the text can be read', async () => {
    const sent: ActionResult = {
      taskId: ID,
      status: 'pending',
      message: 'Passcode sent to +1 •••• •• 4567',
      task: {},
      devOutbox: true,
    };
    renderSignedIn(`/${OTP}`, makeBootstrap(), otpRoutes(sent));
    const form = await screen.findByRole('form', { name: 'Send passcode' });
    fireEvent.change(within(form).getByLabelText(/Phone number/), { target: { value: '+15551234567' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Send passcode' }));
    const link = await screen.findByRole('link', { name: 'Open the development outbox' });
    expect(link.getAttribute('href')).toBe('/dev/sms-outbox');
  });

  it('a send result with a real provider has no outbox link', async () => {
    const sent: ActionResult = { taskId: ID, status: 'pending', message: 'Passcode sent to +1 •••• •• 4567', task: {} };
    renderSignedIn(`/${OTP}`, makeBootstrap(), otpRoutes(sent));
    const form = await screen.findByRole('form', { name: 'Send passcode' });
    fireEvent.change(within(form).getByLabelText(/Phone number/), { target: { value: '+15551234567' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Send passcode' }));
    await screen.findByTestId('action-status');
    expect(screen.queryByRole('link', { name: 'Open the development outbox' })).toBeNull();
  });

  it('in the side panel an activity list folds its filters under "Filters", open only when some are set', async () => {
    const wide = window.matchMedia;
    window.matchMedia = ((query: string) => ({
      matches: query.includes('max-width: 480px'),
      media: query,
      addEventListener() {},
      removeEventListener() {},
    })) as unknown as typeof window.matchMedia;
    try {
      const first = renderSignedIn(`/${OTP}/authentications`, makeBootstrap(), {
        [`GET /api/${OTP}/tasks`]: { body: [otpTaskRow()] },
      });
      await screen.findByRole('table', { name: 'Authentications' });
      const folded = screen.getByText('Filters').closest('details')!;
      expect(folded.open).toBe(false);
      first.unmount();
      renderSignedIn(`/${OTP}/authentications?status=approved`, makeBootstrap(), {
        [`GET /api/${OTP}/tasks`]: { body: [otpTaskRow()] },
      });
      await screen.findByRole('table', { name: 'Authentications' });
      expect(screen.getByText('Filters (on)').closest('details')!.open).toBe(true);
    } finally {
      window.matchMedia = wide;
    }
  });

  it("the development outbox makes a message's link a link, one click to the customer's page", async () => {
    renderSignedIn('/dev/sms-outbox', makeBootstrap(), {
      'GET /api/dev/sms-outbox': {
        body: [
          {
            id: 'm1',
            to: '+15551234567',
            body: 'Acme Support asks you to fill in a short form: http://127.0.0.1:3000/c/abc_DEF-123 (valid 15 minutes).',
            createdAt: new Date().toISOString(),
          },
        ],
      },
    });
    const link = await within(await screen.findByTestId('outbox-message')).findByRole('link', {
      name: 'http://127.0.0.1:3000/c/abc_DEF-123',
    });
    expect(link.getAttribute('href')).toBe('http://127.0.0.1:3000/c/abc_DEF-123');
  });

  it('names browsers as people do', () => {
    expect(
      describeUserAgent(
        'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
      ),
    ).toBe('Chrome on Android');
    expect(
      describeUserAgent(
        'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
      ),
    ).toBe('Safari on iPhone');
    expect(
      describeUserAgent(
        'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0',
      ),
    ).toBe('Edge on Windows');
    expect(describeUserAgent('Mozilla/5.0 (Macintosh; Intel Mac OS X 14.5; rv:128.0) Gecko/20100101 Firefox/128.0')).toBe(
      'Firefox on macOS',
    );
  });
});

describe('live lists', () => {
  const submission = (over: Partial<SubmissionRow> = {}): SubmissionRow => ({
    id: ID,
    formId: 'f1',
    formTitle: 'Callback request',
    version: 1,
    status: 'sent',
    phoneNumber: '+1 •••• •• 4567',
    customerRef: 'CUST-1',
    agent: 'ann@acme.test',
    createdAt: new Date(Date.now() - 60_000).toISOString(),
    submittedAt: null,
    answers: null,
    ...over,
  });

  it('the eForm submissions list shows a submission as the stream announces it', async () => {
    const live = liveStream();
    let rows = [submission()];
    renderSignedIn('/e-form/submissions', makeBootstrap(), {
      'GET /api/e-form/forms': { body: [] },
      'GET /api/e-form/submissions': () => ({ body: { columns: [], rows } }),
      'GET /api/live': live.route,
    });
    const table = await screen.findByRole('table', { name: 'Submissions' });
    await waitFor(() => expect(live.requests()).toBe(1));
    rows = [submission({ status: 'submitted', submittedAt: new Date().toISOString() })];
    live.send({ id: 2, kind: 'task', app: 'e-form', ref: ID }, '2');
    await waitFor(() => expect(within(table).getByText('Submitted')).toBeTruthy(), { timeout: 3000 });
    // and the row leads with the form's name, the id last
    expect(within(table).getAllByRole('columnheader')[0]!.textContent).toBe('Form');
    expect(within(table).getAllByRole('columnheader').at(-1)!.textContent).toBe('ID');
  });

  for (const [app, path, title] of [
    ['payments', 'payments', 'Payments'],
    ['document-signature', 'signatures', 'Signatures'],
  ] as const) {
    it(`the ${title} list re-reads as the stream announces its change`, async () => {
      const live = liveStream();
      let rows = [otpTaskRow({ status: 'requested', values: { amount: 1250, currency: 'usd' } })];
      const { calls } = renderSignedIn(`/${app}/${path}`, makeBootstrap(), {
        [`GET /api/${app}/tasks`]: () => ({ body: rows }),
        'GET /api/live': live.route,
        'GET /api/payments/actions': { body: { app, actions: [] } },
      });
      await screen.findByRole('table', { name: title });
      await waitFor(() => expect(live.requests()).toBe(1));
      const reads = () => calls.filter((c) => c.path === `/api/${app}/tasks`).length;
      const before = reads();
      rows = [otpTaskRow({ status: 'succeeded', values: { amount: 1250, currency: 'usd' } })];
      live.send({ id: 3, kind: 'task', app, ref: ID }, '3');
      await waitFor(() => expect(reads()).toBeGreaterThan(before), { timeout: 3000 });
      await waitFor(() => expect(screen.getByRole('table', { name: title }).textContent).toContain('Succeeded'));
    });

    it(`the ${title} list asks for the change the moment it is announced, with no timer before the read`, async () => {
      const live = liveStream();
      const { calls } = renderSignedIn(`/${app}/${path}`, makeBootstrap(), {
        [`GET /api/${app}/tasks`]: () => ({ body: [otpTaskRow()] }),
        'GET /api/live': live.route,
        'GET /api/payments/actions': { body: { app, actions: [] } },
      });
      await screen.findByRole('table', { name: title });
      await waitFor(() => expect(live.requests()).toBe(1));
      const reads = () => calls.filter((c) => c.path === `/api/${app}/tasks`).length;
      const before = reads();
      // no timer may run from here: a read that waits on one (a debounce, a throttle) never comes
      vi.useFakeTimers({ toFake: ['setTimeout', 'setInterval'] });
      try {
        live.send({ id: 4, kind: 'task', app, ref: ID }, '4');
        for (let i = 0; i < 200 && reads() === before; i++) await new Promise((resolve) => setImmediate(resolve));
        expect(reads()).toBe(before + 1);
      } finally {
        vi.useRealTimers();
      }
    });
  }
});
