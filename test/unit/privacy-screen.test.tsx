import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { CustomerData, PrivacyRequest } from '../../api/contract/privacy';
import { makeBootstrap, renderSignedIn } from './helpers';

const FOUND: CustomerData = {
  total: 4,
  legalHolds: 1,
  apps: [
    {
      app: 'document-signature',
      title: 'Document Signature',
      count: 2,
      stores: [{ store: 'signature.requests', label: "Signature requests: signer's name", count: 2 }],
    },
    {
      app: 'platform',
      title: 'Shared records (messages, logs, webhooks, audit)',
      count: 2,
      stores: [{ store: 'sms.outbox', label: 'The development SMS outbox', count: 2 }],
    },
  ],
};
const DONE: PrivacyRequest = {
  id: '0b7c2a41-5b6e-4f70-8a91-0c2d3e4f5a6b',
  kind: 'erasure',
  state: 'done',
  subjectKind: 'phone',
  requestedBy: 'Olivia Owens',
  requestedVia: 'console',
  createdAt: '2026-11-28T10:00:00.000Z',
  finishedAt: '2026-11-28T10:00:01.000Z',
  counts: { 'signature.requests': 1 },
  held: [{ requestId: 'x', since: '2026-11-27T10:00:00.000Z' }],
  downloadUrl: null,
};

