import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { OTP_ACTIONS, OTP_TEMPLATES } from '../../../api/contract/apps/one-time-passcode';
import type { ActionResult, SmsContentAnswer, TaskDetail } from '../../../api/contract/platform';
import { here, liveStream, makeBootstrap, renderSignedIn } from '../helpers';
import { LOCALES } from '../../../api/contract/locales';
import { builtInSmsText } from '../../../api/contract/sms-translations';
import { OTP_APP, OTP_TASK_ID, otpDashboard, otpTaskRow } from '../../support/otp-console-data';

// uPlot draws on a canvas, which happy-dom lacks; the chart's own module is replaced by its title
vi.mock('../../../src/ui/Chart', () => ({
  default: ({ title }: { title: string }) => <figure data-testid="chart">{title}</figure>,
}));

const APP = OTP_APP;
const ID = OTP_TASK_ID;

const smsContent: SmsContentAnswer = {
  company: 'Acme Support',
  templates: OTP_TEMPLATES.map((t) => ({
    ...t,
    body: t.defaultBody,
    placeholders: [...t.placeholders],
    required: [...t.required],
    translations: LOCALES.filter((l) => l !== 'en').map((locale) => ({
      locale,
      body: builtInSmsText(APP, t.key, locale, t.defaultBody),
      defaultBody: builtInSmsText(APP, t.key, locale, t.defaultBody),
      custom: false,
    })),
  })),
};

afterEach(() => {
  vi.useRealTimers();
});