describe('Customer data screen', () => {
  it('finds a caller by a phone number sent in the body, shows what is held by app, and erases it after a confirmation', async () => {
    const bodies: unknown[] = [];
    renderSignedIn('/settings/privacy', makeBootstrap(), {
      'GET /api/privacy/requests': { body: [] },
      'POST /api/privacy/search': async (req) => (bodies.push(await req.json()), { body: FOUND }),
      'POST /api/privacy/erasure-requests': async (req) => (bodies.push(await req.json()), { body: DONE }),
    });
    fireEvent.change(await screen.findByRole('textbox', { name: /Phone number/ }), { target: { value: '+1 (415) 666-1900' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByText(/2 × Signature requests/)).toBeTruthy();
    expect(screen.getByText(/under a legal hold: an erasure keeps them/)).toBeTruthy();
    expect(bodies[0]).toEqual({ phoneNumber: '+1 (415) 666-1900' });
    fireEvent.click(screen.getByRole('button', { name: 'Erase…' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Erase' }));
    await waitFor(() => expect(bodies.length).toBeGreaterThanOrEqual(2));
    expect(bodies[1]).toEqual({ phoneNumber: '+1 (415) 666-1900' });
    expect(await screen.findByText("The caller's data has been erased")).toBeTruthy();
  });

  const OTP_RULE = {
    kind: 'otp.tasks',
    app: 'one-time-passcode',
    label: 'One-Time Passcode verifications',
    covers: 'Phone numbers of passcode verifications.',
    days: 90,
    defaultDays: 90,
    startsAt: '2099-01-01T00:00:00.000Z',
    confirmedBy: null,
    wouldRedact: 42,
    setOnStorage: false,
  };
  // a Storage kind (Identity Verification, Document Signature) has the same dry run and grace
  const IDV_RULE = {
    kind: 'idv.images',
    app: 'identity-verification',
    label: 'Identity Verification images',
    covers: 'Document photos and selfies.',
    days: 30,
    defaultDays: null,
    startsAt: '2099-01-01T00:00:00.000Z',
    confirmedBy: null,
    wouldRedact: 42,
    setOnStorage: true,
  };
  it.each([OTP_RULE, IDV_RULE])(
    'retention shows $kind with its dry run and first run, and an admin starts it now',
    async (rule) => {
      renderSignedIn('/settings/privacy', makeBootstrap(), {
        'GET /api/privacy/requests': { body: [] },
        'GET /api/privacy/retention': { body: [rule] },
        [`POST /api/privacy/retention/${rule.kind}/confirm`]: {
          body: [{ ...rule, startsAt: '2026-01-01T00:00:00.000Z', confirmedBy: 'Olivia Owens' }],
        },
      });
      expect(await screen.findByText(/Dry run: 42 records would be redacted now\. First run from/)).toBeTruthy();
      fireEvent.click(screen.getByRole('button', { name: 'Start now' }));
      expect(await screen.findByText(/In force \(confirmed by Olivia Owens\)/)).toBeTruthy();
    },
  );

  it('a number without its country code is refused before anything is sent', async () => {
    const { calls } = renderSignedIn('/settings/privacy', makeBootstrap(), { 'GET /api/privacy/requests': { body: [] } });
    fireEvent.change(await screen.findByRole('textbox', { name: /Phone number/ }), { target: { value: '415 666' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByText(/Enter the number with its country code/)).toBeTruthy();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('a supervisor never reaches the screen (settings are for admins)', async () => {
    const { calls } = renderSignedIn('/settings/privacy', makeBootstrap({ role: 'supervisor' }), {});
    expect(await screen.findByText(/Welcome,/)).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Customer data' })).toBeNull();
    expect(calls.some((c) => c.url.includes('/privacy'))).toBe(false);
  });

  it('links the Data Processing Addendum from the screen itself, not only the footer', async () => {
    renderSignedIn('/settings/privacy', makeBootstrap(), {
      'GET /api/privacy/requests': { body: [] },
      'GET /api/privacy/retention': { body: [] },
    });
    await screen.findByRole('heading', { name: 'Customer data' });
    const link = within(screen.getByRole('main')).getByRole('link', { name: 'Data Processing Addendum' });
    expect(link.getAttribute('href')).toBe('/legal/data-processing-addendum');
  });

  it('identity documents and signed documents are edited here too, beside the other kinds', async () => {
    const idv = {
      kind: 'idv.images',
      app: 'identity-verification',
      label: 'Identity Verification images',
      covers: 'Document photos and selfies.',
      days: null,
      defaultDays: null,
      startsAt: '1970-01-01T00:00:00.000Z',
      confirmedBy: null,
      wouldRedact: 0,
      setOnStorage: true,
    };
    const bodies: unknown[] = [];
    renderSignedIn('/settings/privacy', makeBootstrap(), {
      'GET /api/privacy/requests': { body: [] },
      'GET /api/privacy/retention': { body: [idv] },
      'PUT /api/privacy/retention': async (req) => (bodies.push(await req.json()), { body: [{ ...idv, days: 60 }] }),
    });
    fireEvent.change(await screen.findByRole('spinbutton', { name: /Identity Verification images/ }), {
      target: { value: '60' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Retention has been saved')).toBeTruthy();
    expect(bodies).toEqual([{ kind: 'idv.images', days: 60 }]);
  });

  it('an export is answered at once as waiting, and its ZIP link appears when the job has made it', async () => {
    const pending: PrivacyRequest = {
      ...DONE,
      id: '1b7c2a41-5b6e-4f70-8a91-0c2d3e4f5a6c',
      kind: 'export',
      state: 'pending',
      finishedAt: null,
      counts: {},
      held: [],
      downloadUrl: null,
    };
    let listed: PrivacyRequest[] = [];
    let asks = 0;
    renderSignedIn('/settings/privacy', makeBootstrap(), {
      'GET /api/privacy/requests': () => {
        asks++;
        // the job finishes it between the second and third look
        if (listed.length && asks > 3)
          listed = [{ ...pending, state: 'done', finishedAt: '2026-11-28T10:00:05.000Z', downloadUrl: '/api/files/zip-token' }];
        return { body: listed };
      },
      'POST /api/privacy/search': { body: FOUND },
      'POST /api/privacy/export-requests': () => ((listed = [pending]), { body: pending }),
    });
    fireEvent.change(await screen.findByRole('textbox', { name: /Phone number/ }), { target: { value: '+1 (415) 666-1900' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Export as ZIP' }));
    expect(await screen.findByText('The export is being made')).toBeTruthy();
    expect(await screen.findByText('Waiting')).toBeTruthy();
    const link = await screen.findByRole('link', { name: 'ZIP' }, { timeout: 8000 });
    expect(link.getAttribute('href')).toBe('/api/files/zip-token');
  }, 15_000);
});