describe('One-Time Passcode dashboard', () => {
  it('shows the KPI tiles with their change against the previous period', async () => {
    renderSignedIn(`/${APP}`, makeBootstrap(), {
      [`GET /api/${APP}/dashboard`]: { body: otpDashboard() },
      [`GET /api/${APP}/actions`]: { body: { app: APP, actions: OTP_ACTIONS } },
    });
    const sent = await screen.findByTestId('kpi-sent');
    expect(sent.textContent).toContain('150');
    expect(sent.textContent).toContain('+50% vs previous period');
    expect(screen.getByTestId('kpi-verified').textContent).toContain('no change');
    expect(screen.getByTestId('kpi-conversion').textContent).toContain('+4.5 pts vs previous period');
    expect(screen.getByTestId('kpi-credits').textContent).toContain('−25% vs previous period');
    expect((await screen.findByTestId('chart')).textContent).toBe('Sent vs Verified per day');
  });

  it('asks the API for the period picked', async () => {
    const { calls } = renderSignedIn(`/${APP}`, makeBootstrap(), {
      [`GET /api/${APP}/dashboard`]: { body: otpDashboard() },
      [`GET /api/${APP}/actions`]: { body: { app: APP, actions: OTP_ACTIONS } },
    });
    fireEvent.click(await screen.findByRole('button', { name: '7 days' }));
    await waitFor(() =>
      expect(calls.some((c) => c.path === `/api/${APP}/dashboard` && new URL(c.url).searchParams.get('days') === '7')).toBe(true),
    );
    expect(screen.getByRole('button', { name: '7 days' }).getAttribute('aria-pressed')).toBe('true');
  });

  it('shows how to send the first passcode when there is no activity', async () => {
    const none = otpDashboard({ latest: [], tiles: otpDashboard().tiles.map((t) => ({ ...t, value: 0, previous: 0 })) });
    renderSignedIn(`/${APP}`, makeBootstrap(), {
      [`GET /api/${APP}/dashboard`]: { body: none },
      [`GET /api/${APP}/actions`]: { body: { app: APP, actions: OTP_ACTIONS } },
    });
    const curl = await screen.findByRole('region', { name: 'API call with curl' });
    expect(curl.textContent).toContain('/api/v1/otp/send');
    expect(screen.getByText('No authentications in the last 30 days')).toBeTruthy();
  });

  it('sends a passcode in the language the agent picks from "Send to a customer", then checks the code and shows it approved', async () => {
    const sent: ActionResult = { taskId: ID, status: 'pending', message: 'Passcode sent to +1 •••• •• 4567', task: {} };
    const approved: ActionResult = {
      taskId: ID,
      status: 'approved',
      message: 'The code is right: the caller is verified',
      task: {},
    };
    const { calls } = renderSignedIn(`/${APP}`, makeBootstrap(), {
      [`GET /api/${APP}/dashboard`]: { body: otpDashboard() },
      [`GET /api/${APP}/actions`]: { body: { app: APP, actions: OTP_ACTIONS } },
      [`POST /api/${APP}/actions/send`]: { status: 201, body: sent },
      [`POST /api/${APP}/actions/check`]: { status: 201, body: approved },
    });
    const send = await screen.findByRole('form', { name: 'Send passcode' });
    fireEvent.change(within(send).getByLabelText(/Phone number/), { target: { value: '5551234567' } });
    fireEvent.click(within(send).getByRole('button', { name: 'Send passcode' }));
    expect(await within(send).findByText('Enter the number with its country code, e.g. +44 20 7946 0018')).toBeTruthy();
    fireEvent.change(within(send).getByLabelText(/Phone number/), { target: { value: '+15551234567' } });
    fireEvent.change(within(send).getByLabelText("Caller's language"), { target: { value: 'es' } });
    // the button flashes its failure first
    fireEvent.click(await within(send).findByRole('button', { name: 'Send passcode' }, { timeout: 4000 }));
    expect((await screen.findByTestId('action-status')).textContent).toContain('Passcode sent to +1 •••• •• 4567');
    expect(JSON.parse(calls.find((c) => c.path === `/api/${APP}/actions/send`)!.body)).toEqual({
      input: { phoneNumber: '+15551234567', locale: 'es' },
    });
    const check = await screen.findByRole('form', { name: 'Check code' });
    fireEvent.change(within(check).getByLabelText(/Code/), { target: { value: '123456' } });
    fireEvent.click(within(check).getByRole('button', { name: 'Check code' }));
    await waitFor(() => expect(screen.getByTestId('action-status').textContent).toContain('Approved'));
    expect(JSON.parse(calls.find((c) => c.path === `/api/${APP}/actions/check`)!.body)).toEqual({
      input: { code: '123456' },
      taskId: ID,
    });
  });

  it('a wrong code shows as an error with the attempts left, and the code can be checked again', async () => {
    const sent: ActionResult = { taskId: ID, status: 'pending', message: 'Passcode sent to +1 •••• •• 4567', task: {} };
    const wrong: ActionResult = {
      taskId: ID,
      status: 'pending',
      message: 'Wrong code: 4 attempts left. Ask the caller to read it again.',
      task: {},
      failed: true,
    };
    renderSignedIn(`/${APP}`, makeBootstrap(), {
      [`GET /api/${APP}/dashboard`]: { body: otpDashboard() },
      [`GET /api/${APP}/actions`]: { body: { app: APP, actions: OTP_ACTIONS } },
      [`POST /api/${APP}/actions/send`]: { status: 201, body: sent },
      [`POST /api/${APP}/actions/check`]: { status: 201, body: wrong },
    });
    const send = await screen.findByRole('form', { name: 'Send passcode' });
    fireEvent.change(within(send).getByLabelText(/Phone number/), { target: { value: '+15551234567' } });
    fireEvent.click(within(send).getByRole('button', { name: 'Send passcode' }));
    const check = await screen.findByRole('form', { name: 'Check code' });
    fireEvent.change(within(check).getByLabelText(/Code/), { target: { value: '000000' } });
    fireEvent.click(within(check).getByRole('button', { name: 'Check code' }));
    await waitFor(() =>
      expect(screen.getByTestId('action-status').textContent).toBe(
        'Wrong code: 4 attempts left. Ask the caller to read it again.',
      ),
    );
    const status = screen.getByTestId('action-status');
    expect(status.getAttribute('role')).toBe('alert');
    expect(status.className).toContain('notice-error');
    expect(status.textContent).not.toContain('Pending');
    expect(screen.getByRole('form', { name: 'Check code' })).toBeTruthy();
  });

  it('follows a pending passcode as the live stream announces its change, without polling', async () => {
    const sent: ActionResult = { taskId: ID, status: 'pending', message: 'Passcode sent', task: {} };
    let status: ActionResult = sent;
    const live = liveStream();
    const { calls } = renderSignedIn(`/${APP}`, makeBootstrap(), {
      [`GET /api/${APP}/dashboard`]: { body: otpDashboard() },
      [`GET /api/${APP}/actions`]: { body: { app: APP, actions: OTP_ACTIONS } },
      [`POST /api/${APP}/actions/send`]: { status: 201, body: sent },
      [`GET /api/${APP}/tasks/${ID}/status`]: () => ({ body: status }),
      'GET /api/live': live.route,
    });
    const send = await screen.findByRole('form', { name: 'Send passcode' });
    fireEvent.change(within(send).getByLabelText(/Phone number/), { target: { value: '+15551234567' } });
    fireEvent.click(within(send).getByRole('button', { name: 'Send passcode' }));
    await screen.findByRole('form', { name: 'Check code' });
    await new Promise((r) => setTimeout(r, 300));
    const statusReads = () => calls.filter((c) => c.path === `/api/${APP}/tasks/${ID}/status`).length;
    const before = statusReads();
    status = { ...sent, status: 'expired', message: 'The passcode expired' };
    // another task's change is none of this panel's business
    live.send({ id: 8, kind: 'task', app: APP, ref: '00000000-0000-4000-8000-000000000000' }, '8');
    await new Promise((r) => setTimeout(r, 300));
    expect(statusReads()).toBe(before);
    live.send({ id: 9, kind: 'task', app: APP, ref: ID }, '9');
    await waitFor(() => expect(screen.getByTestId('action-status').textContent).toContain('The passcode expired'));
    expect(statusReads()).toBe(before + 1);
    expect(screen.queryByRole('form', { name: 'Check code' })).toBeNull();
    expect(live.requests()).toBe(1);
  });
});

describe('Authentications', () => {
  const routes = (extra = {}) => ({
    [`GET /api/${APP}/tasks`]: { body: [otpTaskRow()] },
    ...extra,
  });

  it('lists authentications with the id shortened and the phone masked', async () => {
    renderSignedIn(`/${APP}/authentications`, makeBootstrap(), routes());
    const table = await screen.findByRole('table', { name: 'Authentications' });
    expect(within(table).getByText('0b6f0f…0e6a11')).toBeTruthy();
    expect(within(table).getByText('+1 •••• •• 4567')).toBeTruthy();
    expect(within(table).getByText('Approved')).toBeTruthy();
  });

  it('sends the filters to the API and keeps them in the address', async () => {
    const { calls } = renderSignedIn(`/${APP}/authentications`, makeBootstrap(), routes());
    await screen.findByRole('table', { name: 'Authentications' });
    const form = screen.getByRole('form', { name: 'Filters' });
    fireEvent.change(within(form).getByLabelText('Status'), { target: { value: 'expired' } });
    fireEvent.change(within(form).getByLabelText('Customer or phone'), { target: { value: 'CUST-1' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect(here()).toBe(`/${APP}/authentications?status=expired&customer=CUST-1`));
    await waitFor(() => {
      const last = new URL(calls.filter((c) => c.path === `/api/${APP}/tasks`).at(-1)!.url).searchParams;
      expect(Object.fromEntries(last)).toEqual({ status: 'expired', q: 'CUST-1' });
    });
  });

  it('pages forward with the x-last-key of the page before, and back again', async () => {
    const key = '2026-11-20T10:00:00.000000Z_0b6f0f7e-3f4e-4d7c-9a55-2b1c8f0e6a11';
    const { calls } = renderSignedIn(`/${APP}/authentications`, makeBootstrap(), {
      [`GET /api/${APP}/tasks`]: (req: Request) => {
        // as the API does: the total on the first page only
        if (new URL(req.url).searchParams.get('lastKey') === key)
          return { body: [otpTaskRow({ id: 'second-page-task-0000000001' })] };
        return { body: [otpTaskRow()], headers: { 'x-count': '51', 'x-last-key': key } };
      },
    });
    await screen.findByText('1–1 of 51');
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('second…000001')).toBeTruthy();
    expect(screen.getByText('51–51 of 51')).toBeTruthy();
    expect(new URL(calls.filter((c) => c.path === `/api/${APP}/tasks`).at(-1)!.url).searchParams.get('lastKey')).toBe(key);
    fireEvent.click(screen.getByRole('button', { name: 'Previous' }));
    expect(await screen.findByText('0b6f0f…0e6a11')).toBeTruthy();
  });

  it('shows a filtered total the API stopped counting at 1,000 as 1,000+', async () => {
    renderSignedIn(
      `/${APP}/authentications?status=expired`,
      makeBootstrap(),
      routes({ [`GET /api/${APP}/tasks`]: { body: [otpTaskRow()], headers: { 'x-count': '1000' } } }),
    );
    expect(await screen.findByText('1–1 of 1,000+')).toBeTruthy();
  });

  it('shows an unfiltered total as it is, however large', async () => {
    renderSignedIn(
      `/${APP}/authentications`,
      makeBootstrap(),
      routes({ [`GET /api/${APP}/tasks`]: { body: [otpTaskRow()], headers: { 'x-count': '12345' } } }),
    );
    expect(await screen.findByText('1–1 of 12,345')).toBeTruthy();
  });

  it('keeps Next off when the page says there is no more', async () => {
    const { calls } = renderSignedIn(`/${APP}/authentications`, makeBootstrap(), routes());
    await screen.findByRole('table', { name: 'Authentications' });
    expect((screen.getByRole('button', { name: 'Next' }) as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Previous' }) as HTMLButtonElement).disabled).toBe(true);
    expect(calls.some((c) => new URL(c.url).searchParams.has('lastKey'))).toBe(false);
  });

  it('opens the task named by ?session= with its timeline: named for the customer, the browser as people say it, the id last with a copy button', async () => {
    const detail: TaskDetail = {
      ...otpTaskRow(),
      events: [
        {
          time: new Date().toISOString(),
          type: 'sent',
          description: 'Passcode sent (send 1 of 5)',
          actor: 'ann@acme.test',
          ip: '203.0.113.9',
          userAgent:
            'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
        },
        {
          time: new Date().toISOString(),
          type: 'approved',
          description: 'Code checked: approved',
          actor: 'API key',
          ip: null,
          userAgent: null,
        },
      ],
    };
    renderSignedIn(
      `/${APP}/authentications?session=${ID}`,
      makeBootstrap(),
      routes({ [`GET /api/${APP}/tasks/${ID}`]: { body: detail } }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Authentication for CUST-100042' });
    const timeline = await within(dialog).findByRole('list', { name: 'Timeline' });
    expect(within(timeline).getByText('Passcode sent (send 1 of 5)')).toBeTruthy();
    expect(timeline.textContent).toContain('IP 203.0.113.9');
    expect(timeline.textContent).toContain('Chrome on Android');
    expect(timeline.textContent).not.toContain('Mozilla');
    // the facts lead with the phone; the id is the last, shortened, with a button that copies it whole
    const facts = [...dialog.querySelectorAll('.task-facts dt')].map((dt) => dt.textContent);
    expect(facts[0]).toBe('Phone');
    expect(facts.at(-1)).toBe('ID');
    expect(within(dialog).getByRole('button', { name: 'Copy the id' })).toBeTruthy();
    expect(dialog.textContent).not.toContain(ID);
    fireEvent.keyDown(dialog, { key: 'Escape' });
    await waitFor(() => expect(here()).toBe(`/${APP}/authentications`));
  });

  it('says so when no authentication matches the filters', async () => {
    renderSignedIn(`/${APP}/authentications?status=failed`, makeBootstrap(), { [`GET /api/${APP}/tasks`]: { body: [] } });
    expect(await screen.findByText('No authentications match these filters')).toBeTruthy();
  });

  it('shows a failed load with Try again', async () => {
    renderSignedIn(`/${APP}/authentications`, makeBootstrap(), {
      [`GET /api/${APP}/tasks`]: {
        status: 400,
        body: { code: 'VALIDATION_FAILED', message: 'from must be a date such as 2026-01-31' },
      },
    });
    expect(await screen.findByText('from must be a date such as 2026-01-31')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
  });
});

describe('SMS content', () => {
  const routes = {
    [`GET /api/${APP}/settings/sms-content`]: { body: smsContent },
    'GET /api/sms': { body: { provider: 'dev-outbox', devOutboxAvailable: true } },
  };

  it('previews the message with the branding name and counts its segments', async () => {
    renderSignedIn(`/${APP}/settings/sms-content`, makeBootstrap(), routes);
    expect((await screen.findByTestId('sms-preview')).textContent).toBe(
      'Your Acme Support code is 123456. It expires in 10 minutes. Never share it with anyone.',
    );
    expect(screen.getByTestId('segment-counter').textContent).toContain('GSM-7');
    expect(screen.getByTestId('segment-counter').textContent).toContain('1 segment');
  });

  it('switches to UCS-2 when a character outside GSM-7 is typed', async () => {
    renderSignedIn(`/${APP}/settings/sms-content`, makeBootstrap(), routes);
    fireEvent.change(await screen.findByLabelText('Passcode message'), { target: { value: 'Ваш код {{code}}' } });
    expect(screen.getByTestId('segment-counter').textContent).toContain('UCS-2');
  });

  it('requires {{code}} and offers it as a chip that inserts it', async () => {
    renderSignedIn(`/${APP}/settings/sms-content`, makeBootstrap(), routes);
    const area = (await screen.findByLabelText('Passcode message')) as HTMLTextAreaElement;
    fireEvent.change(area, { target: { value: 'Hello from {{company}}' } });
    expect(screen.getByText('The message must contain {{code}}')).toBeTruthy();
    area.setSelectionRange(area.value.length, area.value.length);
    fireEvent.click(screen.getByRole('button', { name: '{{code}} (required)' }));
    expect(area.value).toBe('Hello from {{company}}{{code}}');
    expect(screen.queryByText('The message must contain {{code}}')).toBeNull();
  });

  it('edits the text of another language, previews its segments and says which languages use the built-in text', async () => {
    const saved: unknown[] = [];
    renderSignedIn(`/${APP}/settings/sms-content`, makeBootstrap(), {
      ...routes,
      [`PUT /api/${APP}/settings/sms-content`]: async (request: Request) => {
        saved.push(await request.json());
        return { body: smsContent };
      },
    });
    expect((await screen.findByTestId('sms-fallback')).textContent).toBe(
      'Built-in text (not your own) in: Spanish, French, German, Portuguese (Brazil), Arabic, Japanese.',
    );
    fireEvent.change(screen.getByLabelText('Language of the Passcode message'), { target: { value: 'ar' } });
    expect(screen.getByTestId('sms-preview').textContent).toContain('رمز Acme Support الخاص بك هو 123456');
    expect(screen.getByTestId('segment-counter').textContent).toContain('UCS-2');
    fireEvent.change(screen.getByLabelText('Language of the Passcode message'), { target: { value: 'es' } });
    fireEvent.change(screen.getByLabelText('Passcode (Spanish) message'), {
      target: { value: 'Clave de {{company}}: {{code}}' },
    });
    expect(screen.getByTestId('segment-counter').textContent).toContain('GSM-7');
    expect(screen.getByTestId('sms-fallback').textContent).toBe(
      'Built-in text (not your own) in: French, German, Portuguese (Brazil), Arabic, Japanese.',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(saved).toHaveLength(1));
    const templates = (saved[0] as { templates: Record<string, string> }).templates;
    expect(templates['passcode@es']).toBe('Clave de {{company}}: {{code}}');
    expect(templates['passcode@fr']).toBe('');
  });

  it('resets a message to its default', async () => {
    renderSignedIn(`/${APP}/settings/sms-content`, makeBootstrap(), routes);
    const area = (await screen.findByLabelText('Passcode message')) as HTMLTextAreaElement;
    fireEvent.change(area, { target: { value: 'Code {{code}}' } });
    fireEvent.click(screen.getByRole('button', { name: 'Reset to default' }));
    expect(area.value).toBe(OTP_TEMPLATES[0]!.defaultBody);
  });

  it('shows the configuration sub-navigation with billing and pricing', async () => {
    renderSignedIn(`/${APP}/settings/sms-content`, makeBootstrap(), routes);
    const nav = await screen.findByRole('navigation', { name: 'One-Time Passcode configuration' });
    expect(
      within(nav)
        .getAllByRole('link')
        .map((l) => l.textContent),
    ).toEqual(['General', 'SMS content', 'Webhooks', 'Billing', 'Pricing', 'Customer data']);
    expect(within(nav).getByRole('link', { name: 'SMS content' }).getAttribute('aria-current')).toBe('page');
  });

  it('keeps a supervisor out of the configuration', async () => {
    renderSignedIn(`/${APP}/settings/sms-content`, makeBootstrap({ role: 'supervisor' }), routes);
    await waitFor(() => expect(here()).toBe('/'));
  });
});

describe('General settings', () => {
  it('checks the code length against the contract as it is typed and saves numbers', async () => {
    const settings = { codeLength: 6, validityMinutes: 10, maxChecks: 5, sendsPer10Minutes: 5 };
    const { calls } = renderSignedIn(`/${APP}/settings/general`, makeBootstrap(), {
      [`GET /api/${APP}/settings/general`]: { body: settings },
      [`PUT /api/${APP}/settings/general`]: { body: { ...settings, codeLength: 8 } },
    });
    const length = await screen.findByLabelText(/Code length/);
    fireEvent.change(length, { target: { value: '12' } });
    expect(screen.getByText('Code length is at most 10')).toBeTruthy();
    fireEvent.change(length, { target: { value: '8' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('Settings have been saved');
    expect(JSON.parse(calls.find((c) => c.method === 'PUT')!.body)).toEqual({ ...settings, codeLength: 8 });
  });
});

describe('Webhooks', () => {
  it('refuses an endpoint that is not https before calling the API', async () => {
    const { calls } = renderSignedIn(`/${APP}/settings/webhooks`, makeBootstrap(), {
      [`GET /api/${APP}/webhooks`]: { body: [] },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Add endpoint' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add an endpoint' });
    fireEvent.change(within(dialog).getByLabelText(/URL/), { target: { value: 'http://example.com/hook' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('URL must start with https://')).toBeTruthy();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('a new endpoint gets phone numbers masked unless the admin ticks full numbers', async () => {
    const created = {
      id: 'ep2',
      url: 'https://hooks.example.com/full',
      eventTypes: ['otp.sent'],
      enabled: true,
      disabledReason: null,
      createdAt: new Date().toISOString(),
      fullPhoneNumbers: true,
    };
    const { calls } = renderSignedIn(`/${APP}/settings/webhooks`, makeBootstrap(), {
      [`GET /api/${APP}/webhooks`]: { body: [] },
      [`POST /api/${APP}/webhooks`]: { status: 201, body: created },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Add endpoint' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add an endpoint' });
    const full = within(dialog).getByRole('checkbox', { name: /Send full phone numbers/ }) as HTMLInputElement;
    expect(full.checked).toBe(false);
    fireEvent.change(within(dialog).getByLabelText(/URL/), { target: { value: 'https://hooks.example.com/full' } });
    fireEvent.click(full);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    expect(JSON.parse(calls.find((c) => c.method === 'POST')!.body)).toMatchObject({
      url: 'https://hooks.example.com/full',
      fullPhoneNumbers: true,
    });
  });

  it('offers the journeys\u2019 events after the app\u2019s own, not ticked', async () => {
    renderSignedIn(`/${APP}/settings/webhooks`, makeBootstrap(), { [`GET /api/${APP}/webhooks`]: { body: [] } });
    fireEvent.click(await screen.findByRole('button', { name: 'Add endpoint' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add an endpoint' });
    const journey = within(dialog).getByRole('checkbox', { name: 'journey.completed' }) as HTMLInputElement;
    expect(journey.checked).toBe(false);
    expect((within(dialog).getByRole('checkbox', { name: 'otp.verified' }) as HTMLInputElement).checked).toBe(true);
  });

  it('asks before deleting an endpoint', async () => {
    const endpoint = {
      id: 'ep1',
      url: 'https://hooks.example.com/otp',
      eventTypes: ['otp.verified'],
      enabled: true,
      disabledReason: null,
      createdAt: new Date().toISOString(),
    };
    const { calls } = renderSignedIn(`/${APP}/settings/webhooks`, makeBootstrap(), {
      [`GET /api/${APP}/webhooks`]: { body: [endpoint] },
      [`DELETE /api/${APP}/webhooks/ep1`]: { body: { deleted: true } },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Delete https://hooks.example.com/otp' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete this endpoint?' });
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    fireEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await screen.findByText('The endpoint has been deleted');
  });
});

describe('Development SMS outbox', () => {
  it('lists the stored messages with number and text', async () => {
    renderSignedIn('/dev/sms-outbox', makeBootstrap(), {
      'GET /api/dev/sms-outbox': {
        body: [{ id: 'm1', to: '+15551234567', body: 'Your Acme Support code is 482913.', createdAt: new Date().toISOString() }],
      },
    });
    const message = await screen.findByTestId('outbox-message');
    expect(message.textContent).toContain('+15551234567');
    expect(message.textContent).toContain('Your Acme Support code is 482913.');
  });
});
